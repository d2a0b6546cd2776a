import type { TestProject } from 'vitest/node';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../server/persistence/embedded-postgres.js';
import { migrate, openOrm } from '../../server/persistence/orm.js';
import { freePort } from './free-port.js';
import { prepareBrowser, type BrowserLaunch } from './chromium.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of a server database with CREATEDB rights; tests clone `templateDatabase` from it. */
    adminDatabaseUrl: string;
    /** A migrated database that every test file clones. */
    templateDatabase: string;
    /** The console test's browser (test/support/chromium.ts). */
    browser: BrowserLaunch;
  }
}

export const TEMPLATE_DATABASE = `svc_template_${process.pid}`;

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
  // Unpacking the browser (first run of a version only: a few seconds) overlaps the database start.
  const browser = prepareBrowser();
  browser.catch(() => undefined);
  const external = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let adminUrl: string;
  if (external) {
    adminUrl = external;
  } else {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-test-pg-'));
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
  try {
    project.provide('browser', await browser);
  } catch (err) {
    await stopEmbedded?.();
    throw err;
  }

  return async () => {
    await withClient(adminUrl, (c) => c.query(`drop database if exists "${TEMPLATE_DATABASE}" with (force)`)).catch(() => undefined);
    await stopEmbedded?.();
  };
}
