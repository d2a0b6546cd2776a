import type { Sql, TenantScope } from './sql.js';

export type Scope = TenantScope;

export interface PaymentRow {
  id: string;
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
}

export async function findObservationByEvent(
  sql: Sql,
  scope: Scope,
  eventId: string,
): Promise<{ id: string; payload_hash: string } | undefined> {
  const rows = await sql<{ id: string; payload_hash: string }>(
    `select id, payload_hash from payment_observations
      where organization_id = ? and integration_id = ? and environment = ? and event_id = ?`,
    [scope.organizationId, scope.integrationId, scope.environment, eventId],
  );
  return rows[0];
}

/**
 * The attempt's payment row, created on first sight, and locked for the rest
 * of the transaction (`on conflict do update` takes the row lock), so reports
 * of one attempt are applied one after another.
 */
export async function lockPayment(sql: Sql, scope: Scope, input: { provider: string; attemptId: string; now: Date }): Promise<PaymentRow> {
  const rows = await sql<PaymentRow>(
    `insert into tracked_payments (id, organization_id, integration_id, environment, provider, attempt_id, observation_count, created_at, updated_at)
     values (gen_random_uuid(), ?, ?, ?, ?, ?, 0, ?, ?)
     on conflict (integration_id, environment, attempt_id) do update set attempt_id = excluded.attempt_id
     returning id, provider_payment_id, enrichment_request_id`,
    [scope.organizationId, scope.integrationId, scope.environment, input.provider, input.attemptId, input.now, input.now],
  );
  return rows[0]!;
}

export function observationsOf(sql: Sql, paymentId: string): Promise<ObservationRow[]> {
  return sql<ObservationRow>(
    `select id, status, currency, amount_minor, captured_amount_minor, refunded_amount_minor, occurred_at, received_at, payload
       from payment_observations where tracked_payment_id = ?`,
    [paymentId],
  );
}

export async function isPaymentIdClaimed(sql: Sql, scope: Scope, providerPaymentId: string, exceptPaymentId: string): Promise<boolean> {
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
}

/** Columns of an observation row but its payment, in the order of `observationValues`; `?` casts keep CTE selects typed. */
const OBSERVATION_COLUMNS = `id, organization_id, integration_id, environment, provider, event_id, payload_hash, payload, attempt_id, status, currency,
  amount_minor, captured_amount_minor, refunded_amount_minor, occurred_at, request_id, received_at`;
const OBSERVATION_PLACEHOLDERS =
  '?::uuid, ?::uuid, ?::uuid, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?::bigint, ?::bigint, ?::bigint, ?::timestamptz, ?, ?::timestamptz';

function observationValues(scope: Scope, o: ObservationInsert): unknown[] {
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
  ];
}

export async function insertObservation(sql: Sql, scope: Scope, row: ObservationInsert): Promise<void> {
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
const PROJECTION_PLACEHOLDERS = '?, ?, ?, ?, ?, ?, ?::bigint, ?::bigint, ?::bigint, ?::timestamptz, ?::uuid, ?, ?::int, ?::timestamptz';

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
  scope: Scope,
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

/**
 * One round trip for the two common cases: a retry of a stored eventId
 * (returns the earlier observation, writes nothing), or the first observation
 * of a new attempt (creates the payment with its projection and the
 * observation together). Returns neither when the attempt already exists or
 * `insert` is false: the caller then takes the locking path. Unique violations
 * (a concurrent eventId, a claimed provider payment id) abort the statement.
 */
export async function recordFirstOrFindPrevious(
  sql: Sql,
  scope: Scope,
  input: {
    insert: boolean;
    paymentId: string;
    provider: string;
    attemptId: string;
    createdAt: Date;
    projection: ProjectionUpdate;
    observation: ObservationInsert;
  },
): Promise<{ previous?: { id: string; payload_hash: string }; inserted: boolean }> {
  const { projection: p, observation: o } = input;
  const rows = await sql<{ inserted_id: string | null; previous_id: string | null; previous_hash: string | null }>(
    `with previous as (
       select id, payload_hash from payment_observations
        where organization_id = ? and integration_id = ? and environment = ? and event_id = ?),
     payment as (
       insert into tracked_payments (id, organization_id, integration_id, environment, provider, attempt_id, created_at, ${PROJECTION_COLUMNS.join(', ')})
       select ?::uuid, ?::uuid, ?::uuid, ?, ?, ?, ?::timestamptz, ${PROJECTION_PLACEHOLDERS}
        where ?::boolean and not exists (select 1 from previous)
       on conflict (integration_id, environment, attempt_id) do nothing
       returning id),
     observation as (
       insert into payment_observations (${OBSERVATION_COLUMNS}, tracked_payment_id)
       select ${OBSERVATION_PLACEHOLDERS}, payment.id from payment
       returning id)
     select (select id from observation) as inserted_id, (select id from previous) as previous_id, (select payload_hash from previous) as previous_hash`,
    [
      scope.organizationId,
      scope.integrationId,
      scope.environment,
      o.eventId,
      input.paymentId,
      scope.organizationId,
      scope.integrationId,
      scope.environment,
      input.provider,
      input.attemptId,
      input.createdAt,
      ...projectionValues(p),
      input.insert,
      ...observationValues(scope, o),
    ],
  );
  const row = rows[0]!;
  return {
    ...(row.previous_id ? { previous: { id: row.previous_id, payload_hash: row.previous_hash! } } : {}),
    inserted: row.inserted_id !== null,
  };
}
