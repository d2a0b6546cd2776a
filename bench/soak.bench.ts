/**
 * `npm run bench:soak -- --minutes N` (default 10): the service as `npm start`
 * runs it (bench/support.ts, `startService`) under mixed traffic for N minutes, in
 * windows of 30 s (BENCH_WINDOW_SECONDS): new payment reports (6 connections), gwc 50-line inline
 * enrichment (2) and first pages of the invoice list of 1,000 stored invoices
 * (4), all with one key (limits raised: the limiter runs but never refuses).
 * Prints, per window, the service's RSS (sampled every 5 s) and each kind's
 * req/s and p99; then the RSS growth after warm-up (the first fifth of the
 * run, at least one window). Target: < 10 % growth over 10 minutes.
 */
import { readFileSync } from 'node:fs';
import { linkedKey, load, seedLedger, startDatabase, startService, type Figures } from './support.js';

const WINDOW_SECONDS = Number(process.env.BENCH_WINDOW_SECONDS ?? 30);
const SAMPLE_MS = 5_000;
const minutesArg = process.argv.indexOf('--minutes');
const minutes = minutesArg > 0 ? Number(process.argv[minutesArg + 1]) : 10;
if (!(minutes > 0)) throw new Error('usage: npm run bench:soak -- --minutes <N>');
const windows = Math.max(2, Math.round((minutes * 60) / WINDOW_SECONDS));
const warmupWindows = Math.max(1, Math.round(windows / 5));

const rssMb = (pid: number) => {
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return kb / 1024;
};

const db = await startDatabase();
const service = await startService(db);
try {
  const ledger = await seedLedger(db, { invoices: 1_000, items: 100, lines: 5, realmId: '9341452981' });
  const { key } = await linkedKey(service, ledger, 'gwc', ['invoices:read', 'enrichment:write', 'payments:write']);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  const pid = service.pid;
  console.log(`soak: ${minutes} min in ${windows} windows of ${WINDOW_SECONDS} s, service pid ${pid}, warm-up ${warmupWindows} window(s)`);
  console.log(
    '| window end (min) | RSS MB (mean / max) | reports req/s, p99 ms | enrichment req/s, p99 ms | invoice list req/s, p99 ms | non-2xx |',
  );
  console.log('|---|---|---|---|---|---|');
  const rows: { rss: number }[] = [];
  for (let w = 1; w <= windows; w++) {
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(rssMb(pid)), SAMPLE_MS);
    const [reports, enrichment, reads] = await Promise.all([
      load('reports', {
        url: `${service.url}/api/v1/gwc/payment-reports`,
        method: 'POST',
        headers,
        generator: 'report:unique',
        connections: 6,
        duration: WINDOW_SECONDS,
      }),
      load('enrichment', {
        url: `${service.url}/api/v1/gwc/payment-intent-enrichment`,
        method: 'POST',
        headers,
        generator: 'enrichment:gwc50',
        connections: 2,
        duration: WINDOW_SECONDS,
      }),
      load('reads', { url: `${service.url}/api/v1/invoices?limit=25`, headers, connections: 4, duration: WINDOW_SECONDS }),
    ]);
    clearInterval(sampler);
    samples.push(rssMb(pid));
    const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
    rows.push({ rss: mean });
    const cell = (f: Figures) => `${f.requestsPerSecond}, ${f.p99}`;
    const non2xx = reports.non2xx + enrichment.non2xx + reads.non2xx + reports.errors + enrichment.errors + reads.errors;
    console.log(
      `| ${((w * WINDOW_SECONDS) / 60).toFixed(1)} | ${mean.toFixed(1)} / ${Math.max(...samples).toFixed(1)} | ${cell(reports)} | ${cell(enrichment)} | ${cell(reads)} | ${non2xx} |`,
    );
  }
  const after = rows[warmupWindows - 1]!.rss;
  const end = rows[rows.length - 1]!.rss;
  const growth = ((end - after) / after) * 100;
  console.log(
    `\nRSS after warm-up ${after.toFixed(1)} MB, at the end ${end.toFixed(1)} MB: ${growth >= 0 ? '+' : ''}${growth.toFixed(1)} % (target < 10 %)`,
  );
} finally {
  await service.stop();
  await db.stop();
}
