/**
 * `npm run bench:reports`: sustained ingestion of payment reports at 32
 * connections — new observations (unique eventIds) and identical retries —
 * against a baseline measured in the same run: a bare Express 5 endpoint doing
 * one single-row INSERT per request through the same PostgreSQL.
 * Target (issue): new observations ≥ 40% of the baseline's throughput, p99 < 30 ms.
 */
import express from 'express';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { listen } from '../server/http/lifecycle.js';
import { benchKey, load, printTable, startBenchService } from './support.js';

const env = await startBenchService();
try {
  // Baseline: same database, same pool size, one INSERT per request.
  const pool = new pg.Pool({ connectionString: env.databaseUrl, max: 10 });
  await pool.query(
    'create table if not exists bench_baseline (id uuid primary key, body jsonb not null, created_at timestamptz not null default now())',
  );
  const bare = express();
  bare.use(express.json());
  bare.post('/insert', async (req, res) => {
    await pool.query('insert into bench_baseline (id, body) values ($1, $2)', [randomUUID(), req.body]);
    res.json({ ok: true });
  });
  const bareServer = await listen(bare, 0, '127.0.0.1');

  const key = await benchKey(env.orm, 'gwc', ['payments:write']);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };

  const baseline = await load('baseline: bare Express + 1 INSERT', {
    url: `http://127.0.0.1:${bareServer.port}/insert`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    generator: 'report:unique',
  });
  const fresh = await load('new observations (unique eventIds)', {
    url: `${env.url}/api/v1/gwc/payment-reports`,
    method: 'POST',
    headers,
    generator: 'report:unique',
  });
  const retries = await load('identical retries (duplicate: true)', {
    url: `${env.url}/api/v1/gwc/payment-reports`,
    method: 'POST',
    headers,
    generator: 'report:retry',
  });
  printTable([baseline, fresh, retries], baseline);
  const ratio = fresh.requestsPerSecond / baseline.requestsPerSecond;
  console.log(`\nnew observations: ${(ratio * 100).toFixed(0)}% of baseline (target ≥ 40%), p99 ${fresh.p99} ms (target < 30 ms)`);
  await bareServer.close(1000);
  await pool.end();
} finally {
  await env.close();
}
