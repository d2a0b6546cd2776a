import type { ObservationEvidence } from '../entities/payment-observation.entity.js';
import type { Sql, TenantScope } from './sql.js';

export interface PaymentRow {
  id: string;
  attempt_id: string;
  attempt_provisional: boolean;
  provider_payment_id: string | null;
  enrichment_request_id: string | null;
}

export interface ObservationRow {
  id: string;
  status: string;
  currency: string;
  amount_minor: string;
  captured_amount_minor: string;
  refunded_amount_minor: string;
  /** Timestamps arrive as text from this driver configuration. */
  occurred_at: string;
  received_at: string;
  payload: Record<string, unknown>;
  evidence: ObservationEvidence;
}

export async function findObservationByEvent(
  sql: Sql,
  scope: TenantScope,
  eventId: string,
): Promise<{ id: string; payload_hash: string } | undefined> {
  const rows = await sql<{ id: string; payload_hash: string }>(
    `select id, payload_hash from payment_observations
      where organization_id = ? and integration_id = ? and environment = ? and event_id = ?`,
    [scope.organizationId, scope.integrationId, scope.environment, eventId],
  );
  return rows[0];
}

const PAYMENT_ROW = 'id, attempt_id, attempt_provisional, provider_payment_id, enrichment_request_id';

/**
 * The attempt's payment row, created on first sight, and locked for the rest
 * of the transaction (`on conflict do update` takes the row lock), so reports
 * of one attempt are applied one after another.
 */
export async function lockPayment(
  sql: Sql,
  scope: TenantScope,
  input: { provider: string; attemptId: string; attemptProvisional: boolean; now: Date },
): Promise<PaymentRow> {
  const rows = await sql<PaymentRow>(
    `insert into tracked_payments (id, organization_id, integration_id, environment, provider, attempt_id, attempt_provisional, observation_count, created_at, updated_at)
     values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, 0, ?, ?)
     on conflict (integration_id, environment, attempt_id) do update set attempt_id = excluded.attempt_id
     returning ${PAYMENT_ROW}`,
    [
      scope.organizationId,
      scope.integrationId,
      scope.environment,
      input.provider,
      input.attemptId,
      input.attemptProvisional,
      input.now,
      input.now,
    ],
  );
  return rows[0]!;
}

/** The payment a provider payment id is linked to (unique per integration and environment), locked for the transaction. */
export async function lockPaymentByProviderId(sql: Sql, scope: TenantScope, providerPaymentId: string): Promise<PaymentRow | undefined> {
  const rows = await sql<PaymentRow>(
    `select ${PAYMENT_ROW} from tracked_payments where integration_id = ? and environment = ? and provider_payment_id = ? for update`,
    [scope.integrationId, scope.environment, providerPaymentId],
  );
  return rows[0];
}

/**
 * Give a payment known so far only under a provisional attempt id the merchant's attemptId, unless another payment
 * holds it. The unique (integration, environment, attempt_id) refuses a concurrent claimer of the same attemptId.
 */
export async function adoptAttemptId(sql: Sql, scope: TenantScope, paymentId: string, attemptId: string): Promise<boolean> {
  const rows = await sql<{ id: string }>(
    `update tracked_payments set attempt_id = ?, attempt_provisional = false
      where id = ? and attempt_provisional
        and not exists (select 1 from tracked_payments t where t.integration_id = ? and t.environment = ? and t.attempt_id = ?)
      returning id`,
    [attemptId, paymentId, scope.integrationId, scope.environment, attemptId],
  );
  return rows.length > 0;
}

/** Every observation of a payment, those of the provisional payments merged into it included. */
export function observationsOf(sql: Sql, paymentId: string): Promise<ObservationRow[]> {
  return sql<ObservationRow>(
    `select id, status, currency, amount_minor, captured_amount_minor, refunded_amount_minor, occurred_at, received_at, payload, evidence
       from payment_observations
      where tracked_payment_id = ? or tracked_payment_id in (select id from tracked_payments where merged_into_id = ?)`,
    [paymentId, paymentId],
  );
}

