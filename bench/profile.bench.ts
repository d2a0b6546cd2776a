/**
 * `npm run bench:profile -- <path>`: a CPU profile of the service while one
 * load runs against one hot path (32 connections, BENCH_SECONDS), summarised as
 * CPU time per request by where it goes. Paths: `enrichment` (gwc, 50 lines),
 * `report-new` (unique eventIds), `report-retry` (identical retries), `unknown-key`
 * (a new made-up key per request from one address).
 * The profiler runs in the service's process only while the load runs; the
 * load generator is a separate process. The raw profile is written to
 * `${BENCH_PROFILE_OUT}-<path>.cpuprofile` when set (open it in Chrome DevTools).
 * BENCH_PROFILE_HEAP=1: then one more load with the sampling heap profiler, as KB allocated per request by where.
 * The preparation paths are profiled by `BENCH_PROFILE=1 npm run bench:preparations`.
 */
import { gwcInvoice50 } from './bodies.js';
import { benchKey, load, startBenchService } from './support.js';
import { allocationProfiledLoad, profiledLoad } from './profile-summary.js';

const PATHS = {
  enrichment: { route: '/api/v1/gwc/payment-intent-enrichment', scope: 'enrichment:write', generator: 'enrichment:gwc50' },
  'report-new': { route: '/api/v1/gwc/payment-reports', scope: 'payments:write', generator: 'report:unique' },
  'report-retry': { route: '/api/v1/gwc/payment-reports', scope: 'payments:write', generator: 'report:retry' },
  // Made-up keys from one address: after its failure burst, what refusing the address costs per request.
  'unknown-key': { route: '/api/v1/gwc/payment-reports', scope: 'payments:write', generator: 'report:unique', randomKeys: true },
} as const;

const name = process.argv[2] as keyof typeof PATHS;
const path = PATHS[name];
if (!path) throw new Error(`usage: bench:profile -- ${Object.keys(PATHS).join('|')}`);

const env = await startBenchService();
try {
  const key = await benchKey(env.orm, 'gwc', [path.scope]);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  const target = {
    url: `${env.url}${path.route}`,
    method: 'POST' as const,
    headers,
    generator: path.generator,
    ...('randomKeys' in path ? { randomKeys: true } : {}),
  };
  if (name === 'enrichment') {
    const probe = await fetch(target.url, { method: 'POST', headers, body: JSON.stringify(gwcInvoice50()) });
    if (probe.status !== 200) throw new Error(`probe failed: ${probe.status} ${await probe.text()}`);
  }
  // Warm up (JIT, pools, caches) before profiling.
  await load('warm-up', { ...target, duration: 2 });

  await profiledLoad(name, target);
  if (process.env.BENCH_PROFILE_HEAP === '1') await allocationProfiledLoad(name, target);
} finally {
  await env.close();
}
