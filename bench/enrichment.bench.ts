/**
 * `npm run bench:enrichment`: a gwc inline enrichment of a 50-line invoice at 32 connections against the service as
 * `npm start` runs it, compared in rounds (bench/support.ts, `compareInRounds`) with a baseline in its own process: a
 * bare Express 5 endpoint that parses and echoes the same JSON body. Targets: at least 75 % of the baseline's
 * throughput, p99 at most 1.5 × the baseline's. Then the same load against the service with 1 and 2 processes
 * (SVC_WORKERS; BENCH_SCALE_OUT=off skips it).
 */
import { gwcInvoice50 } from './bodies.js';
import { benchKey, compareInRounds, printScaleOut, startBaseline, startDatabase, startService } from './support.js';

const db = await startDatabase();
try {
  const service = await startService(db);
  const echo = await startBaseline('echo');
  try {
    const key = await benchKey(service, 'gwc', ['enrichment:write']);
    const path = '/api/v1/gwc/payment-intent-enrichment';
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };

    // Fail fast if the body does not enrich: a benchmark of 422s measures nothing.
    const probe = await fetch(`${service.url}${path}`, { method: 'POST', headers, body: JSON.stringify(gwcInvoice50()) });
    if (probe.status !== 200) throw new Error(`probe failed: ${probe.status} ${await probe.text()}`);

    const generator = 'enrichment:gwc50';
    await compareInRounds(
      {
        name: 'bare Express echo of the same body',
        options: { url: echo.url, method: 'POST', headers: { 'content-type': 'application/json' }, generator },
      },
      [
        {
          name: 'gwc inline enrichment, 50 lines',
          options: { url: `${service.url}${path}`, method: 'POST', headers, generator },
          minShare: 0.75,
          maxP99Ratio: 1.5,
        },
      ],
      [service, echo],
      db,
    );
    await Promise.all([service.stop(), echo.stop()]);
    if (process.env.BENCH_SCALE_OUT !== 'off') {
      console.log('');
      await printScaleOut(db, { path, headers, generator });
    }
  } finally {
    await Promise.all([service.stop(), echo.stop()]);
  }
} finally {
  await db.stop();
}