/**
 * Merge a provisional payment into the merchant's payment of the same attempt: it gives up its provider id (the
 * merchant's payment takes it with its next projection) and no longer counts as a payment of its own.
 */
export async function mergeProvisional(sql: Sql, provisionalId: string, intoId: string): Promise<void> {
  await sql(
    `update tracked_payments set provider_payment_id = null, merged_into_id = ?, observation_count = 0
      where id = ? and attempt_provisional and merged_into_id is null`,
    [intoId, provisionalId],
  );
}

export async function isPaymentIdClaimed(
  sql: Sql,
  scope: TenantScope,
  providerPaymentId: string,
  exceptPaymentId: string,
): Promise<boolean> {
  const rows = await sql<{ claimed: boolean }>(
    `select exists (select 1 from tracked_payments
                     where integration_id = ? and environment = ? and provider_payment_id = ? and id <> ?) as claimed`,
    [scope.integrationId, scope.environment, providerPaymentId, exceptPaymentId],
  );
  return rows[0]?.claimed === true;
}

export interface ObservationInsert {
  id: string;
  provider: string;
  eventId: string;
  payloadHash: string;
  payload: Record<string, unknown>;
  paymentId: string;
  attemptId: string;
  status: string;
  currency: string;
  amountMinor: number;
  capturedAmountMinor: number;
  refundedAmountMinor: number;
  occurredAt: Date;
  requestId: string;
  receivedAt: Date;
  evidence: ObservationEvidence;
}

/** Columns of an observation row but its payment, in the order of `observationValues`. */
const OBSERVATION_COLUMNS = `id, organization_id, integration_id, environment, provider, event_id, payload_hash, payload, attempt_id, status, currency,
  amount_minor, captured_amount_minor, refunded_amount_minor, occurred_at, request_id, received_at, evidence`;
const OBSERVATION_PLACEHOLDERS =
  '?::uuid, ?::uuid, ?::uuid, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?::bigint, ?::bigint, ?::bigint, ?::timestamptz, ?, ?::timestamptz, ?';

function observationValues(scope: TenantScope, o: ObservationInsert): unknown[] {
  return [
    o.id,
    scope.organizationId,
    scope.integrationId,
    scope.environment,
    o.provider,
    o.eventId,
    o.payloadHash,
    JSON.stringify(o.payload),
    o.attemptId,
    o.status,
    o.currency,
    o.amountMinor,
    o.capturedAmountMinor,
    o.refundedAmountMinor,
    o.occurredAt,
    o.requestId,
    o.receivedAt,
    o.evidence,
  ];
}

export async function insertObservation(sql: Sql, scope: TenantScope, row: ObservationInsert): Promise<void> {
  await sql(`insert into payment_observations (${OBSERVATION_COLUMNS}, tracked_payment_id) values (${OBSERVATION_PLACEHOLDERS}, ?::uuid)`, [
    ...observationValues(scope, row),
    row.paymentId,
  ]);
}

export interface ProjectionUpdate {
  providerPaymentId: string | null;
  accountId: string | null;
  chargeId: string | null;
  orderId: string | null;
  status: string;
  currency: string;
  amountMinor: number;
  capturedAmountMinor: number;
  refundedAmountMinor: number;
  occurredAt: Date;
  currentObservationId: string;
  enrichmentRequestId: string | null;
  observationCount: number;
  updatedAt: Date;
}

/** Projection columns of a tracked payment, in the order of `projectionValues`. */
const PROJECTION_COLUMNS = [
  'provider_payment_id',
  'account_id',
  'charge_id',
  'order_id',
  'status',
  'currency',
  'amount_minor',
  'captured_amount_minor',
  'refunded_amount_minor',
  'occurred_at',
  'current_observation_id',
  'enrichment_request_id',
  'observation_count',
  'updated_at',
] as const;

