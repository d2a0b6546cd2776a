/**
 * `npm run migrate`: apply every pending migration to DATABASE_URL, or to the
 * embedded default when it is unset, and print what was applied.
 */
import { ConfigError, loadConfig } from '../config.js';
import { describeDatabase } from '../service.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { migrate, openOrm } from './orm.js';

try {
  const config = loadConfig();
  const embedded = config.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres({ dataDir: config.SVC_DATA_DIR, port: config.SVC_EMBEDDED_PG_PORT });
  const url = config.DATABASE_URL ?? embedded!.url;
  const orm = await openOrm(url);
  try {
    const applied = await migrate(orm);
    const target = embedded ? `embedded PostgreSQL in ${embedded.dataDir}` : describeDatabase(url);
    console.log(applied.length === 0 ? `${target}: up to date` : `${target}: applied ${applied.join(', ')}`);
  } finally {
    await orm.close(true);
    await embedded?.stop();
  }
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : `migration failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
