import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layer rules of docs/ARCHITECTURE.md that a reader of one file cannot see
 * broken: domain and operator code reach storage only through persistence
 * functions that speak domain types. A violation names the file and what it did.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) return name === 'node_modules' || name === 'ui' ? [] : sources(rel);
    return rel.endsWith('.ts') ? [rel] : [];
  });
}

/** Every `import ... from '<spec>'` of a file: the names it takes and where from. */
function imports(text: string): { names: string[]; from: string }[] {
  return [...text.matchAll(/import\s+(type\s+)?([\s\S]*?)\s+from\s+'([^']+)'/g)].map((m) => ({
    names: [...m[2]!.matchAll(/(?:type\s+)?([A-Za-z_$][\w$]*)(?:\s+as\s+[\w$]+)?/g)].map((n) => n[1]!),
    from: m[3]!,
  }));
}

function violations(files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const { names, from } of imports(text)) {
      if (!from.includes('persistence/')) continue;
      if (from.includes('persistence/entities')) found.push(`${file}: imports ORM entities (${from})`);
      for (const name of names.filter((n) => /^[A-Z]\w*Row$/.test(n))) found.push(`${file}: imports the row type ${name} from ${from}`);
    }
    // A statement written in domain code: `sql(`…`)`, `sql<Row>(`…`)`, `.execute(`…`)`.
    if (/\b(?:sql|execute)\s*(?:<[^>]*>)?\(\s*`/.test(text)) found.push(`${file}: runs SQL of its own`);
  }
  return found;
}

/**
 * A migration runs on databases of every later release: it may import only the migration library and its own frozen
 * copies (server/persistence/migrations/frozen), never live domain or persistence code, whose later changes would change
 * what an old migration does.
 */
function migrationViolations(files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    for (const { from } of imports(readFileSync(path.join(root, file), 'utf8'))) {
      if (from.startsWith('@mikro-orm/') || from.startsWith('./')) continue;
      found.push(`${file}: imports live code (${from})`);
    }
  }
  return found;
}

describe('layering', () => {
  it('domain modules import no ORM entity and no SQL row type, and run no SQL of their own', () => {
    expect(violations(sources('server/domain'))).toEqual([]);
  });

  it('operator procedures reach storage through the same domain and persistence functions', () => {
    expect(violations(sources('admin'))).toEqual([]);
  });

  it('migrations import only the migration library and their frozen copies', () => {
    const migrations = sources('server/persistence/migrations').filter((f) => !f.endsWith('/index.ts'));
    expect(migrations.length).toBeGreaterThan(10);
    expect(migrationViolations(migrations)).toEqual([]);
  });

  it('the migration check sees a migration importing live code', () => {
    expect(migrationViolations(['test/unit/platform/layering-migration-fixture.txt'])).toEqual([
      'test/unit/platform/layering-migration-fixture.txt: imports live code (../redact-stored-card-numbers.js)',
      'test/unit/platform/layering-migration-fixture.txt: imports live code (../sql/sql.js)',
      'test/unit/platform/layering-migration-fixture.txt: imports live code (../../domain/guard/card-numbers.js)',
    ]);
  });

  it('the check sees a violation when there is one', () => {
    expect(violations(['test/unit/platform/layering-fixture.txt'])).toEqual([
      'test/unit/platform/layering-fixture.txt: imports ORM entities (../../persistence/entities/index.js)',
      'test/unit/platform/layering-fixture.txt: imports the row type ConnectionRow from ../../persistence/sql/ledger-connections.sql.js',
      'test/unit/platform/layering-fixture.txt: runs SQL of its own',
    ]);
  });
});
