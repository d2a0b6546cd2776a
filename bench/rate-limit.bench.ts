/**
 * `npm run bench:rate-limit`: what the per-key limit costs on the hottest
 * route. The same app on the same database, three ways, one key each, limits
 * raised so nothing is refused, interleaved 3 times (median reported), new
 * payment reports at 32 connections:
 * - lease 20 (the default): one leasing statement per 20 requests of a key;
 * - lease 10^9: one leasing statement per key per second (the lease lifetime),
 *   so the limiter costs only its in-memory check: the baseline;
 * - lease 1: one leasing statement per request, the worst case.
 */
import { ConfigSchema } from '../server/config.js';
import { createApp } from '../server/http/app.js';
import { listen } from '../server/http/lifecycle.js';
import { createLogger } from '../server/logger.js';
import { ADMIN_TOKEN, benchKey, load, printTable, startBenchService, UNLIMITED_RATE, type Figures } from './support.js';

const env = await startBenchService();
try {
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
    const server = await listen(createApp({ orm: env.orm, config, logger: createLogger('warn'), adminToken: ADMIN_TOKEN }), 0, '127.0.0.1');
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
