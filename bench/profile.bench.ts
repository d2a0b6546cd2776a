/**
 * `npm run bench:profile -- <path>`: a CPU profile of the service, run as `npm start` runs it with `node --cpu-prof`
 * (bench/profile-summary.ts, `startProfiledService`), while one load runs against one hot path (32 connections,
 * BENCH_SECONDS), summarised as CPU time per request by where it goes and by function (self time), from the samples
 * of that load only. Paths: `enrichment` (gwc inline, 50 lines), `gwc-delivery` (signed gwc deliveries, a new
 * PaymentIntent each), `report-new` (unique eventIds), `report-retry` (identical retries), `unknown-key` (a new
 * made-up key per request from one address). The load generator is a separate process. BENCH_PROFILE_OUT=<file>
 * keeps the raw profile (`<file>.cpuprofile`, open it in Chrome DevTools). BENCH_PROFILE_HEAP=1: then the same load
 * against a service run with `node --heap-prof`, as KB allocated per request by where.
 * The preparation paths are profiled by `BENCH_PROFILE=1 npm run bench:preparations`.
 */
import { randomBytes } from 'node:crypto';
import { gwcInvoice50 } from './bodies.js';
import { benchKey, gwcWebhookEndpoint, load, startDatabase, type LoadOptions } from './support.js';
import { allocationProfiledService, startProfiledService } from './profile-summary.js';

const PATHS = {
  enrichment: { route: '/api/v1/gwc/payment-intent-enrichment', scope: 'enrichment:write', generator: 'enrichment:gwc50' },
  'gwc-delivery': { route: undefined, scope: undefined, generator: 'gwc-event:unique' },
  'report-new': { route: '/api/v1/gwc/payment-reports', scope: 'payments:write', generator: 'report:unique' },
  'report-retry': { route: '/api/v1/gwc/payment-reports', scope: 'payments:write', generator: 'report:retry' },
  // Made-up keys from one address: after its failure burst, what refusing the address costs per request.
  'unknown-key': { route: '/api/v1/gwc/payment-reports', scope: 'payments:write', generator: 'report:unique', randomKeys: true },
} as const;

const name = process.argv[2] as keyof typeof PATHS;
const path = PATHS[name];
if (!path) throw new Error(`usage: bench:profile -- ${Object.keys(PATHS).join('|')}`);

/** The load against `service`, its key or webhook endpoint made through the service's operator API. */
async function target(service: { url: string }): Promise<LoadOptions> {
  if (path.route === undefined) {
    const secret = `whsec_${randomBytes(24).toString('base64url')}`;
    const url = await gwcWebhookEndpoint(service, secret);
    return { url, method: 'POST', headers: { 'content-type': 'application/json' }, generator: path.generator, secret };
  }
  const key = await benchKey(service, 'gwc', [path.scope]);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  if (name === 'enrichment') {
    const probe = await fetch(`${service.url}${path.route}`, { method: 'POST', headers, body: JSON.stringify(gwcInvoice50()) });
    if (probe.status !== 200) throw new Error(`probe failed: ${probe.status} ${await probe.text()}`);
  }
  return {
    url: `${service.url}${path.route}`,
    method: 'POST',
    headers,
    generator: path.generator,
    ...('randomKeys' in path ? { randomKeys: true } : {}),
  };
}

const db = await startDatabase();
try {
  const profiled = await startProfiledService(db);
  try {
    const options = await target(profiled.service);
    // Warm up (JIT, pools, caches) before the profiled load.
    await load('warm-up', { ...options, duration: 2 });
    await profiled.measure(name, options);
  } finally {
    await profiled.stop();
  }
  if (process.env.BENCH_PROFILE_HEAP === '1')
    await allocationProfiledService(db, async (service) => {
      const options = await target(service);
      await load('warm-up', { ...options, duration: 2 });
      return load(name, options);
    });
} finally {
  await db.stop();
}
