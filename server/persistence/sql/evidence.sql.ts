import type { FactGroup } from '../../domain/evidence/evidence-summary.js';
import type { Environment, PaymentProvider } from '../../../contract/common/index.js';
import { withDates, type Sql } from './sql.js';

/** Which preparations an evidence read covers: saved in `[from, to)`, optionally one organization or integration. */
export interface EvidenceFilter {
  organizationId?: string | undefined;
  integrationId?: string | undefined;
  from: Date;
  to: Date;
  /** Only preparations whose fact key is one of these (a state filter, docs/evidence.md). */
  factKeys?: number[] | undefined;
}

/** One correlation exception naming the preparation. */
export interface EvidenceException {
  kind: 'amount_mismatch' | 'currency_mismatch';
  expected: string;
  observed: string;
  observationId: string;
  at: string;
}

/** The chain of one preparation with its fact key (docs/evidence.md, "The chain of one preparation"). */
export interface EvidenceChain {
  id: string;
  organizationId: string;
  integrationId: string;
  environment: Environment;
  provider: PaymentProvider;
  mode: 'enhanced' | 'ordinary';
  amountMinor: number;
  currency: string;
  createdAt: Date;
  storedInvoiceId: string;
  ledgerInvoiceId: string;
  invoiceNumber: string | null;
  snapshotId: string;
  revision: string;
  factKey: number;
  payment: {
    id: string;
    attemptId: string;
    providerPaymentId: string | null;
    status: string | null;
    amountMinor: number | null;
    currency: string | null;
    capturedAmountMinor: number;
    refundedAmountMinor: number;
  } | null;
  verifiedCapture: { observationId: string; eventId: string; occurredAt: Date } | null;
  reportedCapture: { observationId: string; eventId: string; occurredAt: Date } | null;
  exceptions: EvidenceException[];
}

/** One group of the summary: preparations of one integration, UTC month, currency and fact key (the domain's `FactGroup`). */
export type EvidenceGroup = FactGroup;

/**
 * The chains of the preparations in the filter, one row each, with no per-row queries: the facts come from the
 * `preparation_evidence_facts` view, their only definition (Migration20261125191500_preparation_evidence), which
 * finds each chain's payment by index lookups; the first verified and first reported capture and the invoice are
 * joined here for what the list shows.
 */
function chainsQuery(filter: EvidenceFilter): { text: string; params: unknown[] } {
  const params: unknown[] = [filter.from, filter.to];
  let where = `f.created_at >= ? and f.created_at < ?`;
  if (filter.organizationId !== undefined) {
    where += ` and f.organization_id = ?::uuid`;
    params.push(filter.organizationId);
  }
  if (filter.integrationId !== undefined) {
    where += ` and f.integration_id = ?::uuid`;
    params.push(filter.integrationId);
  }
  const capture = (evidence: string, alias: string) =>
    `left join lateral (select o.id, o.event_id, o.occurred_at from payment_observations o
                         where o.tracked_payment_id = f.payment_id and o.evidence = '${evidence}' and o.captured_amount_minor > 0
                         order by o.occurred_at, o.id limit 1) ${alias} on true`;
  const text = `
    select f.*, v.id as verified_id, v.event_id as verified_event_id, v.occurred_at as verified_at,
           r.id as reported_id, r.event_id as reported_event_id, r.occurred_at as reported_at, si.ledger_invoice_id, si.invoice_number
      from preparation_evidence_facts f
      ${capture('provider_verified', 'v')} ${capture('merchant_report', 'r')}
      join stored_invoices si on si.id = f.stored_invoice_id
     where ${where}`;
  return { text, params };
}

interface ChainRow {
  id: string;
  organization_id: string;
  integration_id: string;
  environment: Environment;
  provider: PaymentProvider;
  mode: 'enhanced' | 'ordinary';
  amount_minor: string;
  currency: string;
  created_at: Date;
  stored_invoice_id: string;
  snapshot_id: string;
  revision: string;
  ledger_invoice_id: string;
  invoice_number: string | null;
  payment_id: string | null;
  attempt_id: string | null;
  provider_payment_id: string | null;
  payment_status: string | null;
  payment_amount_minor: string | null;
  payment_currency: string | null;
  captured_minor: string;
  refunded_minor: string;
  verified_id: string | null;
  verified_event_id: string | null;
  verified_at: Date | null;
  reported_id: string | null;
  reported_event_id: string | null;
  reported_at: Date | null;
  fact_key: number;
  exceptions: EvidenceException[];
}

const chainRows = withDates<ChainRow>(['created_at', 'verified_at', 'reported_at']);

