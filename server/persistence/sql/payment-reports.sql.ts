import { sql } from 'kysely';
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
import type { TenantScope } from '../../domain/tenant-scope.js';
import { hotStatement, runNamed, type Database } from '../kysely.js';
import { withChains, type PaymentChainViews } from './payment-chains.js';

export async function findObservationByEvent(db: Database, scope: TenantScope, eventId: string): Promise<PreviousObservation | undefined> {
  return db
    .selectFrom('payment_observations')
    .select(['id', 'payloadHash'])
    .where('organization', '=', scope.organizationId)
    .where('integration', '=', scope.integrationId)
    .where('environment', '=', scope.environment)
    .where('eventId', '=', eventId)
    .executeTakeFirst();
}

const paymentColumns = ['id', 'attemptId', 'attemptProvisional', 'providerPaymentId', 'enrichmentRequestId'] as const;

/**
 * The attempt's payment row, created on first sight, and locked for the rest
 * of the transaction (`on conflict do update` takes the row lock), so reports
 * of one attempt are applied one after another.
 */
export async function lockPayment(
  db: Database,
  scope: TenantScope,
  input: { provider: TrackedPayment['provider']; attemptId: string; attemptProvisional: boolean; now: Date },
): Promise<LockedPayment> {
  return db
    .insertInto('tracked_payments')
    .values({
      id: sql<string>`gen_random_uuid()`,
      organization: scope.organizationId,
      integration: scope.integrationId,
      environment: scope.environment,
      provider: input.provider,
      attemptId: input.attemptId,
      attemptProvisional: input.attemptProvisional,
      observationCount: 0,
      createdAt: input.now,
      updatedAt: input.now,
    })
    .onConflict((oc) =>
      oc.columns(['integration', 'environment', 'attemptId']).doUpdateSet((eb) => ({ attemptId: eb.ref('excluded.attemptId') })),
    )
    .returning(paymentColumns)
    .executeTakeFirstOrThrow();
}

/** The payment a provider payment id is linked to (unique per integration and environment), locked for the transaction. */
export async function lockPaymentByProviderId(
  db: Database,
  scope: TenantScope,
  providerPaymentId: string,
): Promise<LockedPayment | undefined> {
  return db
    .selectFrom('tracked_payments')
    .select(paymentColumns)
    .where('integration', '=', scope.integrationId)
    .where('environment', '=', scope.environment)
    .where('providerPaymentId', '=', providerPaymentId)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Give a payment known so far only under a provisional attempt id the merchant's attemptId, unless another payment
 * holds it. The unique (integration, environment, attempt_id) refuses a concurrent claimer of the same attemptId.
 */
export async function adoptAttemptId(db: Database, scope: TenantScope, paymentId: string, attemptId: string): Promise<boolean> {
  const rows = await db
    .updateTable('tracked_payments')
    .set({ attemptId, attemptProvisional: false })
    .where('id', '=', paymentId)
    .where('attemptProvisional', '=', true)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('tracked_payments as t')
            .select(sql<number>`1`.as('one'))
            .where('t.integration', '=', scope.integrationId)
            .where('t.environment', '=', scope.environment)
            .where('t.attemptId', '=', attemptId),
        ),
      ),
    )
    .returning('id')
    .execute();
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

/** A row of the `payment_chain_observations` view (its database values: amounts and times as text) as the domain's observation. */
const storedObservationOf = (
  row: Pick<PaymentChainViews['payment_chain_observations'], (typeof observationColumns)[number]>,
): StoredObservation => ({
  id: row.id,
  status: row.status,
  currency: row.currency,
  amountMinor: Number(row.amount_minor),
  capturedAmountMinor: Number(row.captured_amount_minor),
  refundedAmountMinor: Number(row.refunded_amount_minor),
  occurredAt: new Date(row.occurred_at),
  receivedAt: new Date(row.received_at),
  payload: row.payload,
  evidence: row.evidence,
});

/** Observations of a payment and of the provisional payments merged into it (the view `payment_chain_observations`). */
const observationsOfQuery = (db: Database, paymentId: string) =>
  withChains(db).selectFrom('payment_chain_observations').where('chain_payment_id', '=', paymentId);

/** Every observation of a payment, those of the provisional payments merged into it included. */
export async function observationsOf(db: Database, paymentId: string): Promise<StoredObservation[]> {
  const rows = await observationsOfQuery(db, paymentId).select(observationColumns).execute();
  return rows.map(storedObservationOf);
}

