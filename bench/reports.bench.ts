/**
 * `npm run bench:reports`: sustained ingestion of payment reports at 32 connections against the service as
 * `npm start` runs it — new observations (unique eventIds) and identical retries — compared in rounds
 * (bench/support.ts, `compareInRounds`) with a baseline in its own process: a bare Express 5 endpoint doing one
 * single-row INSERT per request through the same PostgreSQL. Targets: new observations ≥ 75 % of the baseline's
 * throughput, identical retries ≥ 90 %, both with p99 ≤ 1.5 × the baseline's. Then new observations against the
 * service with 1 and 2 processes (SVC_WORKERS; BENCH_SCALE_OUT=off skips it).
 */
import { benchKey, compareInRounds, printScaleOut, startBaseline, startDatabase, startService } from './support.js';

const db = await startDatabase();
try {
  const service = await startService(db);
  const insert = await startBaseline('insert', { db });
  try {
    const key = await benchKey(service, 'gwc', ['payments:write']);
    const path = '/api/v1/gwc/payment-reports';
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
    const report = { url: `${service.url}${path}`, method: 'POST' as const, headers };
    await compareInRounds(
      {
        name: 'bare Express + 1 INSERT',
        options: { url: insert.url, method: 'POST', headers: { 'content-type': 'application/json' }, generator: 'report:unique' },
      },
      [
        {
          name: 'new payment reports (unique eventIds)',
          options: { ...report, generator: 'report:unique' },
          minShare: 0.75,
          maxP99Ratio: 1.5,
        },
        { name: 'identical report retries', options: { ...report, generator: 'report:retry' }, minShare: 0.9, maxP99Ratio: 1.5 },
      ],
      [service, insert],
      db,
    );
    await Promise.all([service.stop(), insert.stop()]);
    if (process.env.BENCH_SCALE_OUT !== 'off') {
      console.log('');
      await printScaleOut(db, { path, headers, generator: 'report:unique' });
    }
  } finally {
    await Promise.all([service.stop(), insert.stop()]);
  }
} finally {
  await db.stop();
}
