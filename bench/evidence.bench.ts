/**
 * `npm run bench:evidence`: `evidence.summary` over generated data (BENCH_PREPARATIONS, default 1,000,000
 * preparations over 12 months in 4 integrations; 70 % with a payment, most captured, gwa and gwc captures mostly
 * provider-verified, 1 % with a correlation exception), through the real service over HTTP. Target: p95 under 1 s on
 * the 2-core machine for the whole organization over 12 months. Then the CSV of one integration's month, with the
 * service process's RSS sampled while it streams (flat memory). The service runs as `npm start` runs it
 * (bench/support.ts, `startService`); the rows are written on a direct connection to its database.
 *
 * The rows are written with SQL in bulk; triggers are off for that session only (`session_replication_role =
 * replica`), so one stored invoice and snapshot stand for all preparations (no foreign-key checks) and the
 * `preparation_evidence` projection is filled afterwards in one statement, as the migration fills it.
 */
import pg from 'pg';
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { adminTiming, seedEvidenceVolume } from './evidence-volume.js';
import { ADMIN_TOKEN, startDatabase, startService } from './support.js';

/** What the log line reads of a summary answer. */
interface SummaryAnswer {
  rows: { states: { verified: unknown } }[];
}

const N = Number(process.env.BENCH_PREPARATIONS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);

/** Resident memory of a process, bytes (/proc). */
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;

const db = await startDatabase();
const env = await startService(db);
const client = new pg.Client({ connectionString: db.url });
await client.connect();
try {
  await seedEvidenceVolume(client, N);
  const { measure } = adminTiming<SummaryAnswer>(env.url, RUNS);
  const year = { from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' };
  const orgId = (await client.query(`select md5('org')::uuid as id`)).rows[0].id as string;
  const whole = await measure('summary, organization, 12 months', 'evidence.summary', { organizationId: orgId, ...year });
  console.log(`  ${whole.last.rows.length} rows; verified in the first: ${JSON.stringify(whole.last.rows[0]?.states.verified)}`);
  const intId = (await client.query(`select md5('int2')::uuid as id`)).rows[0].id as string;
  await measure('summary, one integration, one month', 'evidence.summary', {
    integrationId: intId,
    from: '2026-06-01T00:00:00Z',
    to: '2026-07-01T00:00:00Z',
  });
  await measure('list, unconfirmed, first page of 50', 'evidence.list', {
    organizationId: orgId,
    ...year,
    state: 'unconfirmed',
    limit: 50,
  });
  console.log(`target: summary p95 < 1000 ms over ${N} preparations: ${whole.p95 < 1000 ? 'met' : 'NOT met'}`);

  // The CSV of one integration's month, RSS sampled every 50 ms while it streams.
  const rss: number[] = [];
  const timer = setInterval(() => rss.push(rssOf(env.pid)), 50);
  const t0 = performance.now();
  const res = await fetch(
    `${env.url}/admin/evidence/export.csv?${new URLSearchParams({ integrationId: intId, from: '2026-01-01T00:00:00Z', to: '2026-04-01T00:00:00Z' })}`,
    { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
  );
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) lines++;
  }
  clearInterval(timer);
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  console.log(
    `CSV, one integration, 3 months: ${lines - 1} rows, ${mb(bytes)} MB in ${((performance.now() - t0) / 1000).toFixed(1)} s; ` +
      `RSS first ${mb(rss[0] ?? 0)} MB, max ${mb(Math.max(...rss))} MB, last ${mb(rss.at(-1) ?? 0)} MB`,
  );
} finally {
  await client.end();
  await env.stop();
  await db.stop();
}
