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
                               idempotency_key, fingerprint, mode, data, created_at)
     select md5('p' || i)::uuid, md5('org')::uuid, md5('int' || (i % 4))::uuid, 'sandbox', (array['gwa','gwb','gwc','gwc'])[i % 4 + 1],
            'enrichment', md5('inv')::uuid, md5('snap')::uuid, 'r1', md5('ledger')::uuid, md5('conn')::uuid, '9341', now(),
            1000 + i % 5000, 'usd', 'k' || i, repeat('0', 64), case when i % 7 = 0 then 'ordinary' else 'enhanced' end, '{}'::jsonb,
            timestamptz '2026-01-01' + (i::float8 / $1) * interval '365 days'
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
    `insert into preparation_evidence (preparation_id, organization_id, integration_id, provider, created_at, month, currency, fact_key, net_minor)
     select f.id, f.organization_id, f.integration_id, f.provider, f.created_at, to_char(f.created_at at time zone 'UTC', 'YYYY-MM'),
            coalesce(f.payment_currency, f.currency), f.fact_key, f.captured_minor - f.refunded_minor
       from preparation_evidence_facts f`,
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
