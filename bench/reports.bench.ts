/**
 * `npm run bench:reports`: sustained ingestion of payment reports at 32
 * connections — new observations (unique eventIds) and identical retries —
 * against a baseline measured in the same run: a bare Express 5 endpoint doing
 * one single-row INSERT per request through the same PostgreSQL. Each path is
 * warmed up for 2 s first. Targets: new observations ≥ 40% of the baseline's
 * throughput with p99 ≤ 3 × the baseline's; identical retries ≥ 60%. Then new
 * observations against `npm start` with 1 and 2 processes (SVC_WORKERS;
 * BENCH_SCALE_OUT=off skips it).
 */
import express from 'express';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { listen } from '../server/http/lifecycle.js';
import { benchKey, load, printScaleOut, printTable, printTargets, startBenchService } from './support.js';

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
  const path = '/api/v1/gwc/payment-reports';
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  const insert = {
    url: `http://127.0.0.1:${bareServer.port}/insert`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
  };
  const report = { url: `${env.url}${path}`, method: 'POST' as const, headers };

  await load('warm-up', { ...insert, generator: 'report:unique', duration: 2 });
  await load('warm-up', { ...report, generator: 'report:unique', duration: 2 });
  const baseline = await load('baseline: bare Express + 1 INSERT', { ...insert, generator: 'report:unique' });
  const fresh = await load('new observations (unique eventIds)', { ...report, generator: 'report:unique' });
  const retries = await load('identical retries (duplicate: true)', { ...report, generator: 'report:retry' });
  printTable([baseline, fresh, retries], baseline);
  printTargets(baseline, [
    { run: fresh, minShare: 0.4, maxP99Ratio: 3 },
    { run: retries, minShare: 0.6 },
  ]);
  await bareServer.close(1000);
  await pool.end();

  if (process.env.BENCH_SCALE_OUT !== 'off') {
    console.log('');
    await printScaleOut(env, { path, headers, generator: 'report:unique' });
  }
} finally {
  await env.close();
}
