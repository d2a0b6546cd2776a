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

/** Every module a file imports (static, `export … from`, dynamic `import()`), as a path from the repository root or a package name. */
function importedModules(file: string, at = file): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const specs = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)'([^']+)'/gm)].map((m) => m[1]!);
  return specs.map((spec) => (spec.startsWith('.') ? path.posix.join(path.posix.dirname(at), spec) : spec));
}

/** `<file>: imports <module>` for each import of `files` that `forbidden` names; `at` reads a fixture as if it stood there. */
function edges(files: string[], forbidden: (module: string) => boolean, at?: string): string[] {
  return files.flatMap((file) =>
    importedModules(file, at ?? file)
      .filter(forbidden)
      .map((m) => `${file}: imports ${m}`),
  );
}

const isIntegration = (m: string) => m.startsWith('server/integrations/');
const isPersistence = (m: string) => m.startsWith('server/persistence/');
const isOrm = (m: string) => m.startsWith('@mikro-orm/');

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

  it('the domain imports nothing from server/integrations: the provider client and the mailer implement domain ports', () => {
    expect(edges(sources('server/domain'), isIntegration)).toEqual([]);
  });

  it('operator code and integrations import nothing from server/persistence', () => {
    expect(edges([...sources('admin'), ...sources('server/integrations')], isPersistence)).toEqual([]);
  });

  it('the domain imports nothing from server/persistence or MikroORM: it reaches storage through its ports', () => {
    expect(edges(sources('server/domain'), (m) => isPersistence(m) || isOrm(m))).toEqual([]);
  });

  it('the import check sees each forbidden edge', () => {
    const fixture = 'test/unit/platform/layering-fixture.txt';
    const at = 'server/domain/ledger/fixture.ts';
    expect(edges([fixture], isIntegration, at)).toEqual([`${fixture}: imports server/integrations/ledger/ledger-api.js`]);
    expect(edges([fixture], isPersistence, at)).toEqual([
      `${fixture}: imports server/persistence/entities/index.js`,
      `${fixture}: imports server/persistence/sql/ledger-connections.sql.js`,
      `${fixture}: imports server/persistence/sql/sql.js`,
    ]);
    expect(edges([fixture], isOrm, at)).toEqual([`${fixture}: imports @mikro-orm/postgresql`]);
  });

  it('the check sees a violation when there is one', () => {
    expect(violations(['test/unit/platform/layering-fixture.txt'])).toEqual([
      'test/unit/platform/layering-fixture.txt: imports ORM entities (../../persistence/entities/index.js)',
      'test/unit/platform/layering-fixture.txt: imports the row type ConnectionRow from ../../persistence/sql/ledger-connections.sql.js',
      'test/unit/platform/layering-fixture.txt: runs SQL of its own',
    ]);
  });
});
