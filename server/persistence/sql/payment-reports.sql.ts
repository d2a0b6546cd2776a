import { sql as expr, type Selectable } from 'kysely';
import type {
  CorrelationException,
  CorrelationKind,
  FirstOutcome,
  FirstReport,
  LockedPayment,
  ObservationInsert,
  PaymentChain,
  PaymentObservation,
  PreviousObservation,
  ProjectionUpdate,
  StoredObservation,
  TrackedPayment,
} from '../../domain/payment-reports/types.js';
import type { Position } from '../../domain/pagination.js';
import { db, first, run, type Database } from '../db/query.js';
import type { TenantScope } from '../../domain/tenant-scope.js';
import { chainDb } from './payment-chains.js';
import type { Sql } from './sql.js';

type Observations = Selectable<Database['payment_observations']>;
type Payments = Selectable<Database['tracked_payments']>;

/** Amounts are bigint, read as text; they are minor units well within safe integers (the report schema bounds them). */
const amount = (value: string): number => Number(value);
const amountOrNull = (value: string | null): number | null => (value === null ? null : Number(value));

export async function findObservationByEvent(sql: Sql, scope: TenantScope, eventId: string): Promise<PreviousObservation | undefined> {
  const row = await first(
    sql,
    db
      .selectFrom('payment_observations')
      .select(['id', 'payload_hash'])
      .where('organization_id', '=', scope.organizationId)
      .where('integration_id', '=', scope.integrationId)
      .where('environment', '=', scope.environment)
      .where('event_id', '=', eventId),
  );
  return row && { id: row.id, payloadHash: row.payload_hash };
}

const paymentColumns = ['id', 'attempt_id', 'attempt_provisional', 'provider_payment_id', 'enrichment_request_id'] as const;

const lockedPaymentOf = (row: Pick<Payments, (typeof paymentColumns)[number]>): LockedPayment => ({
  id: row.id,
  attemptId: row.attempt_id,
  attemptProvisional: row.attempt_provisional,
  providerPaymentId: row.provider_payment_id,
  enrichmentRequestId: row.enrichment_request_id,
});

/**
 * The attempt's payment row, created on first sight, and locked for the rest
 * of the transaction (`on conflict do update` takes the row lock), so reports
 * of one attempt are applied one after another.
 */
export async function lockPayment(
  sql: Sql,
  scope: TenantScope,
  input: { provider: TrackedPayment['provider']; attemptId: string; attemptProvisional: boolean; now: Date },
): Promise<LockedPayment> {
  const row = await first(
    sql,
    db
      .insertInto('tracked_payments')
      .values({
        id: expr<string>`gen_random_uuid()`,
        organization_id: scope.organizationId,
        integration_id: scope.integrationId,
        environment: scope.environment,
        provider: input.provider,
        attempt_id: input.attemptId,
        attempt_provisional: input.attemptProvisional,
        observation_count: 0,
        created_at: input.now,
        updated_at: input.now,
      })
      .onConflict((oc) =>
        oc.columns(['integration_id', 'environment', 'attempt_id']).doUpdateSet((eb) => ({ attempt_id: eb.ref('excluded.attempt_id') })),
      )
      .returning(paymentColumns),
  );
  return lockedPaymentOf(row!);
}

/** The payment a provider payment id is linked to (unique per integration and environment), locked for the transaction. */
export async function lockPaymentByProviderId(sql: Sql, scope: TenantScope, providerPaymentId: string): Promise<LockedPayment | undefined> {
  const row = await first(
    sql,
    db
      .selectFrom('tracked_payments')
      .select(paymentColumns)
      .where('integration_id', '=', scope.integrationId)
      .where('environment', '=', scope.environment)
      .where('provider_payment_id', '=', providerPaymentId)
      .forUpdate(),
  );
  return row && lockedPaymentOf(row);
}

/**
 * Give a payment known so far only under a provisional attempt id the merchant's attemptId, unless another payment
 * holds it. The unique (integration, environment, attempt_id) refuses a concurrent claimer of the same attemptId.
 */
export async function adoptAttemptId(sql: Sql, scope: TenantScope, paymentId: string, attemptId: string): Promise<boolean> {
  const rows = await run(
    sql,
    db
      .updateTable('tracked_payments')
      .set({ attempt_id: attemptId, attempt_provisional: false })
      .where('id', '=', paymentId)
      .where('attempt_provisional', '=', true)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('tracked_payments as t')
              .select(expr<number>`1`.as('one'))
              .where('t.integration_id', '=', scope.integrationId)
              .where('t.environment', '=', scope.environment)
              .where('t.attempt_id', '=', attemptId),
          ),
        ),
      )
      .returning('id'),
  );
  return rows.length > 0;
}

