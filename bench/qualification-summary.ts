/**
 * `npm run bench:qualification-summary`: `qualification.summary` over generated data (BENCH_PREPARATIONS, default
 * 1,000,000 preparations over the 12 months of 2026 in 4 integrations, each with a recorded qualification level: a
 * third `product_3`, a third `partial`, the rest `none` or not assessed; 70 % with a payment, gwa and gwc captures
 * mostly provider-verified), through the real service over HTTP. Target: p95 under 1 s for a month and for a year of
 * the whole organization (docs/performance.md, "Qualification summary").
 *
 * The rows are written with SQL in bulk (generate_series), triggers off for that session only, and the
 * `preparation_evidence` projection filled afterwards in one statement from the evidence view, with each
 * preparation's level, as the insert trigger copies it (bench/evidence-volume.ts, shared with bench:evidence).
 */
import pg from 'pg';
import { readFileSync } from 'node:fs';
import { adminTiming, seedEvidenceVolume } from './evidence-volume.js';
import { startDatabase, startService } from './support.js';

/** What the log line reads of a summary answer. */
interface SummaryAnswer {
  rows: { month: string; level: string | null; preparations: number; verifiedNetMinor: string }[];
}

const N = Number(process.env.BENCH_PREPARATIONS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);

const db = await startDatabase();
const env = await startService(db);
const client = new pg.Client({ connectionString: db.url });
await client.connect();
try {
  await seedEvidenceVolume(client, N);
  const { measure } = adminTiming<SummaryAnswer>(env.url, RUNS);
  const year = { from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' };
  const month = { from: '2026-06-01T00:00:00Z', to: '2026-07-01T00:00:00Z' };
  const orgId = (await client.query(`select md5('org')::uuid as id`)).rows[0].id as string;
  const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`load average before: ${load()}`);
  const yearly = await measure('qualification.summary, organization, 12 months', 'qualification.summary', {
    organizationId: orgId,
    ...year,
  });
  const first = yearly.last.rows[0];
  console.log(`  ${yearly.last.rows.length} rows; first: ${JSON.stringify(first)}`);
  const monthly = await measure('qualification.summary, organization, one month', 'qualification.summary', {
    organizationId: orgId,
    ...month,
  });
  const intId = (await client.query(`select md5('int2')::uuid as id`)).rows[0].id as string;
  await measure('qualification.summary, one integration, one month', 'qualification.summary', { integrationId: intId, ...month });
  await measure('qualification.summary, every organization, 12 months', 'qualification.summary', year);
  // Not a target: what ranking the fixes costs over a month's preparations (each read into the process, their invoices
  // read once; docs/network-qualification.md, "Where it shows").
  await adminTiming<{ fixes: unknown[] }>(env.url, Math.min(RUNS, 5)).measure(
    'qualification.fixes, organization, one month',
    'qualification.fixes',
    {
      organizationId: orgId,
      ...month,
    },
  );
  // The evidence ledger's summary reads the same projection rows in the same way: its figure in this window tells the
  // machine's state apart from this query's cost (docs/performance.md, "Evidence": p95 222 ms when quiet).
  await measure('evidence.summary, organization, 12 months (same window)', 'evidence.summary', { organizationId: orgId, ...year });
  // Whether an index covering the grouped columns (an index-only scan) would pay for its cost on every projection write.
  await client.query(
    `create index if not exists preparation_evidence_covering_bench on preparation_evidence (organization_id, created_at)
       include (month, qualification_level, currency, fact_key, net_minor)`,
  );
  await client.query(`vacuum analyze preparation_evidence`);
  await measure('qualification.summary, organization, 12 months, covering index', 'qualification.summary', {
    organizationId: orgId,
    ...year,
  });
  await client.query(`drop index preparation_evidence_covering_bench`);
  console.log(`load average after: ${load()}`);
  const met = yearly.p95 < 1000 && monthly.p95 < 1000;
  console.log(`target: p95 < 1000 ms for a month and a year over ${N} preparations: ${met ? 'met' : 'NOT met'}`);
} finally {
  await client.end();
  await env.stop();
  await db.stop();
}
