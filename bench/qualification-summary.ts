/**
 * `npm run bench:qualification-summary`: `qualification.summary` over generated data (BENCH_PREPARATIONS, default
 * 1,000,000 preparations over the 12 months of 2026 in 4 integrations, each with a recorded qualification level: a
 * third `product_3`, a third `partial`, the rest `none` or not assessed; 70 % with a payment, gwa and gwc captures
 * mostly provider-verified), through the real service over HTTP. Target: p95 under 1 s for a month and for a year of
 * the whole organization (docs/performance.md, "Qualification summary").
 *
 * The rows are written with SQL in bulk (generate_series), triggers off for that session only, and the
 * `preparation_evidence` projection filled afterwards in one statement from the evidence view, with each
 * preparation's level, as the insert trigger copies it (bench/evidence.bench.ts does the same for the evidence ledger).
 */
import pg from 'pg';
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { ADMIN_TOKEN, startDatabase, startService } from './support.js';

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
  const started = performance.now();
  await client.query(`set session_replication_role = replica`);
  await client.query(`insert into organizations (id, name, status, created_at) values (md5('org')::uuid, 'bench', 'active', now())`);
  await client.query(
    `insert into integrations (id, organization_id, provider, environment, created_at)
     select md5('int' || k)::uuid, md5('org')::uuid, (array['gwa','gwb','gwc','gwc'])[k + 1], 'sandbox', now() from generate_series(0, 3) k`,
  );
  await client.query(
    `insert into stored_invoices (id, organization_id, integration_id, environment, connection_id, source_record_id, ledger_invoice_id, invoice_number, status, currency, total_amount_minor, deleted, created_at, updated_at, current_snapshot_id)
     values (md5('inv')::uuid, md5('org')::uuid, md5('int0')::uuid, 'sandbox', md5('conn')::uuid, md5('rec')::uuid, '1001', 'INV-1, "quoted"', 'open', 'usd', 1000, false, now(), now(), md5('snap')::uuid)`,
  );
  // Preparation i: integration i % 4, saved at a spread of instants over the 12 months of 2026, enhanced unless i % 7 = 0.
  await client.query(
    `insert into preparations (id, organization_id, integration_id, environment, provider, kind, stored_invoice_id, snapshot_id, revision,
                               source_integration_id, connection_id, source_connection_id, checked_through, amount_minor, currency,
                               idempotency_key, fingerprint, mode, data, created_at, qualification_level)
     select md5('p' || i)::uuid, md5('org')::uuid, md5('int' || (i % 4))::uuid, 'sandbox', (array['gwa','gwb','gwc','gwc'])[i % 4 + 1],
            'enrichment', md5('inv')::uuid, md5('snap')::uuid, 'r1', md5('ledger')::uuid, md5('conn')::uuid, '9341', now(),
            1000 + i % 5000, 'usd', 'k' || i, repeat('0', 64), case when i % 7 = 0 then 'ordinary' else 'enhanced' end, '{}'::jsonb,
            timestamptz '2026-01-01' + (i::float8 / $1) * interval '365 days',
            (array['product_3', 'partial', 'none', 'partial', 'product_3', null])[i % 6 + 1]
       from generate_series(0, $1 - 1) i`,
    [N],
  );
  // Payments of 70 % (i % 10 < 7): captured unless i % 10 = 6 (authorized); 1 % another amount; 5 % partly refunded.
  await client.query(
    `insert into tracked_payments (id, organization_id, integration_id, environment, provider, attempt_id, status, currency, amount_minor,
                                   captured_amount_minor, refunded_amount_minor, enrichment_request_id, observation_count, created_at, updated_at)
     select md5('t' || i)::uuid, md5('org')::uuid, md5('int' || (i % 4))::uuid, 'sandbox', (array['gwa','gwb','gwc','gwc'])[i % 4 + 1],
            'a' || i, case when i % 10 = 6 then 'authorized' when i % 20 = 3 then 'partially_refunded' else 'captured' end, 'usd',
            1000 + i % 5000 + case when i % 100 = 5 then 1 else 0 end,
            case when i % 10 = 6 then 0 else 1000 + i % 5000 end, case when i % 20 = 3 then 100 else 0 end,
            md5('p' || i)::uuid::text, 1, now(), now()
       from generate_series(0, $1 - 1) i where i % 10 < 7`,
    [N],
  );
  // One merchant report per payment; a provider-verified capture for gwa and gwc payments (not gwb), two in three.
  await client.query(
    `insert into payment_observations (id, organization_id, integration_id, environment, provider, event_id, payload_hash, payload,
                                       tracked_payment_id, attempt_id, status, currency, amount_minor, captured_amount_minor,
                                       refunded_amount_minor, occurred_at, request_id, evidence, received_at)
     select md5('o' || i || e)::uuid, md5('org')::uuid, md5('int' || (i % 4))::uuid, 'sandbox', (array['gwa','gwb','gwc','gwc'])[i % 4 + 1],
            'e' || i || e, repeat('0', 64), '{}'::jsonb, md5('t' || i)::uuid, 'a' || i,
            case when i % 10 = 6 then 'authorized' else 'captured' end, 'usd', 1000 + i % 5000,
            case when i % 10 = 6 then 0 else 1000 + i % 5000 end, 0, now(), 'r', e, now()
       from generate_series(0, $1 - 1) i, unnest(array['merchant_report', 'provider_verified']) e
      where i % 10 < 7 and (e = 'merchant_report' or (i % 4 <> 1 and i % 3 <> 0))`,
    [N],
  );
  await client.query(
    `insert into correlation_exceptions (id, organization_id, integration_id, environment, observation_id, enrichment_request_id, kind, expected, observed, created_at)
     select md5('x' || i)::uuid, md5('org')::uuid, md5('int' || (i % 4))::uuid, 'sandbox', md5('o' || i || 'merchant_report')::uuid,
            md5('p' || i)::uuid::text, 'amount_mismatch', '1', '2', now()
       from generate_series(0, $1 - 1) i where i % 100 = 5`,
    [N],
  );
  await client.query(`set session_replication_role = origin`);
  // Triggers were off for the bulk insert: the projection is filled the way the migration fills it for existing data
  // (with statistics first, so the view's lookups are planned as index probes).
  await client.query(`vacuum analyze`);
  const projecting = performance.now();
  await client.query(
    `insert into preparation_evidence (preparation_id, organization_id, integration_id, provider, created_at, month, currency, fact_key, net_minor,
                                       qualification_level)
     select f.id, f.organization_id, f.integration_id, f.provider, f.created_at, to_char(f.created_at at time zone 'UTC', 'YYYY-MM'),
            coalesce(f.payment_currency, f.currency), f.fact_key, f.captured_minor - f.refunded_minor, p.qualification_level
       from preparation_evidence_facts f join preparations p on p.id = f.id`,
  );
  console.log(`projection filled in ${((performance.now() - projecting) / 1000).toFixed(1)} s`);
  await client.query(`vacuum analyze`);
  const counts = await client.query(
    `select (select count(*) from preparations) p, (select count(*) from tracked_payments) t, (select count(*) from payment_observations) o`,
  );
  console.log(`generated ${JSON.stringify(counts.rows[0])} in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const call = async (procedure: string, input: unknown) => {
    const t0 = performance.now();
    const res = await fetch(`${env.url}/admin/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${procedure} ${res.status} ${body.slice(0, 300)}`);
    return { ms: performance.now() - t0, body: JSON.parse(body) as { result: { data: SummaryAnswer } } };
  };
  const measure = async (name: string, procedure: string, input: unknown) => {
    await call(procedure, input);
    const times: number[] = [];
    let last: SummaryAnswer | undefined;
    for (let r = 0; r < RUNS; r++) {
      const { ms, body } = await call(procedure, input);
      times.push(ms);
      last = body.result.data;
    }
    times.sort((a, b) => a - b);
    const q = (p: number) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)]!.toFixed(0);
    console.log(`${name}: p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${q(1)} ms (${RUNS} runs)`);
    return { p95: Number(q(0.95)), last: last! };
  };
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
