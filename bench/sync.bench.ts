/**
 * `npm run bench:sync`: import sandbox companies of 10,000 and 20,000 invoices
 * (5 lines each) with 1,000 items through the real importer (query API, paging,
 * idempotent upserts, checkpoint), on a throw-away embedded PostgreSQL. Prints
 * invoices per second and peak memory; the 20k run should take about twice as long.
 * The sandbox runs in this same process, so the figures include its work.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importRun } from '../server/domain/ledger/import-run.js';
import { createLogger } from '../server/logger.js';
import { startEmbeddedPostgres } from '../server/persistence/embedded-postgres.js';
import { migrate, openOrm } from '../server/persistence/orm.js';
import { poolUnitOfWork } from '../server/persistence/unit-of-work.js';
import { queuedImport } from './ledger-support.js';
import { collectGarbage } from './support.js';
import { freePort } from '../test/support/free-port.js';

const SIZES = [10_000, 20_000];
const ITEMS = 1_000;
const LINES = 5;

const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-sync-'));
chmodSync(dir, 0o755);
const pg = await startEmbeddedPostgres({
  dataDir: dir,
  port: await freePort(),
  clusterDir: path.join(dir, 'pgdata'),
  persistent: false,
});
const orm = await openOrm(pg.url, { pool: { min: 2, max: 10 } });
await migrate(orm);
const logger = createLogger('warn');
const storage = poolUnitOfWork(orm);
const results: { invoices: number; seconds: number; perSecond: number; peakRssMb: number; pages: number }[] = [];

try {
  for (const size of SIZES) {
    const realmId = `93414520${size}`;
    const { runId, runtime, sandbox } = await queuedImport(orm, pg.url, {
      invoices: size,
      items: ITEMS,
      lines: LINES,
      realmId,
      outboxDir: dir,
    });
    collectGarbage();
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 25);
    const started = process.hrtime.bigint();
    const outcome = await importRun(storage, runtime, { runId, maxAttempts: 1, logger });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    clearInterval(sampler);
    const run = await storage.store.ledger.runById(runId);
    const entities = run?.entities as Record<'Invoice' | 'Item', { created: number; pages: number }> | undefined;
    if (outcome !== 'done' || run?.state !== 'succeeded' || entities?.Invoice.created !== size)
      throw new Error(`bench run did not complete: ${JSON.stringify(run)}`);
    results.push({
      invoices: size,
      seconds,
      perSecond: size / seconds,
      peakRssMb: peak / 1024 / 1024,
      pages: entities.Invoice.pages + entities.Item.pages + 1,
    });
    await sandbox.close();
  }
  console.log('ledger sync benchmark (5 lines per invoice, 1,000 items, page size 500, sandbox in its own process)');
  console.log('invoices | seconds | invoices/s | peak RSS MB | provider pages');
  for (const r of results)
    console.log(
      `${String(r.invoices).padStart(8)} | ${r.seconds.toFixed(2).padStart(7)} | ${r.perSecond.toFixed(0).padStart(10)} | ${r.peakRssMb.toFixed(0).padStart(11)} | ${r.pages}`,
    );
  const ratio = results[1]!.seconds / results[0]!.seconds;
  console.log(`20k / 10k time ratio: ${ratio.toFixed(2)} (linear ≈ 2.0)`);
} finally {
  await orm.close(true);
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
}
