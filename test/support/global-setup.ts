import type { TestProject } from 'vitest/node';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../server/persistence/embedded-postgres.js';
import { migrate, openOrm } from '../../server/persistence/orm.js';
import { freePort } from './free-port.js';
import { prepareBrowser, type BrowserLaunch } from './chromium.js';
import { COMPILE_CACHE_PRELOAD, compileCacheSource } from './compile-cache.js';
import { createScratchRoot } from './scratch.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of a server database with CREATEDB rights; tests clone `templateDatabase` from it. */
    adminDatabaseUrl: string;
    /** A migrated database that every test file clones. */
    templateDatabase: string;
    /** The console test's browser (test/support/chromium.ts). */
    browser: BrowserLaunch;
    /** The service compiled once for the run (test/support/service-build.ts). */
    serviceBuild: string;
    /** Where the run's PostgreSQL clusters and service data dirs go (test/support/scratch.ts). */
    scratchRoot: string;
  }
}

export const TEMPLATE_DATABASE = `svc_template_${process.pid}`;
/** Node's compile cache of the starts from this run's build (test/support/compile-cache.ts). */
const COMPILE_CACHE_DIR = path.join(tmpdir(), `svc-test-compile-cache-${process.pid}`);

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The service compiled for this run (`scripts/build.mjs --out`), for the tests that start it in a process of its own.
 * Under node_modules/, where its imports resolve and no linter or checker looks; a package.json of its own marks its
 * files as ES modules, since Node does not look past a node_modules folder for one.
 */
async function buildService(): Promise<string> {
  const out = path.join(ROOT, 'node_modules', '.cache', `svc-test-build-${process.pid}`);
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), '--out', out], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`the suite's build of the service failed (exit ${code}):\n${stderr}`);
  writeFileSync(path.join(out, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(path.join(out, COMPILE_CACHE_PRELOAD), compileCacheSource(COMPILE_CACHE_DIR));
  return out;
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject) {
  // Unpacking the browser (first run of a version only: a few seconds) and the service's build overlap the database start.
  const browser = prepareBrowser();
  browser.catch(() => undefined);
  // The exit-code check's nested run (test/integration/platform/test-runner-exit.test.ts) starts no service.
  const serviceBuild = process.env.EXIT_CHECK_RUN === '1' ? Promise.resolve('') : buildService();
  serviceBuild.catch(() => undefined);
  const scratch = createScratchRoot();
  const external = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let adminUrl: string;
  if (external) {
    adminUrl = external;
  } else {
    const dir = mkdtempSync(path.join(scratch.root, 'svc-test-pg-'));
    chmodSync(dir, 0o755);
    const port = await freePort();
    const embedded = await startEmbeddedPostgres({ dataDir: dir, port, clusterDir: path.join(dir, 'pgdata'), persistent: false });
    adminUrl = embedded.url;
    stopEmbedded = async () => {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    };
  }

  const templateUrl = new URL(adminUrl);
  templateUrl.pathname = `/${TEMPLATE_DATABASE}`;
  await withClient(adminUrl, async (c) => {
    await c.query(`drop database if exists "${TEMPLATE_DATABASE}"`);
    await c.query(`create database "${TEMPLATE_DATABASE}"`);
  });
  const orm = await openOrm(templateUrl.toString());
  await migrate(orm);
  await orm.close(true);

  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabase', TEMPLATE_DATABASE);
  project.provide('scratchRoot', scratch.root);
  try {
    project.provide('browser', await browser);
    project.provide('serviceBuild', await serviceBuild);
  } catch (err) {
    await stopEmbedded?.();
    scratch.remove();
    throw err;
  }

  return async () => {
    await withClient(adminUrl, (c) => c.query(`drop database if exists "${TEMPLATE_DATABASE}" with (force)`)).catch(() => undefined);
    await stopEmbedded?.();
    await serviceBuild.then((dir) => dir && rmSync(dir, { recursive: true, force: true })).catch(() => undefined);
    rmSync(COMPILE_CACHE_DIR, { recursive: true, force: true });
    scratch.remove();
  };
}
