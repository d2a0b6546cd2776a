/**
 * Developer tool: write a migration for the difference between the entities and
 * a database migrated to the latest committed migration. Usage:
 * `npm run migration:create -- <name>`; then add the file to migrations/index.ts.
 */
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { migrate, openOrm } from './orm.js';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const name = process.argv[2];
if (!name) {
  console.error('usage: npm run migration:create -- <name>');
  process.exit(2);
}
const dir = mkdtempSync(path.join(tmpdir(), 'svc-migration-'));
chmodSync(dir, 0o755);
const pg = await startEmbeddedPostgres({ dataDir: dir, port: 54399, clusterDir: path.join(dir, 'pgdata'), persistent: false });
const orm = await openOrm(pg.url);
try {
  await migrate(orm);
  const result = await orm.migrator.create(undefined, false, false, name);
  console.log(result.fileName ? `wrote ${result.fileName}` : 'no changes');
} finally {
  await orm.close();
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
}
