/**
 * `npm run bench:enrichment`: a gwc inline enrichment of a 50-line invoice at
 * 32 connections, against a baseline measured in the same run: a bare Express 5
 * endpoint that parses and echoes the same JSON body. Each path is warmed up
 * for 2 s first. Targets: at least 50% of the baseline's throughput, p99 at
 * most 2 × the baseline's. Then the same load against `npm start` with 1 and 2
 * processes (SVC_WORKERS; BENCH_SCALE_OUT=off skips it).
 */
import express from 'express';
import { listen } from '../server/http/lifecycle.js';
import { gwcInvoice50 } from './bodies.js';
import { benchKey, load, printScaleOut, printTable, printTargets, startBenchService } from './support.js';

const env = await startBenchService();
try {
  const bare = express();
  bare.use(express.json({ limit: '1mb' }));
  bare.post('/echo', (req, res) => {
    res.json(req.body);
  });
  const bareServer = await listen(bare, 0, '127.0.0.1');
  const key = await benchKey(env.orm, 'gwc', ['enrichment:write']);
  const path = '/api/v1/gwc/payment-intent-enrichment';
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };

  // Fail fast if the body does not enrich: a benchmark of 422s measures nothing.
  const probe = await fetch(`${env.url}${path}`, { method: 'POST', headers, body: JSON.stringify(gwcInvoice50()) });
  if (probe.status !== 200) throw new Error(`probe failed: ${probe.status} ${await probe.text()}`);

  const echo = {
    url: `http://127.0.0.1:${bareServer.port}/echo`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
  };
  const enrich = { url: `${env.url}${path}`, method: 'POST' as const, headers };
  await load('warm-up', { ...echo, generator: 'enrichment:gwc50', duration: 2 });
  await load('warm-up', { ...enrich, generator: 'enrichment:gwc50', duration: 2 });
  const baseline = await load('baseline: bare Express echo of the same body', { ...echo, generator: 'enrichment:gwc50' });
  const enrichment = await load('gwc inline enrichment, 50 lines', { ...enrich, generator: 'enrichment:gwc50' });
  printTable([baseline, enrichment], baseline);
  printTargets(baseline, [{ run: enrichment, minShare: 0.5, maxP99Ratio: 2 }]);
  await bareServer.close(1000);

  if (process.env.BENCH_SCALE_OUT !== 'off') {
    console.log('');
    await printScaleOut(env, { path, headers, generator: 'enrichment:gwc50' });
  }
} finally {
  await env.close();
}