function chainOf(r: ChainRow): EvidenceChain {
  return {
    id: r.id,
    organizationId: r.organization_id,
    integrationId: r.integration_id,
    environment: r.environment,
    provider: r.provider,
    mode: r.mode,
    amountMinor: Number(r.amount_minor),
    currency: r.currency,
    createdAt: r.created_at,
    storedInvoiceId: r.stored_invoice_id,
    ledgerInvoiceId: r.ledger_invoice_id,
    invoiceNumber: r.invoice_number,
    snapshotId: r.snapshot_id,
    revision: r.revision,
    factKey: r.fact_key,
    payment:
      r.payment_id === null
        ? null
        : {
            id: r.payment_id,
            attemptId: r.attempt_id!,
            providerPaymentId: r.provider_payment_id,
            status: r.payment_status,
            amountMinor: r.payment_amount_minor === null ? null : Number(r.payment_amount_minor),
            currency: r.payment_currency,
            capturedAmountMinor: Number(r.captured_minor),
            refundedAmountMinor: Number(r.refunded_minor),
          },
    verifiedCapture:
      r.verified_id === null ? null : { observationId: r.verified_id, eventId: r.verified_event_id!, occurredAt: r.verified_at! },
    reportedCapture:
      r.reported_id === null ? null : { observationId: r.reported_id, eventId: r.reported_event_id!, occurredAt: r.reported_at! },
    exceptions: r.exceptions,
  };
}

/**
 * One page of chains in (created_at, id) order after `after`, at most `limit`: the list and each batch of the CSV.
 * The page is chosen before the exceptions are gathered, so only the rows returned pay for them.
 */
export async function evidenceChains(
  sql: Sql,
  filter: EvidenceFilter,
  page: { after?: { createdAt: Date; id: string } | undefined; limit: number },
): Promise<EvidenceChain[]> {
  const { text, params } = chainsQuery(filter);
  const conditions: string[] = [];
  if (filter.factKeys !== undefined) {
    conditions.push(`f.fact_key = any(?::int[])`);
    params.push(filter.factKeys);
  }
  if (page.after !== undefined) {
    conditions.push(`(f.created_at, f.id) > (?::timestamptz, ?::uuid)`);
    params.push(page.after.createdAt, page.after.id);
  }
  params.push(page.limit);
  const rows = await sql(
    `with f as (${text})
     select f.*, coalesce(x.list, '[]'::json) as exceptions
       from (select * from f ${conditions.length ? `where ${conditions.join(' and ')}` : ''} order by f.created_at, f.id limit ?) f
       left join lateral (
         select json_agg(json_build_object('kind', c.kind, 'expected', c.expected, 'observed', c.observed,
                                           'observationId', c.observation_id,
                                           'at', to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                         order by c.created_at, c.id) as list
           from correlation_exceptions c
          where c.integration_id = f.integration_id and c.environment = f.environment
            and lower(c.enrichment_request_id) = f.id::text) x on true
      order by f.created_at, f.id`,
    params,
  );
  return chainRows(rows).map(chainOf);
}

/**
 * The summary's groups: preparations counted and their net amounts summed per integration, UTC month, currency (the
 * payment's when there is one, else the preparation's) and fact key, from the `preparation_evidence` projection (one
 * narrow row per preparation, kept by the database in the same transaction as every write that changes it). The state
 * of each key is decided by the domain, never here.
 */
export async function evidenceGroups(sql: Sql, filter: EvidenceFilter): Promise<EvidenceGroup[]> {
  const params: unknown[] = [filter.from, filter.to];
  let where = `e.created_at >= ? and e.created_at < ?`;
  if (filter.organizationId !== undefined) {
    where += ` and e.organization_id = ?::uuid`;
    params.push(filter.organizationId);
  }
  if (filter.integrationId !== undefined) {
    where += ` and e.integration_id = ?::uuid`;
    params.push(filter.integrationId);
  }
  const rows = await sql<{
    integration_id: string;
    provider: PaymentProvider;
    month: string;
    currency: string;
    fact_key: number;
    count: string;
    net_minor: string;
  }>(
    `select e.integration_id, e.provider, e.month, e.currency, e.fact_key, count(*) as count, sum(e.net_minor)::text as net_minor
       from preparation_evidence e
      where ${where}
      group by 1, 2, 3, 4, 5
      order by 1, 3, 4, 5`,
    params,
  );
  return rows.map((r) => ({
    integrationId: r.integration_id,
    provider: r.provider,
    month: r.month,
    currency: r.currency,
    factKey: Number(r.fact_key),
    count: Number(r.count),
    netMinor: BigInt(r.net_minor),
  }));
}

/** Whether the organization and the integration a filter names exist (and the integration is the organization's, when both are named). */
export async function evidenceFilterTargetsExist(
  sql: Sql,
  filter: { organizationId?: string | undefined; integrationId?: string | undefined },
) {
  const [row] = await sql<{ ok: boolean }>(
    `select (?::uuid is null or exists (select 1 from organizations o where o.id = ?::uuid))
        and (?::uuid is null or exists (select 1 from integrations i where i.id = ?::uuid and (?::uuid is null or i.organization_id = ?::uuid))) as ok`,
    [
      filter.organizationId ?? null,
      filter.organizationId ?? null,
      filter.integrationId ?? null,
      filter.integrationId ?? null,
      filter.organizationId ?? null,
      filter.organizationId ?? null,
    ],
  );
  return row?.ok === true;
}