const observationColumns = [
  'id',
  'status',
  'currency',
  'amount_minor',
  'captured_amount_minor',
  'refunded_amount_minor',
  'occurred_at',
  'received_at',
  'payload',
  'evidence',
] as const;

const storedObservationOf = (row: Pick<Observations, (typeof observationColumns)[number]>): StoredObservation => ({
  id: row.id,
  status: row.status,
  currency: row.currency,
  amountMinor: amount(row.amount_minor),
  capturedAmountMinor: amount(row.captured_amount_minor),
  refundedAmountMinor: amount(row.refunded_amount_minor),
  occurredAt: new Date(row.occurred_at),
  receivedAt: new Date(row.received_at),
  payload: row.payload as Record<string, unknown>,
  evidence: row.evidence,
});

/** Observations of a payment and of the provisional payments merged into it (the view `payment_chain_observations`). */
const observationsOfQuery = (paymentId: string) =>
  chainDb.selectFrom('payment_chain_observations').where('chain_payment_id', '=', paymentId);

/** Every observation of a payment, those of the provisional payments merged into it included. */
export async function observationsOf(sql: Sql, paymentId: string): Promise<StoredObservation[]> {
  const rows = await run(sql, observationsOfQuery(paymentId).select(observationColumns));
  return rows.map(storedObservationOf);
}

/** A payment's whole observation history, oldest observed first (the admin view of one payment). */
export async function observationHistoryOf(sql: Sql, paymentId: string): Promise<PaymentObservation[]> {
  const rows = await run(
    sql,
    observationsOfQuery(paymentId)
      .select([...observationColumns, 'event_id'])
      .orderBy('occurred_at')
      .orderBy('received_at')
      .orderBy('id'),
  );
  return rows.map((row) => ({ ...storedObservationOf(row), eventId: row.event_id }));
}

/**
 * Merge a provisional payment into the merchant's payment of the same attempt: it gives up its provider id (the
 * merchant's payment takes it with its next projection) and never stands for a payment again (`merged_into_id`; the
 * `payment_chains` view leaves it out). A merchant payment that named no enrichment takes the one the provisional
 * payment named (the provider's `svc_preparation_id`), so the chain keeps its preparation. Returns the survivor's
 * enrichment request id after the merge.
 */
export async function mergeProvisional(sql: Sql, provisionalId: string, intoId: string): Promise<string | null> {
  const [merged] = await run(
    sql,
    db
      .updateTable('tracked_payments')
      .set({ provider_payment_id: null, merged_into_id: intoId, observation_count: 0 })
      .where('id', '=', provisionalId)
      .where('attempt_provisional', '=', true)
      .where('merged_into_id', 'is', null)
      .returning('enrichment_request_id'),
  );
  const [survivor] = await run(
    sql,
    db
      .updateTable('tracked_payments')
      .set((eb) => ({ enrichment_request_id: eb.fn.coalesce('enrichment_request_id', eb.val(merged?.enrichment_request_id ?? null)) }))
      .where('id', '=', intoId)
      .returning('enrichment_request_id'),
  );
  return survivor?.enrichment_request_id ?? null;
}

export async function isPaymentIdClaimed(
  sql: Sql,
  scope: TenantScope,
  providerPaymentId: string,
  exceptPaymentId: string,
): Promise<boolean> {
  const row = await first(
    sql,
    db.selectNoFrom(({ exists, selectFrom }) =>
      exists(
        selectFrom('tracked_payments')
          .select(expr<number>`1`.as('one'))
          .where('integration_id', '=', scope.integrationId)
          .where('environment', '=', scope.environment)
          .where('provider_payment_id', '=', providerPaymentId)
          .where('id', '<>', exceptPaymentId),
      ).as('claimed'),
    ),
  );
  return row?.claimed === true;
}

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

/** Raw and unchanged: a statement of every report taking the locking path (its text is its prepared plan's identity). */
export async function insertObservation(sql: Sql, scope: TenantScope, row: ObservationInsert): Promise<void> {
  await sql(
    `insert into payment_observations (id, organization_id, integration_id, environment, provider, event_id, payload_hash, payload, attempt_id, status, currency,
  amount_minor, captured_amount_minor, refunded_amount_minor, occurred_at, request_id, received_at, evidence, tracked_payment_id) values (?::uuid, ?::uuid, ?::uuid, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?::bigint, ?::bigint, ?::bigint, ?::timestamptz, ?, ?::timestamptz, ?, ?::uuid)`,
    [...observationValues(scope, row), row.paymentId],
  );
}

