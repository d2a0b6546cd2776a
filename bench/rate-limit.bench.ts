/**
 * `npm run bench:rate-limit`: what the per-key limit costs on the hottest
 * route. The same app on the same database, three ways, one key each, limits
 * raised so nothing is refused, interleaved 3 times (median reported), new
 * payment reports at 32 connections:
 * - lease 20 (the default): one leasing statement per 20 requests of a key;
 * - lease 10^9: one leasing statement per key per second (the lease lifetime),
 *   so the limiter costs only its in-memory check: the baseline;
 * - lease 1: one leasing statement per request, the worst case.
 * Before the loads, in the same process and database: the leasing statement
 * against `select 1` (2,000 sequential round trips each, interleaved in blocks),
 * and the in-memory check per request (1,000,000 calls).
 */
import { randomUUID } from 'node:crypto';
import { ConfigSchema } from '../server/config.js';
import { createKeyRateLimiter } from '../server/domain/rate-limit/key-rate-limiter.js';
import { leaseTokens } from '../server/persistence/sql/rate-limit-buckets.sql.js';
import { sqlOf } from '../server/persistence/sql/sql.js';
import { createApp } from '../server/http/app.js';
import { listen } from '../server/http/lifecycle.js';
import { createLogger } from '../server/logger.js';
import { ADMIN_TOKEN, BENCH_KEY_MAC, benchKey, load, printTable, startBenchService, UNLIMITED_RATE, type Figures } from './support.js';

/** Mean milliseconds of `run` over `times` sequential calls. */
async function meanMs(times: number, run: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < times; i++) await run();
  return Number(process.hrtime.bigint() - started) / 1e6 / times;
}

const env = await startBenchService();
try {
  const sql = sqlOf(env.orm.em.fork());
  const bucket = { perSecond: 1e9, burst: 1e9 };
  const leaseKey = randomUUID();
  const lease = () => leaseTokens(sql, leaseKey, 20, bucket);
  const selectOne = () => sql('select 1');
  await meanMs(200, lease);
  await meanMs(200, selectOne);
  const leaseMs: number[] = [];
  const selectMs: number[] = [];
  for (let block = 0; block < 10; block++) {
    leaseMs.push(await meanMs(200, lease));
    selectMs.push(await meanMs(200, selectOne));
  }
  const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`leasing statement: ${mid(leaseMs).toFixed(3)} ms; select 1: ${mid(selectMs).toFixed(3)} ms (median of 10 blocks of 200)`);
  const take = createKeyRateLimiter({ ...bucket, leaseSize: 1e9, leaseTtlMs: 60_000 }, async () => ({ granted: 1e9, remaining: 0 }));
  await take('warm');
  const checkMs = await meanMs(1_000_000, () => take('warm'));
  console.log(`in-memory check: ${(checkMs * 1e6).toFixed(0)} ns per request (1,000,000 calls)\n`);

  const variants = [
    { name: 'lease 10^9 (in-memory check only)', lease: '1000000000' },
    { name: 'lease 20 (default)', lease: '20' },
    { name: 'lease 1 (a statement per request)', lease: '1' },
  ];
  const apps = [];
  for (const v of variants) {
    const config = ConfigSchema.parse({
      DATABASE_URL: env.databaseUrl,
      LOG_LEVEL: 'warn',
      ...UNLIMITED_RATE,
      SVC_RATE_LIMIT_LEASE: v.lease,
    });
    const server = await listen(
      createApp({ orm: env.orm, config, logger: createLogger('warn'), adminToken: ADMIN_TOKEN, keyMac: BENCH_KEY_MAC }),
      0,
      '127.0.0.1',
    );
    apps.push({ ...v, server, key: await benchKey(env.orm, 'gwc', ['payments:write']), runs: [] as Figures[] });
  }
  for (let round = 0; round < 3; round++) {
    for (const app of apps) {
      app.runs.push(
        await load(app.name, {
          url: `http://127.0.0.1:${app.server.port}/api/v1/gwc/payment-reports`,
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${app.key}` },
          generator: 'report:unique',
        }),
      );
    }
  }
  const median = (runs: Figures[]) => [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[1]!;
  const rows = apps.map((a) => median(a.runs));
  printTable(rows, rows[0]!);
  for (const a of apps) console.log(`${a.name}: req/s of the 3 runs ${a.runs.map((r) => r.requestsPerSecond).join(', ')}`);
  for (const a of apps) await a.server.close(1000);
} finally {
  await env.close();
}
