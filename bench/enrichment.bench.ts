/**
 * `npm run bench:enrichment`: a gwc inline enrichment of a 50-line invoice at
 * 32 connections, against a baseline measured in the same run: a bare Express 5
 * endpoint that parses and echoes the same JSON body.
 * Target (issue): at least 50% of the baseline's throughput, p99 under 20 ms.
 */
import express from 'express';
import { listen } from '../server/http/lifecycle.js';
import { gwcInvoice50 } from './bodies.js';
import { benchKey, load, printTable, startBenchService } from './support.js';

const env = await startBenchService();
try {
  const bare = express();
  bare.use(express.json({ limit: '1mb' }));
  bare.post('/echo', (req, res) => {
    res.json(req.body);
  });
  const bareServer = await listen(bare, 0, '127.0.0.1');
  const key = await benchKey(env.orm, 'gwc', ['enrichment:write']);

  // Fail fast if the body does not enrich: a benchmark of 422s measures nothing.
  const probe = await fetch(`${env.url}/api/v1/gwc/payment-intent-enrichment`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(gwcInvoice50()),
  });
  if (probe.status !== 200) throw new Error(`probe failed: ${probe.status} ${await probe.text()}`);

  const baseline = await load('baseline: bare Express echo of the same body', {
    url: `http://127.0.0.1:${bareServer.port}/echo`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    generator: 'enrichment:gwc50',
  });
  const enrichment = await load('gwc inline enrichment, 50 lines', {
    url: `${env.url}/api/v1/gwc/payment-intent-enrichment`,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    generator: 'enrichment:gwc50',
  });
  printTable([baseline, enrichment], baseline);
  const ratio = enrichment.requestsPerSecond / baseline.requestsPerSecond;
  console.log(`\nenrichment: ${(ratio * 100).toFixed(0)}% of baseline (target ≥ 50%), p99 ${enrichment.p99} ms (target < 20 ms)`);
  await bareServer.close(1000);
} finally {
  await env.close();
}