/** Raw and unchanged, like `insertObservation`: the projection of every report taking the locking path. */
export async function updateProjection(sql: Sql, paymentId: string, p: ProjectionUpdate): Promise<void> {
  await sql(
    'update tracked_payments set provider_payment_id = ?, account_id = ?, charge_id = ?, order_id = ?, status = ?, currency = ?, amount_minor = ?, captured_amount_minor = ?, refunded_amount_minor = ?, occurred_at = ?, current_observation_id = ?, enrichment_request_id = ?, observation_count = ?, updated_at = ? where id = ?',
    [
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
      paymentId,
    ],
  );
}

export async function insertCorrelationException(
  sql: Sql,
  scope: TenantScope,
  row: { observationId: string; enrichmentRequestId: string; kind: CorrelationKind; expected: string; observed: string; createdAt: Date },
): Promise<void> {
  await run(
    sql,
    db.insertInto('correlation_exceptions').values({
      id: expr<string>`gen_random_uuid()`,
      organization_id: scope.organizationId,
      integration_id: scope.integrationId,
      environment: scope.environment,
      observation_id: row.observationId,
      enrichment_request_id: row.enrichmentRequestId,
      kind: row.kind,
      expected: row.expected,
      observed: row.observed,
      created_at: row.createdAt,
    }),
  );
}

/** The amount and currency an inline enrichment (`req_…`) of this integration and environment was for. */
export async function findEnrichmentRecord(
  sql: Sql,
  input: { requestId: string; integrationId: string; environment: TenantScope['environment'] },
): Promise<{ amountMinor: number; currency: string } | undefined> {
  const row = await first(
    sql,
    db
      .selectFrom('enrichment_records')
      .select(['amount_minor', 'currency'])
      .where('request_id', '=', input.requestId)
      .where('integration_id', '=', input.integrationId)
      .where('environment', '=', input.environment),
  );
  return row && { amountMinor: amount(row.amount_minor), currency: row.currency };
}

const trackedPaymentColumns = [
  'id',
  'organization_id',
  'integration_id',
  'environment',
  'provider',
  'attempt_id',
  'attempt_provisional',
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
  'created_at',
  'updated_at',
] as const;

const trackedPaymentOf = (row: Pick<Payments, (typeof trackedPaymentColumns)[number]> & { verified_capture: boolean }): PaymentChain => ({
  id: row.id,
  organizationId: row.organization_id,
  integrationId: row.integration_id,
  environment: row.environment,
  provider: row.provider,
  attemptId: row.attempt_id,
  attemptProvisional: row.attempt_provisional,
  providerPaymentId: row.provider_payment_id,
  accountId: row.account_id,
  chargeId: row.charge_id,
  orderId: row.order_id,
  status: row.status,
  currency: row.currency,
  amountMinor: amountOrNull(row.amount_minor),
  capturedAmountMinor: amountOrNull(row.captured_amount_minor),
  refundedAmountMinor: amountOrNull(row.refunded_amount_minor),
  occurredAt: row.occurred_at === null ? null : new Date(row.occurred_at),
  currentObservationId: row.current_observation_id,
  enrichmentRequestId: row.enrichment_request_id,
  observationCount: row.observation_count,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
  verifiedCapture: row.verified_capture,
});

/**
 * Payments in (createdAt, id) order after `after`, at most `limit`: the `payment_chains` view, so a provisional payment
 * merged into another is not one of them, and each says whether its chain has a provider-verified capture.
 */
export async function listTrackedPayments(
  sql: Sql,
  input: { integrationId?: string | undefined; status?: string | undefined; after?: Position | undefined; limit: number },
): Promise<PaymentChain[]> {
  const { integrationId, status, after } = input;
  const rows = await run(
    sql,
    chainDb
      .selectFrom('payment_chains')
      .select([...trackedPaymentColumns, 'verified_capture'])
      .$if(integrationId !== undefined, (qb) => qb.where('integration_id', '=', integrationId!))
      .$if(status !== undefined, (qb) => qb.where('status', '=', status!))
      .$if(after !== undefined, (qb) =>
        qb.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(after!.createdAt.toISOString(), after!.id))),
      )
      .orderBy('created_at')
      .orderBy('id')
      .limit(input.limit),
  );
  return rows.map(trackedPaymentOf);
}

