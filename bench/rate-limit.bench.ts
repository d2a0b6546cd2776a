/**
 * `npm run bench:rate-limit`: what the per-key limit costs on the hottest
 * route. The service as `npm start` runs it on the same database, three ways (three processes), one key each, limits
 * raised so nothing is refused, each warmed (BENCH_WARMUP_SECONDS, default 2), then interleaved BENCH_ROUNDS times (default 3, median reported), new
 * payment reports at 32 connections:
 * - lease 20 (the default): one leasing statement per 20 requests of a key;
 * - lease 10^9: one leasing statement per key per second (the lease lifetime),
 *   so the limiter costs only its in-memory check: the baseline;
 * - lease 1: one leasing statement per request, the worst case.
 * Before the loads, from the bench's process on a direct connection to the same database: the leasing statement
 * against `select 1` (2,000 sequential round trips each, interleaved in blocks), and the in-memory check per request
 * (1,000,000 calls).
 */
import { randomUUID } from 'node:crypto';
import { createKeyRateLimiter } from '../server/domain/rate-limit/key-rate-limiter.js';
import { leaseTokens } from '../server/persistence/sql/rate-limit-buckets.sql.js';
import { sql } from 'kysely';
import { poolDatabase } from '../server/persistence/kysely.js';
import { openOrm } from '../server/persistence/orm.js';
import { benchKey, load, median, printTable, settle, startDatabase, startService, type Figures } from './support.js';

/** Mean milliseconds of `run` over `times` sequential calls. */
async function meanMs(times: number, run: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < times; i++) await run();
  return Number(process.hrtime.bigint() - started) / 1e6 / times;
}

const db = await startDatabase();
const apps: (Awaited<ReturnType<typeof startService>> & { name: string; key: string; runs: Figures[] })[] = [];
try {
  const variants = [
    { name: 'lease 10^9 (in-memory check only)', lease: '1000000000' },
    { name: 'lease 20 (default)', lease: '20' },
    { name: 'lease 1 (a statement per request)', lease: '1' },
  ];
  // One after the other: the first migrates the database (and builds dist/ when stale).
  for (const v of variants) {
    const service = await startService(db, { env: { SVC_RATE_LIMIT_LEASE: v.lease } });
    apps.push({ ...service, name: v.name, key: await benchKey(service, 'gwc', ['payments:write']), runs: [] });
  }

  const orm = await openOrm(db.url, { pool: { min: 1, max: 2 } });
  const database = poolDatabase(orm);
  const bucket = { perSecond: 1e9, burst: 1e9 };
  const leaseKey = randomUUID();
  const lease = () => leaseTokens(database, leaseKey, 20, bucket);
  const selectOne = () => sql`select 1`.execute(database);
  await meanMs(200, lease);
  await meanMs(200, selectOne);
  const leaseMs: number[] = [];
  const selectMs: number[] = [];
  for (let block = 0; block < 10; block++) {
    leaseMs.push(await meanMs(200, lease));
    selectMs.push(await meanMs(200, selectOne));
  }
  console.log(
    `leasing statement: ${median(leaseMs).toFixed(3)} ms; select 1: ${median(selectMs).toFixed(3)} ms (median of 10 blocks of 200)`,
  );
  const take = createKeyRateLimiter({ ...bucket, leaseSize: 1e9, leaseTtlMs: 60_000 }, async () => ({ granted: 1e9, remaining: 0 }));
  await take('warm');
  const checkMs = await meanMs(1_000_000, () => take('warm'));
  console.log(`in-memory check: ${(checkMs * 1e6).toFixed(0)} ns per request (1,000,000 calls)\n`);
  await orm.close(true);

  const reports = (app: (typeof apps)[number]) => ({
    url: `${app.url}/api/v1/gwc/payment-reports`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${app.key}` },
    generator: 'report:unique',
  });
  for (const app of apps) await load('warm-up', { ...reports(app), duration: Number(process.env.BENCH_WARMUP_SECONDS ?? 2) });
  for (let round = 0; round < Number(process.env.BENCH_ROUNDS ?? 3); round++) {
    for (const app of apps) {
      await settle(apps.map((a) => a.pid));
      app.runs.push(await load(app.name, reports(app)));
    }
  }
  const mid = (runs: Figures[]) => runs.find((r) => r.requestsPerSecond === median(runs.map((x) => x.requestsPerSecond)))!;
  const rows = apps.map((a) => mid(a.runs));
  printTable(rows, rows[0]!);
  for (const a of apps) console.log(`${a.name}: req/s of the runs ${a.runs.map((r) => r.requestsPerSecond).join(', ')}`);
} finally {
  for (const a of apps) await a.stop();
  await db.stop();
}