/** A payment's whole observation history, oldest observed first (the admin view of one payment). */
export async function observationHistoryOf(db: Database, paymentId: string): Promise<PaymentObservation[]> {
  const rows = await observationsOfQuery(db, paymentId)
    .select([...observationColumns, 'event_id'])
    .orderBy('occurred_at')
    .orderBy('received_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ ...storedObservationOf(row), eventId: row.event_id }));
}

/**
 * Merge a provisional payment into the merchant's payment of the same attempt: it gives up its provider id (the
 * merchant's payment takes it with its next projection) and never stands for a payment again (`merged_into_id`; the
 * `payment_chains` view leaves it out). A merchant payment that named no enrichment takes the one the provisional
 * payment named (the provider's `svc_preparation_id`), so the chain keeps its preparation. Returns the survivor's
 * enrichment request id after the merge.
 */
export async function mergeProvisional(db: Database, provisionalId: string, intoId: string): Promise<string | null> {
  const merged = await db
    .updateTable('tracked_payments')
    .set({ providerPaymentId: null, mergedIntoId: intoId, observationCount: 0 })
    .where('id', '=', provisionalId)
    .where('attemptProvisional', '=', true)
    .where('mergedIntoId', 'is', null)
    .returning('enrichmentRequestId')
    .executeTakeFirst();
  const survivor = await db
    .updateTable('tracked_payments')
    .set((eb) => ({ enrichmentRequestId: eb.fn.coalesce('enrichmentRequestId', eb.val(merged?.enrichmentRequestId ?? null)) }))
    .where('id', '=', intoId)
    .returning('enrichmentRequestId')
    .executeTakeFirst();
  return survivor?.enrichmentRequestId ?? null;
}

export async function isPaymentIdClaimed(
  db: Database,
  scope: TenantScope,
  providerPaymentId: string,
  exceptPaymentId: string,
): Promise<boolean> {
  const row = await db
    .selectNoFrom(({ exists, selectFrom }) =>
      exists(
        selectFrom('tracked_payments')
          .select(sql<number>`1`.as('one'))
          .where('integration', '=', scope.integrationId)
          .where('environment', '=', scope.environment)
          .where('providerPaymentId', '=', providerPaymentId)
          .where('id', '<>', exceptPaymentId),
      ).as('claimed'),
    )
    .executeTakeFirst();
  return row?.claimed === true;
}

/** Raw and unchanged: a statement of every report taking the locking path (its text is the one it always had). */
export async function insertObservation(db: Database, scope: TenantScope, o: ObservationInsert): Promise<void> {
  await sql`insert into payment_observations (id, organization_id, integration_id, environment, provider, event_id, payload_hash, payload, attempt_id, status, currency,
  amount_minor, captured_amount_minor, refunded_amount_minor, occurred_at, request_id, received_at, evidence, tracked_payment_id) values (${o.id}::uuid, ${scope.organizationId}::uuid, ${scope.integrationId}::uuid, ${scope.environment}, ${o.provider}, ${o.eventId}, ${o.payloadHash}, ${JSON.stringify(o.payload)}::jsonb, ${o.attemptId}, ${o.status}, ${o.currency}, ${o.amountMinor}::bigint, ${o.capturedAmountMinor}::bigint, ${o.refundedAmountMinor}::bigint, ${o.occurredAt}::timestamptz, ${o.requestId}, ${o.receivedAt}::timestamptz, ${o.evidence}, ${o.paymentId}::uuid)`.execute(
    db,
  );
}

/** Raw and unchanged, like `insertObservation`: the projection of every report taking the locking path. */
export async function updateProjection(db: Database, paymentId: string, p: ProjectionUpdate): Promise<void> {
  await sql`update tracked_payments set provider_payment_id = ${p.providerPaymentId}, account_id = ${p.accountId}, charge_id = ${p.chargeId}, order_id = ${p.orderId}, status = ${p.status}, currency = ${p.currency}, amount_minor = ${p.amountMinor}, captured_amount_minor = ${p.capturedAmountMinor}, refunded_amount_minor = ${p.refundedAmountMinor}, occurred_at = ${p.occurredAt}, current_observation_id = ${p.currentObservationId}, enrichment_request_id = ${p.enrichmentRequestId}, observation_count = ${p.observationCount}, updated_at = ${p.updatedAt} where id = ${paymentId}`.execute(
    db,
  );
}

export async function insertCorrelationException(
  db: Database,
  scope: TenantScope,
  row: { observationId: string; enrichmentRequestId: string; kind: CorrelationKind; expected: string; observed: string; createdAt: Date },
): Promise<void> {
  await db
    .insertInto('correlation_exceptions')
    .values({
      id: sql<string>`gen_random_uuid()`,
      organization: scope.organizationId,
      integration: scope.integrationId,
      environment: scope.environment,
      observation: row.observationId,
      enrichmentRequestId: row.enrichmentRequestId,
      kind: row.kind,
      expected: row.expected,
      observed: row.observed,
      createdAt: row.createdAt,
    })
    .execute();
}

/** The amount and currency an inline enrichment (`req_…`) of this integration and environment was for. */
export async function findEnrichmentRecord(
  db: Database,
  input: { requestId: string; integrationId: string; environment: TenantScope['environment'] },
): Promise<{ amountMinor: number; currency: string } | undefined> {
  return db
    .selectFrom('enrichment_records')
    .select(['amountMinor', 'currency'])
    .where('requestId', '=', input.requestId)
    .where('integration', '=', input.integrationId)
    .where('environment', '=', input.environment)
    .executeTakeFirst();
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
  'verified_capture',
] as const;

/** A bigint amount column as the driver reads it (text) as the domain's number of minor units. */
export const amountOrNull = (value: string | null): number | null => (value === null ? null : Number(value));

/** A row of the `payment_chains` view (its database values: amounts and times as text) as the domain's payment. */
const paymentChainOf = (row: PaymentChainViews['payment_chains']): PaymentChain => ({
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
  db: Database,
  input: { integrationId?: string | undefined; status?: string | undefined; after?: Position | undefined; limit: number },
): Promise<PaymentChain[]> {
  const { integrationId, status, after } = input;
  const rows = await withChains(db)
    .selectFrom('payment_chains')
    .select(trackedPaymentColumns)
    .$if(integrationId !== undefined, (qb) => qb.where('integration_id', '=', integrationId!))
    .$if(status !== undefined, (qb) => qb.where('status', '=', status!))
    .$if(after !== undefined, (qb) =>
      qb.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(after!.createdAt.toISOString(), after!.id))),
    )
    .orderBy('created_at')
    .orderBy('id')
    .limit(input.limit)
    .execute();
  return rows.map(paymentChainOf);
}

