/**
 * The evidence ledger's generated volume, shared by `bench:evidence` and `bench:qualification-summary`: `n`
 * preparations over the 12 months of 2026 in 4 integrations, each with a recorded qualification level (a third
 * `product_3`, a third `partial`, the rest `none` or not assessed); 70 % with a payment, most captured, gwa and gwc
 * captures mostly provider-verified, 1 % with a correlation exception.
 *
 * The rows are written with SQL in bulk; triggers are off for that session only (`session_replication_role =
 * replica`), so one stored invoice and snapshot stand for all preparations (no foreign-key checks) and the
 * `preparation_evidence` projection is filled afterwards in one statement, as the migration fills it, with each
 * preparation's level as the insert trigger copies it.
 */
import type pg from 'pg';
import { performance } from 'node:perf_hooks';
import { ADMIN_TOKEN } from './support.js';

export async function seedEvidenceVolume(client: pg.Client, n: number): Promise<void> {
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
    [n],
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
    [n],
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
    [n],
  );
  await client.query(
    `insert into correlation_exceptions (id, organization_id, integration_id, environment, observation_id, enrichment_request_id, kind, expected, observed, created_at)
     select md5('x' || i)::uuid, md5('org')::uuid, md5('int' || (i % 4))::uuid, 'sandbox', md5('o' || i || 'merchant_report')::uuid,
            md5('p' || i)::uuid::text, 'amount_mismatch', '1', '2', now()
       from generate_series(0, $1 - 1) i where i % 100 = 5`,
    [n],
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
}

/** Timed calls of an admin procedure over HTTP: one warm-up call, then `runs` calls; p50/p95/max printed. */
export function adminTiming<T>(url: string, runs: number) {
  const call = async (procedure: string, input: unknown) => {
    const t0 = performance.now();
    const res = await fetch(`${url}/admin/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${procedure} ${res.status} ${body.slice(0, 300)}`);
    return { ms: performance.now() - t0, body: JSON.parse(body) as { result: { data: T } } };
  };
  const measure = async (name: string, procedure: string, input: unknown) => {
    await call(procedure, input);
    const times: number[] = [];
    let last: T | undefined;
    for (let r = 0; r < runs; r++) {
      const { ms, body } = await call(procedure, input);
      times.push(ms);
      last = body.result.data;
    }
    times.sort((a, b) => a - b);
    const q = (p: number) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)]!.toFixed(0);
    console.log(`${name}: p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${q(1)} ms (${runs} runs)`);
    return { p95: Number(q(0.95)), last: last! };
  };
  return { call, measure };
}