/** A payment of `payment_chains` (never one merged into another). */
export async function trackedPaymentById(sql: Sql, id: string): Promise<PaymentChain | undefined> {
  const row = await first(
    sql,
    chainDb
      .selectFrom('payment_chains')
      .select([...trackedPaymentColumns, 'verified_capture'])
      .where('id', '=', id),
  );
  return row && trackedPaymentOf(row);
}

export async function listCorrelationExceptions(
  sql: Sql,
  input: { organizationId?: string | undefined; kind?: CorrelationKind | undefined; after?: Position | undefined; limit: number },
): Promise<CorrelationException[]> {
  const { organizationId, kind, after } = input;
  const rows = await run(
    sql,
    db
      .selectFrom('correlation_exceptions')
      .selectAll()
      .$if(organizationId !== undefined, (qb) => qb.where('organization_id', '=', organizationId!))
      .$if(kind !== undefined, (qb) => qb.where('kind', '=', kind!))
      .$if(after !== undefined, (qb) =>
        qb.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(after!.createdAt.toISOString(), after!.id))),
      )
      .orderBy('created_at')
      .orderBy('id')
      .limit(input.limit),
  );
  return rows.map((row) => ({
    id: row.id,
    organizationId: row.organization_id,
    integrationId: row.integration_id,
    environment: row.environment,
    observationId: row.observation_id,
    enrichmentRequestId: row.enrichment_request_id,
    kind: row.kind,
    expected: row.expected,
    observed: row.observed,
    createdAt: new Date(row.created_at),
  }));
}

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

/** A row of `payment_reports_first_or_previous`: the report's position in the batch, and the observation stored or found. */
interface FirstOrPreviousRow {
  ord: number;
  inserted_id: Observations['id'] | null;
  previous_id: Observations['id'] | null;
  previous_hash: Observations['payload_hash'] | null;
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
 * may be planned as a scan of the table). Raw: its text is its prepared plan's identity.
 */
export async function recordFirstOrFindPrevious(sql: Sql, reports: FirstReport[]): Promise<FirstOutcome[]> {
  const rows = await sql<FirstOrPreviousRow>(
    `with input as (select * from jsonb_to_recordset(?::jsonb) as x(ord int, do_insert boolean, payment_id uuid, organization_id uuid, integration_id uuid, environment text,
  provider text, attempt_id text, attempt_provisional boolean, created_at timestamptz, provider_payment_id text, account_id text, charge_id text, order_id text,
  status text, currency text, amount_minor bigint, captured_amount_minor bigint, refunded_amount_minor bigint, occurred_at timestamptz,
  current_observation_id uuid, enrichment_request_id text, observation_count int, updated_at timestamptz,
  observation_id uuid, event_id text, payload_hash text, payload jsonb, request_id text, received_at timestamptz, evidence text,
  o_status text, o_currency text, o_amount_minor bigint, o_captured_amount_minor bigint, o_refunded_amount_minor bigint, o_occurred_at timestamptz)),
     previous as (
       select i.ord, o.id, o.payload_hash from input i
         join lateral (
           select o.id, o.payload_hash from payment_observations o
            where o.organization_id = i.organization_id and o.integration_id = i.integration_id
              and o.environment = i.environment and o.event_id = i.event_id
            limit 1) o on true),
     payment as (
       insert into tracked_payments (id, organization_id, integration_id, environment, provider, attempt_id, attempt_provisional, created_at, provider_payment_id, account_id, charge_id, order_id, status, currency, amount_minor, captured_amount_minor, refunded_amount_minor, occurred_at, current_observation_id, enrichment_request_id, observation_count, updated_at)
       select i.payment_id, i.organization_id, i.integration_id, i.environment, i.provider, i.attempt_id, i.attempt_provisional, i.created_at,
              i.provider_payment_id, i.account_id, i.charge_id, i.order_id, i.status, i.currency, i.amount_minor, i.captured_amount_minor, i.refunded_amount_minor, i.occurred_at, i.current_observation_id, i.enrichment_request_id, i.observation_count, i.updated_at
         from input i
        where i.do_insert and not exists (select 1 from previous p where p.ord = i.ord)
       on conflict (integration_id, environment, attempt_id) do nothing
       returning id),
     observation as (
       insert into payment_observations (id, organization_id, integration_id, environment, provider, event_id, payload_hash, payload, attempt_id, status, currency,
  amount_minor, captured_amount_minor, refunded_amount_minor, occurred_at, request_id, received_at, evidence, tracked_payment_id)
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
      ...(row.previous_id ? { previous: { id: row.previous_id, payloadHash: row.previous_hash! } } : {}),
      inserted: row.inserted_id !== null,
    };
  });
}
