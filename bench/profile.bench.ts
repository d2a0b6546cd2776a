/**
 * `npm run bench:profile -- <path>`: a CPU profile of the service while one
 * load runs against one hot path (32 connections, BENCH_SECONDS), summarised as
 * CPU time per request by where it goes. Paths: `enrichment` (gwc, 50 lines),
 * `report-new` (unique eventIds), `report-retry` (identical retries).
 * The profiler runs in the service's process only while the load runs; the
 * load generator is a separate process. The raw profile is written to
 * BENCH_PROFILE_OUT when set (open it in Chrome DevTools).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { gwcInvoice50 } from './bodies.js';
import { benchKey, load, startBenchService, type Figures } from './support.js';
import { summariseProfile, type CpuProfile } from './profile-summary.js';

const PATHS = {
  enrichment: { route: '/api/v1/gwc/payment-intent-enrichment', scope: 'enrichment:write', generator: 'enrichment:gwc50' },
  'report-new': { route: '/api/v1/gwc/payment-reports', scope: 'payments:write', generator: 'report:unique' },
  'report-retry': { route: '/api/v1/gwc/payment-reports', scope: 'payments:write', generator: 'report:retry' },
} as const;

const name = process.argv[2] as keyof typeof PATHS;
const path = PATHS[name];
if (!path) throw new Error(`usage: bench:profile -- ${Object.keys(PATHS).join('|')}`);

const env = await startBenchService();
try {
  const key = await benchKey(env.orm, 'gwc', [path.scope]);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  const target = { url: `${env.url}${path.route}`, method: 'POST' as const, headers, generator: path.generator };
  if (name === 'enrichment') {
    const probe = await fetch(target.url, { method: 'POST', headers, body: JSON.stringify(gwcInvoice50()) });
    if (probe.status !== 200) throw new Error(`probe failed: ${probe.status} ${await probe.text()}`);
  }
  // Warm up (JIT, pools, caches) before profiling.
  await load('warm-up', { ...target, duration: 2 });

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  const figures: Figures = await load(name, target);
  const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
  session.disconnect();
  if (process.env.BENCH_PROFILE_OUT) writeFileSync(process.env.BENCH_PROFILE_OUT, JSON.stringify(profile));

  const requests = figures.requestsPerSecond * Number(process.env.BENCH_SECONDS ?? 10);
  console.log(`${name}: ${figures.requestsPerSecond} req/s, p99 ${figures.p99} ms, ${figures.statusCodes}\n`);
  console.log('| where | CPU share | µs per request |');
  console.log('|---|---|---|');
  for (const row of summariseProfile(profile)) {
    console.log(`| ${row.category} | ${(row.share * 100).toFixed(1)}% | ${Math.round(row.micros / requests)} |`);
  }
} finally {
  await env.close();
}