/** A payment of `payment_chains` (never one merged into another). */
export async function trackedPaymentById(db: Database, id: string): Promise<PaymentChain | undefined> {
  const row = await withChains(db).selectFrom('payment_chains').select(trackedPaymentColumns).where('id', '=', id).executeTakeFirst();
  return row && paymentChainOf(row);
}

export async function listCorrelationExceptions(
  db: Database,
  input: { organizationId?: string | undefined; kind?: CorrelationKind | undefined; after?: Position | undefined; limit: number },
): Promise<CorrelationException[]> {
  const { organizationId, kind, after } = input;
  return db
    .selectFrom('correlation_exceptions')
    .select([
      'id',
      'organization as organizationId',
      'integration as integrationId',
      'environment',
      'observation as observationId',
      'enrichmentRequestId',
      'kind',
      'expected',
      'observed',
      'createdAt',
    ])
    .$if(organizationId !== undefined, (qb) => qb.where('organization', '=', organizationId!))
    .$if(kind !== undefined, (qb) => qb.where('kind', '=', kind!))
    .$if(after !== undefined, (qb) => qb.where((eb) => eb(eb.refTuple('createdAt', 'id'), '>', eb.tuple(after!.createdAt, after!.id))))
    .orderBy('createdAt')
    .orderBy('id')
    .limit(input.limit)
    .execute();
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
  inserted_id: string | null;
  previous_id: string | null;
  previous_hash: string | null;
}

const FIRST_OR_PREVIOUS = hotStatement(
  'payment_reports_first_or_previous',
  (reports: string) =>
    sql<FirstOrPreviousRow>`with input as (select * from jsonb_to_recordset(${reports}::jsonb) as x(ord int, do_insert boolean, payment_id uuid, organization_id uuid, integration_id uuid, environment text,
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
);

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
 * may be planned as a scan of the table). Raw: its text is its prepared plan's identity, and its rows are the database's.
 */
export async function recordFirstOrFindPrevious(db: Database, reports: FirstReport[]): Promise<FirstOutcome[]> {
  const rows = await runNamed(db, FIRST_OR_PREVIOUS, JSON.stringify(reports.map(firstReportRecord)));
  const byOrd = new Map(rows.map((row) => [row.ord, row]));
  return reports.map((_, ord) => {
    const row = byOrd.get(ord)!;
    return {
      ...(row.previous_id ? { previous: { id: row.previous_id, payloadHash: row.previous_hash! } } : {}),
      inserted: row.inserted_id !== null,
    };
  });
}