function projectionValues(p: ProjectionUpdate): unknown[] {
  return [
    p.providerPaymentId,
    p.accountId,
    p.chargeId,
    p.orderId,
    p.status,
    p.currency,
    p.amountMinor,
    p.capturedAmountMinor,
    p.refundedAmountMinor,
    p.occurredAt,
    p.currentObservationId,
    p.enrichmentRequestId,
    p.observationCount,
    p.updatedAt,
  ];
}

export async function updateProjection(sql: Sql, paymentId: string, p: ProjectionUpdate): Promise<void> {
  await sql(`update tracked_payments set ${PROJECTION_COLUMNS.map((c) => `${c} = ?`).join(', ')} where id = ?`, [
    ...projectionValues(p),
    paymentId,
  ]);
}

export async function insertCorrelationException(
  sql: Sql,
  scope: TenantScope,
  row: { observationId: string; enrichmentRequestId: string; kind: string; expected: string; observed: string; createdAt: Date },
): Promise<void> {
  await sql(
    `insert into correlation_exceptions (id, organization_id, integration_id, environment, observation_id, enrichment_request_id, kind, expected, observed, created_at)
     values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      scope.organizationId,
      scope.integrationId,
      scope.environment,
      row.observationId,
      row.enrichmentRequestId,
      row.kind,
      row.expected,
      row.observed,
      row.createdAt,
    ],
  );
}

export async function findEnrichmentRecord(
  sql: Sql,
  input: { requestId: string; integrationId: string; environment: string },
): Promise<{ amount_minor: string; currency: string } | undefined> {
  const rows = await sql<{ amount_minor: string; currency: string }>(
    'select amount_minor, currency from enrichment_records where request_id = ? and integration_id = ? and environment = ?',
    [input.requestId, input.integrationId, input.environment],
  );
  return rows[0];
}

/** The first report of an attempt, or a retry of a stored eventId: the input of `recordFirstOrFindPrevious`. */
export interface FirstReport {
  scope: TenantScope;
  insert: boolean;
  paymentId: string;
  provider: string;
  attemptId: string;
  attemptProvisional: boolean;
  createdAt: Date;
  projection: ProjectionUpdate;
  observation: ObservationInsert;
}

export interface FirstOutcome {
  previous?: { id: string; payload_hash: string };
  inserted: boolean;
}

/** Record columns of the JSON rows `recordFirstOrFindPrevious` sends, with their SQL types. */
const FIRST_REPORT_RECORD = `ord int, do_insert boolean, payment_id uuid, organization_id uuid, integration_id uuid, environment text,
  provider text, attempt_id text, attempt_provisional boolean, created_at timestamptz, provider_payment_id text, account_id text, charge_id text, order_id text,
  status text, currency text, amount_minor bigint, captured_amount_minor bigint, refunded_amount_minor bigint, occurred_at timestamptz,
  current_observation_id uuid, enrichment_request_id text, observation_count int, updated_at timestamptz,
  observation_id uuid, event_id text, payload_hash text, payload jsonb, request_id text, received_at timestamptz, evidence text,
  o_status text, o_currency text, o_amount_minor bigint, o_captured_amount_minor bigint, o_refunded_amount_minor bigint, o_occurred_at timestamptz`;

function firstReportRecord(r: FirstReport, ord: number): Record<string, unknown> {
  const { scope, projection: p, observation: o } = r;
  return {
    ord,
    do_insert: r.insert,
    payment_id: r.paymentId,
    organization_id: scope.organizationId,
    integration_id: scope.integrationId,
    environment: scope.environment,
    provider: r.provider,
    attempt_id: r.attemptId,
    attempt_provisional: r.attemptProvisional,
    created_at: r.createdAt,
    provider_payment_id: p.providerPaymentId,
    account_id: p.accountId,
    charge_id: p.chargeId,
    order_id: p.orderId,
    status: p.status,
    currency: p.currency,
    amount_minor: p.amountMinor,
    captured_amount_minor: p.capturedAmountMinor,
    refunded_amount_minor: p.refundedAmountMinor,
    occurred_at: p.occurredAt,
    current_observation_id: p.currentObservationId,
    enrichment_request_id: p.enrichmentRequestId,
    observation_count: p.observationCount,
    updated_at: p.updatedAt,
    observation_id: o.id,
    event_id: o.eventId,
    payload_hash: o.payloadHash,
    payload: o.payload,
    request_id: o.requestId,
    received_at: o.receivedAt,
    evidence: o.evidence,
    o_status: o.status,
    o_currency: o.currency,
    o_amount_minor: o.amountMinor,
    o_captured_amount_minor: o.capturedAmountMinor,
    o_refunded_amount_minor: o.refundedAmountMinor,
    o_occurred_at: o.occurredAt,
  };
}

/**
 * One round trip for the two common cases, for any number of reports at once
 * (group commit): a retry of a stored eventId (returns the earlier
 * observation, writes nothing), or the first observation of a new attempt
 * (creates the payment with its projection and the observation together).
 * Neither when the attempt already exists or `insert` is false: the caller
 * then takes the locking path. Reports sent together must not share an
 * eventId or an attemptId. Unique violations (a concurrent eventId, a claimed
 * provider payment id) abort the whole statement.
 *
 * Named, so each connection plans it once: planning this statement cost PostgreSQL more than running it, once per
 * batch. The earlier observation is looked up through a lateral subquery with a limit, so the cached generic plan
 * reads `payment_observations` through its eventId key for each report whatever batch size it assumes (a plain join
 * may be planned as a scan of the table).
 */
export async function recordFirstOrFindPrevious(sql: Sql, reports: FirstReport[]): Promise<FirstOutcome[]> {
  const rows = await sql<{ ord: number; inserted_id: string | null; previous_id: string | null; previous_hash: string | null }>(
    `with input as (select * from jsonb_to_recordset(?::jsonb) as x(${FIRST_REPORT_RECORD})),
     previous as (
       select i.ord, o.id, o.payload_hash from input i
         join lateral (
           select o.id, o.payload_hash from payment_observations o
            where o.organization_id = i.organization_id and o.integration_id = i.integration_id
              and o.environment = i.environment and o.event_id = i.event_id
            limit 1) o on true),
     payment as (
       insert into tracked_payments (id, organization_id, integration_id, environment, provider, attempt_id, attempt_provisional, created_at, ${PROJECTION_COLUMNS.join(', ')})
       select i.payment_id, i.organization_id, i.integration_id, i.environment, i.provider, i.attempt_id, i.attempt_provisional, i.created_at,
              ${PROJECTION_COLUMNS.map((c) => `i.${c}`).join(', ')}
         from input i
        where i.do_insert and not exists (select 1 from previous p where p.ord = i.ord)
       on conflict (integration_id, environment, attempt_id) do nothing
       returning id),
     observation as (
       insert into payment_observations (${OBSERVATION_COLUMNS}, tracked_payment_id)
       select i.observation_id, i.organization_id, i.integration_id, i.environment, i.provider, i.event_id, i.payload_hash, i.payload,
              i.attempt_id, i.o_status, i.o_currency, i.o_amount_minor, i.o_captured_amount_minor, i.o_refunded_amount_minor,
              i.o_occurred_at, i.request_id, i.received_at, i.evidence, payment.id
         from input i join payment on payment.id = i.payment_id
       returning id)
     select i.ord, o.id as inserted_id, p.id as previous_id, p.payload_hash as previous_hash
       from input i left join observation o on o.id = i.observation_id left join previous p on p.ord = i.ord`,
    [JSON.stringify(reports.map(firstReportRecord))],
    'payment_reports_first_or_previous',
  );
  const byOrd = new Map(rows.map((row) => [Number(row.ord), row]));
  return reports.map((_, ord) => {
    const row = byOrd.get(ord)!;
    return {
      ...(row.previous_id ? { previous: { id: row.previous_id, payload_hash: row.previous_hash! } } : {}),
      inserted: row.inserted_id !== null,
    };
  });
}
