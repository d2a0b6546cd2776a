/**
 * `npm run db:types`: migrate a scratch embedded PostgreSQL (or DATABASE_URL)
 * and write the table types of the resulting schema to database.generated.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from '../embedded-postgres.js';
import { migrate, openOrm } from '../orm.js';
import { poolSql } from '../sql/sql.js';
import { renderDatabaseTypes } from './render-database-types.js';

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const scratch = process.env.DATABASE_URL ? undefined : await mkdtemp(path.join(tmpdir(), 'svc-db-types-'));
const embedded = scratch ? await startEmbeddedPostgres({ dataDir: scratch, port: await freePort() }) : undefined;
const orm = await openOrm(process.env.DATABASE_URL ?? embedded!.url);
try {
  await migrate(orm);
  const target = fileURLToPath(new URL('./database.generated.ts', import.meta.url));
  await writeFile(target, await renderDatabaseTypes(poolSql(orm)));
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
} finally {
  await orm.close(true);
  await embedded?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
}
