import { sql } from 'kysely';
import type {
  DeliveryEndpoint,
  AtOnceDelivery,
  AtOnceOutcome,
  DeliveryStatus,
  EndpointIntegration,
  EndpointStatus,
  EventInsert,
  LinkedPayment,
  UnconfirmedPreparation,
  WebhookEndpoint,
  WebhookEvent,
} from '../../domain/webhooks/types.js';
import type { Position } from '../../domain/pagination.js';
import type { TenantScope } from '../../domain/tenant-scope.js';
import { hotStatement, runNamed, type Database } from '../kysely.js';
import { amountOrNull } from './payment-reports.sql.js';
import type { PreparationEvidenceFactsView } from './evidence.sql.js';
import type { PaymentChainViews } from './payment-chains.js';

/*
 * A delivery's statements are hot statements (docs/performance.md, "Webhook deliveries"): compiled once, sent by name,
 * never walked by the entity plugin; their texts name the columns and convert what the driver reads.
 */
/** The endpoint's columns are null when no endpoint has the id; the epoch is always there. */
type DeliveryEndpointRow = { epoch: string } & {
  [K in keyof DeliveryEndpoint]: (K extends 'previousValidUntil' ? string : DeliveryEndpoint[K]) | null;
};

const DELIVERY_ENDPOINT = hotStatement(
  'webhook_delivery_endpoint',
  (id: string) =>
    sql<DeliveryEndpointRow>`select a.value as epoch, e.id, e.organization_id as "organizationId", e.integration_id as "integrationId",
       e.environment, e.status, e.public_key as "publicKey", e.private_key_enc as "privateKeyEnc",
       e.previous_public_key as "previousPublicKey", e.previous_private_key_enc as "previousPrivateKeyEnc",
       e.previous_valid_until as "previousValidUntil", o.status as "organizationStatus", i.provider as "integrationProvider",
       i.environment as "integrationEnvironment"
     from auth_epoch a
     left join (webhook_endpoints e join integrations i on i.id = e.integration_id join organizations o on o.id = e.organization_id)
       on e.id = ${id}
     where a.id`,
);

/**
 * The endpoint a delivery names, with what its verdict needs, and the auth epoch read in the same statement (so in the
 * same snapshot): the endpoint is current for as long as the epoch has not moved (migration webhook_endpoint_epoch).
 */
export async function findEndpointForDelivery(
  db: Database,
  id: string,
): Promise<{ epoch: string; endpoint: DeliveryEndpoint | undefined }> {
  const [row] = await runNamed(db, DELIVERY_ENDPOINT, id);
  const { epoch, ...endpoint } = row!;
  if (endpoint.id === null) return { epoch, endpoint: undefined };
  // The pool's driver reads timestamps as text.
  const previousValidUntil = endpoint.previousValidUntil === null ? null : new Date(endpoint.previousValidUntil);
  return { epoch, endpoint: { ...(endpoint as unknown as DeliveryEndpoint), previousValidUntil } };
}

/** The claim's row, then the linked payment's columns (all null when none is linked); no row when nothing was claimed. */
interface ClaimRow {
  id: string | null;
  attempt_id: string | null;
  currency: string | null;
  captured_amount_minor: string | null;
  refunded_amount_minor: string | null;
  enrichment_request_id: string | null;
}

const CLAIM_EVENT = hotStatement(
  'webhook_event_claim',
  (
    id: string,
    organizationId: string,
    integrationId: string,
    environment: string,
    endpointId: string,
    kind: string,
    notificationAt: Date,
    subjectType: string,
    subjectId: string,
    providerEventId: string | null,
    subject: string,
    requestId: string,
    createdAt: Date,
    providerPaymentId: string | null,
  ) =>
    sql<ClaimRow>`with claimed as (
       insert into webhook_events (id, organization_id, integration_id, environment, endpoint_id, kind, notification_at, subject_type,
         subject_id, provider_event_id, status, subject, request_id, created_at)
       values (${id}, ${organizationId}, ${integrationId}, ${environment}, ${endpointId}, ${kind}, ${notificationAt}, ${subjectType},
         ${subjectId}, ${providerEventId}, 'no_payment_effect', ${subject}::jsonb, ${requestId}, ${createdAt})
       on conflict do nothing
       returning integration_id, environment
     )
     select tp.id, tp.attempt_id, tp.currency, tp.captured_amount_minor, tp.refunded_amount_minor, tp.enrichment_request_id
       from claimed c left join tracked_payments tp
         on tp.integration_id = c.integration_id and tp.environment = c.environment and tp.provider_payment_id = ${providerPaymentId}`,
);

/**
 * Claim the delivery's identity: insert its row unless one of the endpoint's
 * unique keys is taken, (endpoint, kind, timestamp, subject) or (endpoint,
 * provider event id). A concurrent claimer of the same identity waits on the
 * unique index until the first commits, then inserts nothing. Returns whether
 * this call inserted and, when it did, the tracked payment `providerPaymentId` is linked to in the scope's integration
 * and environment, read by the same statement (one round trip, not two).
 */
export async function claimEvent(
  db: Database,
  scope: TenantScope,
  row: EventInsert,
  providerPaymentId: string | null,
): Promise<{ claimed: boolean; linked: LinkedPayment | undefined }> {
  const [claimed] = await runNamed(
    db,
    CLAIM_EVENT,
    row.id,
    scope.organizationId,
    scope.integrationId,
    scope.environment,
    row.endpointId,
    row.kind,
    row.notificationAt,
    row.subjectType,
    row.subjectId,
    row.providerEventId,
    JSON.stringify(row.subject),
    row.requestId,
    row.createdAt,
    providerPaymentId,
  );
  if (claimed === undefined) return { claimed: false, linked: undefined };
  if (claimed.id === null) return { claimed: true, linked: undefined };
  return {
    claimed: true,
    linked: {
      id: claimed.id,
      attemptId: claimed.attempt_id!,
      currency: claimed.currency,
      capturedAmountMinor: amountOrNull(claimed.captured_amount_minor),
      refundedAmountMinor: amountOrNull(claimed.refunded_amount_minor),
      enrichmentRequestId: claimed.enrichment_request_id,
    },
  };
}

/** One delivery of `webhook_deliveries_at_once`: its row, its first report's payment and observation (null without one). */
function atOnceRecord(d: AtOnceDelivery, ord: number): Record<string, unknown> {
  const { scope, event, first } = d;
  const p = first?.projection;
  const o = first?.observation;
  return {
    ord,
    id: event.id,
    organization_id: scope.organizationId,
    integration_id: scope.integrationId,
    environment: scope.environment,
    endpoint_id: event.endpointId,
    kind: event.kind,
    notification_at: event.notificationAt,
    subject_type: event.subjectType,
    subject_id: event.subjectId,
    provider_event_id: event.providerEventId,
    status: event.status,
    subject: event.subject,
    request_id: event.requestId,
    created_at: event.createdAt,
    provider_payment_id: d.providerPaymentId,
    payment_id: first?.paymentId ?? null,
    provider: first?.provider ?? null,
    attempt_id: first?.attemptId ?? null,
    attempt_provisional: first?.attemptProvisional ?? null,
    payment_created_at: first?.createdAt ?? null,
    p_provider_payment_id: p?.providerPaymentId ?? null,
    account_id: p?.accountId ?? null,
    charge_id: p?.chargeId ?? null,
    order_id: p?.orderId ?? null,
    p_status: p?.status ?? null,
    p_currency: p?.currency ?? null,
    p_amount_minor: p?.amountMinor ?? null,
    p_captured_amount_minor: p?.capturedAmountMinor ?? null,
    p_refunded_amount_minor: p?.refundedAmountMinor ?? null,
    p_occurred_at: p?.occurredAt ?? null,
    current_observation_id: p?.currentObservationId ?? null,
    enrichment_request_id: p?.enrichmentRequestId ?? null,
    observation_count: p?.observationCount ?? null,
    updated_at: p?.updatedAt ?? null,
    observation_id: o?.id ?? null,
    event_id: o?.eventId ?? null,
    payload_hash: o?.payloadHash ?? null,
    payload: o?.payload ?? null,
    o_status: o?.status ?? null,
    o_currency: o?.currency ?? null,
    amount_minor: o?.amountMinor ?? null,
    captured_amount_minor: o?.capturedAmountMinor ?? null,
    refunded_amount_minor: o?.refundedAmountMinor ?? null,
    occurred_at: o?.occurredAt ?? null,
    received_at: o?.receivedAt ?? null,
    evidence: o?.evidence ?? null,
  };
}

export const DELIVERIES_AT_ONCE = hotStatement(
  'webhook_deliveries_at_once',
  (deliveries: string) =>
    sql<{
      ord: number;
      blocked: boolean;
      claimed: boolean;
    }>`with input as (select * from jsonb_to_recordset(${deliveries}::jsonb) as x(ord int,
       id uuid, organization_id uuid, integration_id uuid, environment text, endpoint_id uuid, kind text, notification_at timestamptz,
       subject_type text, subject_id text, provider_event_id text, status text, subject jsonb, request_id text, created_at timestamptz,
       provider_payment_id text, payment_id uuid, provider text, attempt_id text, attempt_provisional boolean, payment_created_at timestamptz,
       p_provider_payment_id text, account_id text, charge_id text, order_id text, p_status text, p_currency text, p_amount_minor bigint,
       p_captured_amount_minor bigint, p_refunded_amount_minor bigint, p_occurred_at timestamptz, current_observation_id uuid,
       enrichment_request_id text, observation_count int, updated_at timestamptz, observation_id uuid, event_id text, payload_hash text,
       payload jsonb, o_status text, o_currency text, amount_minor bigint, captured_amount_minor bigint, refunded_amount_minor bigint,
       occurred_at timestamptz, received_at timestamptz, evidence text)),
     blocked as (
       select i.ord from input i
         left join lateral (
           select 1 as hit from tracked_payments t
            where t.integration_id = i.integration_id and t.environment = i.environment and t.provider_payment_id = i.provider_payment_id
            limit 1) payment on true
         left join lateral (
           select 1 as hit from payment_observations o
            where o.organization_id = i.organization_id and o.integration_id = i.integration_id and o.environment = i.environment
              and o.event_id = i.event_id
            limit 1) observation on true
        where payment.hit is not null or observation.hit is not null),
     claimed as (
       insert into webhook_events (id, organization_id, integration_id, environment, endpoint_id, kind, notification_at, subject_type,
         subject_id, provider_event_id, status, subject, request_id, created_at, observation_id, tracked_payment_id)
       select i.id, i.organization_id, i.integration_id, i.environment, i.endpoint_id, i.kind, i.notification_at, i.subject_type,
              i.subject_id, i.provider_event_id, i.status, i.subject, i.request_id, i.created_at, i.observation_id, i.payment_id
         from input i
        where not exists (select 1 from blocked b where b.ord = i.ord)
       on conflict do nothing
       returning id),
     payment as (
       insert into tracked_payments (id, organization_id, integration_id, environment, provider, attempt_id, attempt_provisional, created_at,
         provider_payment_id, account_id, charge_id, order_id, status, currency, amount_minor, captured_amount_minor, refunded_amount_minor,
         occurred_at, current_observation_id, enrichment_request_id, observation_count, updated_at)
       select i.payment_id, i.organization_id, i.integration_id, i.environment, i.provider, i.attempt_id, i.attempt_provisional,
              i.payment_created_at, i.p_provider_payment_id, i.account_id, i.charge_id, i.order_id, i.p_status, i.p_currency,
              i.p_amount_minor, i.p_captured_amount_minor, i.p_refunded_amount_minor, i.p_occurred_at, i.current_observation_id,
              i.enrichment_request_id, i.observation_count, i.updated_at
         from input i join claimed c on c.id = i.id
        where i.payment_id is not null
       returning id),
     observation as (
       insert into payment_observations (id, organization_id, integration_id, environment, provider, event_id, payload_hash, payload,
         attempt_id, status, currency, amount_minor, captured_amount_minor, refunded_amount_minor, occurred_at, request_id, received_at,
         evidence, tracked_payment_id)
       select i.observation_id, i.organization_id, i.integration_id, i.environment, i.provider, i.event_id, i.payload_hash, i.payload,
              i.attempt_id, i.o_status, i.o_currency, i.amount_minor, i.captured_amount_minor, i.refunded_amount_minor, i.occurred_at,
              i.request_id, i.received_at, i.evidence, p.id
         from input i join payment p on p.id = i.payment_id
       returning id)
     select i.ord, exists (select 1 from blocked b where b.ord = i.ord) as blocked, exists (select 1 from claimed c where c.id = i.id) as claimed
       from input i`,
);

/*
 * Each lookup of `blocked` is a lateral subquery with a limit: the cached generic plan, made for a batch of any size,
 * then reads each table through its key for each delivery. As `exists` under `or`, it was planned as a hashed subplan
 * over a sequential scan of `tracked_payments`: 16 ms per statement at 13,000 payments, growing with the table.
 */

/**
 * Deliveries recorded in one statement, committed on its own (docs/performance.md, "Webhook deliveries"), each only
 * when neither its provider payment id is linked to a tracked payment nor its first report's eventId names an
 * observation: its row is claimed with its outcome, and its first report's payment and observation are stored with
 * it. Per delivery: `duplicate` when one of the endpoint's unique keys of the delivery is taken (a concurrent claimer
 * waits on the unique index until the first commits); `general`, with nothing of it written, when a payment or an
 * observation is already there. A unique violation of a payment or an observation (a concurrent report took the
 * attempt, the provider payment id or the eventId) aborts the statement, and nothing of it is stored. Deliveries sent
 * together must not share any of those keys (`groupCommittedDeliveries` plans its batches so).
 */
export async function recordDeliveriesAtOnce(db: Database, deliveries: AtOnceDelivery[]): Promise<AtOnceOutcome[]> {
  const rows = await runNamed(db, DELIVERIES_AT_ONCE, JSON.stringify(deliveries.map(atOnceRecord)));
  const byOrd = new Map(rows.map((row) => [row.ord, row]));
  return deliveries.map((_, ord) => {
    const row = byOrd.get(ord)!;
    if (row.blocked) return 'general';
    return row.claimed ? 'recorded' : 'duplicate';
  });
}

/** The recorded status of the delivery that holds either unique key of this identity. */
export async function findEventStatus(
  db: Database,
  identity: { endpointId: string; kind: string; notificationAt: Date; subjectId: string; providerEventId: string | null },
): Promise<string | undefined> {
  const { providerEventId } = identity;
  const row = await db
    .selectFrom('webhook_events')
    .select('status')
    .where('endpoint', '=', identity.endpointId)
    .where((eb) => {
      const sameIdentity = eb.and([
        eb('kind', '=', identity.kind),
        eb('notificationAt', '=', identity.notificationAt),
        eb('subjectId', '=', identity.subjectId),
      ]);
      // Without a provider event id only the first key can be held (`= null` matches nothing).
      return providerEventId === null ? sameIdentity : eb.or([sameIdentity, eb('providerEventId', '=', providerEventId)]);
    })
    .limit(1)
    .executeTakeFirst();
  return row?.status;
}

const EVENT_OUTCOME = hotStatement(
  'webhook_event_outcome',
  (id: string, status: string, observationId: string | null, issues: string | null) =>
    sql<never>`update webhook_events set status = ${status}, observation_id = ${observationId},
       tracked_payment_id = (select o.tracked_payment_id from payment_observations o where o.id = ${observationId}),
       issues = ${issues}::jsonb
     where id = ${id}`,
);

/** The delivery's outcome, with the tracked payment its observation counts for (read by the same statement). */
export async function setEventOutcome(
  db: Database,
  id: string,
  outcome: { status: string; observationId: string | null; issues: unknown[] | null },
): Promise<void> {
  // The envelope's issues (objects): stored as the jsonb array the column holds.
  await runNamed(
    db,
    EVENT_OUTCOME,
    id,
    outcome.status,
    outcome.observationId,
    outcome.issues === null ? null : JSON.stringify(outcome.issues),
  );
}

/** Keep the endpoint's last refused delivery and why (a safe message, never signature or secret material). */
export async function noteRefusal(db: Database, endpointId: string, refusal: { code: string; message: string; at: Date }): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({
      lastRefusalAt: refusal.at,
      lastRefusalCode: refusal.code.slice(0, 40),
      lastRefusalMessage: refusal.message.slice(0, 200),
    })
    .where('id', '=', endpointId)
    .execute();
}

/** The delivery status of each endpoint, in three statements whatever the number of endpoints. */
export async function deliveryStatusOf(db: Database, endpointIds: readonly string[]): Promise<Map<string, DeliveryStatus>> {
  const out = new Map<string, DeliveryStatus>();
  if (endpointIds.length === 0) return out;
  const ids = [...endpointIds];
  const endpointRows = await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'lastRefusalAt', 'lastRefusalCode', 'lastRefusalMessage'])
    .where('id', 'in', ids)
    .execute();
  for (const r of endpointRows) {
    out.set(r.id, {
      lastDelivery: null,
      counts: {},
      kinds: [],
      lastRefusal: r.lastRefusalAt
        ? { at: r.lastRefusalAt.toISOString(), code: r.lastRefusalCode ?? '', message: r.lastRefusalMessage ?? '' }
        : null,
    });
  }
  const eventRows = await db
    .selectFrom('webhook_events')
    // An int4 count: the driver reads it as a number.
    .select(['endpoint as endpointId', 'status', 'kind', sql<number>`count(*)::int`.as('n')])
    .where('endpoint', 'in', ids)
    .groupBy(['endpoint', 'status', 'kind'])
    .orderBy('kind')
    .execute();
  for (const r of eventRows) {
    const status = out.get(r.endpointId);
    if (!status) continue;
    status.counts[r.status] = (status.counts[r.status] ?? 0) + r.n;
    if (!status.kinds.includes(r.kind)) status.kinds.push(r.kind);
  }
  const lastRows = await db
    .selectFrom('webhook_events')
    .distinctOn('endpoint')
    .select(['endpoint as endpointId', 'createdAt', 'kind', 'status'])
    .where('endpoint', 'in', ids)
    .orderBy('endpoint')
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
  for (const r of lastRows) {
    const status = out.get(r.endpointId);
    if (status) status.lastDelivery = { at: r.createdAt.toISOString(), kind: r.kind, status: r.status };
  }
  return out;
}

/**
 * The views the list reads (`preparation_evidence_facts`, `payment_chains`): not entities, so their columns keep the
 * database's names and values (a bigint or a timestamp as text). Each is selected under a name no entity of its
 * statement has (so the entities' conversion leaves it as the database gave it) and converted once below.
 */
const withViews = (db: Database) => db.withTables<PaymentChainViews & { preparation_evidence_facts: PreparationEvidenceFactsView }>();

/**
 * What lacks a provider-verified capture, created before `createdBefore`, oldest first, at most `limit` (the domain's
 * `UnconfirmedPreparation`). Preparations come from the evidence projection, whose fact keys the domain chose
 * (`factKeys`: those without a verified capture), with their chain's payment from the facts view: the same definition
 * as `evidence.*`. Inline enrichments and payments naming no enrichment come from `payment_chains`.
 */
export async function unconfirmedGwcPreparations(
  db: Database,
  input: { integrationId?: string | undefined; createdBefore: Date; limit: number; factKeys: number[] },
): Promise<UnconfirmedPreparation[]> {
  const { integrationId, createdBefore, limit } = input;
  const views = withViews(db);
  const [preparations, enrichments, payments] = await Promise.all([
    views
      .selectFrom('preparation_evidence as e')
      .innerJoin('preparation_evidence_facts as f', 'f.id', 'e.preparationId')
      // The projection copies the preparation's id, tenant and time (an entity's: converted); the rest is the view's.
      .select(['e.preparationId as id', 'e.organizationId', 'e.integrationId', 'e.createdAt'])
      .select([
        'f.environment as viewEnvironment',
        'f.amount_minor as viewAmountMinor',
        'f.currency as viewCurrency',
        'f.payment_id as viewPaymentId',
        'f.payment_status as viewPaymentStatus',
        'f.captured_minor as viewCapturedMinor',
      ])
      .where('e.provider', '=', 'gwc')
      .where('e.factKey', '=', sql<number>`any(${input.factKeys}::int[])`)
      .where('e.createdAt', '<', createdBefore)
      .$if(integrationId !== undefined, (qb) => qb.where('e.integrationId', '=', integrationId!))
      .orderBy('e.createdAt')
      .orderBy('e.preparationId')
      .limit(limit)
      .execute(),
    views
      .selectFrom((eb) =>
        eb
          .selectFrom('payment_chains as t')
          .innerJoin('enrichment_records as r', (join) =>
            join
              .onRef('r.requestId', '=', 't.enrichment_request_id')
              .onRef('r.integration', '=', 't.integration_id')
              .onRef('r.environment', '=', 't.environment'),
          )
          // One payment per enrichment, chosen as a preparation's is (the `preparation_evidence_facts` order).
          .distinctOn('r.requestId')
          .select((eb) => [
            'r.requestId as id',
            'r.organization as organizationId',
            'r.integration as integrationId',
            'r.environment as viewEnvironment',
            // Read through the derived table `c`, where no entity converts them: the database's bigint and timestamp.
            eb.ref('r.amountMinor').$castTo<string>().as('viewAmountMinor'),
            'r.currency as viewCurrency',
            eb.ref('r.createdAt').$castTo<string>().as('viewCreatedAt'),
            't.id as viewPaymentId',
            't.status as viewPaymentStatus',
            't.captured_amount_minor as viewCapturedMinor',
            't.verified_capture as viewVerifiedCapture',
          ])
          .where('t.provider', '=', 'gwc')
          .where('r.createdAt', '<', createdBefore)
          .$if(integrationId !== undefined, (qb) => qb.where('t.integration_id', '=', integrationId!))
          .orderBy('r.requestId')
          .orderBy('t.verified_capture', 'desc')
          .orderBy(sql`coalesce(t.captured_amount_minor, 0) > 0`, 'desc')
          .orderBy('t.created_at', 'desc')
          .orderBy('t.id')
          .as('c'),
      )
      .selectAll('c')
      .where('c.viewVerifiedCapture', '=', false)
      .orderBy('c.viewCreatedAt')
      .orderBy('c.id')
      .limit(limit)
      .execute(),
    views
      .selectFrom('payment_chains as t')
      .select([
        't.id',
        't.organization_id as organizationId',
        't.integration_id as integrationId',
        't.environment as viewEnvironment',
        't.amount_minor as viewAmountMinor',
        't.currency as viewCurrency',
        't.created_at as viewCreatedAt',
        't.status as viewPaymentStatus',
        't.captured_amount_minor as viewCapturedMinor',
      ])
      .where('t.provider', '=', 'gwc')
      .where('t.enrichment_request_id', 'is', null)
      .where('t.verified_capture', '=', false)
      .where('t.created_at', '<', createdBefore.toISOString())
      .$if(integrationId !== undefined, (qb) => qb.where('t.integration_id', '=', integrationId!))
      .orderBy('t.created_at')
      .orderBy('t.id')
      .limit(limit)
      .execute(),
  ]);
  const rows: UnconfirmedPreparation[] = [
    ...preparations.map((r) => ({
      kind: 'preparation' as const,
      id: r.id,
      organizationId: r.organizationId,
      integrationId: r.integrationId,
      environment: r.viewEnvironment,
      amountMinor: Number(r.viewAmountMinor),
      currency: r.viewCurrency,
      createdAt: r.createdAt,
      payment:
        r.viewPaymentId === null
          ? null
          : { id: r.viewPaymentId, status: r.viewPaymentStatus, capturedAmountMinor: amountOrNull(r.viewCapturedMinor) },
    })),
    ...enrichments.map((r) => ({
      kind: 'inline_enrichment' as const,
      id: r.id,
      organizationId: r.organizationId,
      integrationId: r.integrationId,
      environment: r.viewEnvironment,
      amountMinor: Number(r.viewAmountMinor),
      currency: r.viewCurrency,
      createdAt: new Date(r.viewCreatedAt),
      payment: { id: r.viewPaymentId, status: r.viewPaymentStatus, capturedAmountMinor: amountOrNull(r.viewCapturedMinor) },
    })),
    ...payments.map((r) => ({
      kind: 'payment' as const,
      id: r.id,
      organizationId: r.organizationId,
      integrationId: r.integrationId,
      environment: r.viewEnvironment,
      // A payment known only from an authorization or a failure has no amount of its own yet.
      amountMinor: Number(r.viewAmountMinor ?? 0),
      currency: r.viewCurrency ?? '',
      createdAt: new Date(r.viewCreatedAt),
      payment: { id: r.id, status: r.viewPaymentStatus, capturedAmountMinor: amountOrNull(r.viewCapturedMinor) },
    })),
  ];
  // Oldest first across the three, ties by id; each part was already cut at `limit`, so the first `limit` are exact.
  rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return rows.slice(0, limit);
}

/** The integration an endpoint is to be registered for. */
export async function integrationForEndpoint(db: Database, id: string): Promise<EndpointIntegration | undefined> {
  return db
    .selectFrom('integrations')
    .select(['id', 'organization as organizationId', 'provider', 'environment'])
    .where('id', '=', id)
    .executeTakeFirst();
}

const endpoints = (db: Database) =>
  db
    .selectFrom('webhook_endpoints as e')
    .innerJoin('integrations as i', 'i.id', 'e.integration')
    .select([
      'e.id',
      'e.organization as organizationId',
      'e.integration as integrationId',
      'e.environment',
      'i.provider',
      'e.status',
      'e.publicKey',
      'e.privateKeyEnc',
      'e.previousPublicKey',
      'e.previousPrivateKeyEnc',
      'e.previousValidUntil',
      'e.credentialsUpdatedAt',
      'e.disabledAt',
      'e.createdAt',
    ]);

export async function insertEndpoint(db: Database, endpoint: Omit<WebhookEndpoint, 'provider'>): Promise<void> {
  await db
    .insertInto('webhook_endpoints')
    .values({
      id: endpoint.id,
      organization: endpoint.organizationId,
      integration: endpoint.integrationId,
      environment: endpoint.environment,
      status: endpoint.status,
      publicKey: endpoint.publicKey,
      privateKeyEnc: endpoint.privateKeyEnc,
      previousPublicKey: endpoint.previousPublicKey,
      previousPrivateKeyEnc: endpoint.previousPrivateKeyEnc,
      previousValidUntil: endpoint.previousValidUntil,
      credentialsUpdatedAt: endpoint.credentialsUpdatedAt,
      disabledAt: endpoint.disabledAt,
      createdAt: endpoint.createdAt,
    })
    .execute();
}

export async function endpointById(db: Database, id: string): Promise<WebhookEndpoint | undefined> {
  return endpoints(db).where('e.id', '=', id).executeTakeFirst();
}

/** The endpoint, its row locked until the transaction ends (a rotation reads and replaces its secrets under it). */
export async function lockEndpoint(db: Database, id: string): Promise<WebhookEndpoint | undefined> {
  return endpoints(db).where('e.id', '=', id).forUpdate('e').executeTakeFirst();
}

/** Endpoints oldest first, of one integration or of all, at most `limit`. */
export async function listEndpoints(
  db: Database,
  input: { integrationId?: string | undefined; limit: number },
): Promise<WebhookEndpoint[]> {
  const { integrationId } = input;
  return endpoints(db)
    .$if(integrationId !== undefined, (qb) => qb.where('e.integration', '=', integrationId!))
    .orderBy('e.createdAt')
    .orderBy('e.id')
    .limit(input.limit)
    .execute();
}

/** Every endpoint of these integrations, oldest first. */
export async function endpointsOfIntegrations(db: Database, integrationIds: readonly string[]): Promise<WebhookEndpoint[]> {
  if (integrationIds.length === 0) return [];
  return endpoints(db)
    .where('e.integration', 'in', [...integrationIds])
    .orderBy('e.createdAt')
    .execute();
}

export async function setEndpointStatus(
  db: Database,
  id: string,
  change: { status: EndpointStatus; disabledAt: Date | null },
): Promise<void> {
  await db.updateTable('webhook_endpoints').set({ status: change.status, disabledAt: change.disabledAt }).where('id', '=', id).execute();
}

/** The endpoint's current secret, and the previous one when a rotation keeps it for its grace period. */
export async function setEndpointCredentials(
  db: Database,
  id: string,
  credentials: {
    publicKey: string | null;
    privateKeyEnc: string;
    credentialsUpdatedAt: Date;
    previous?: { publicKey: string | null; privateKeyEnc: string; validUntil: Date };
  },
): Promise<void> {
  const { previous } = credentials;
  await db
    .updateTable('webhook_endpoints')
    .set({
      publicKey: credentials.publicKey,
      privateKeyEnc: credentials.privateKeyEnc,
      credentialsUpdatedAt: credentials.credentialsUpdatedAt,
      ...(previous && {
        previousPublicKey: previous.publicKey,
        previousPrivateKeyEnc: previous.privateKeyEnc,
        previousValidUntil: previous.validUntil,
      }),
    })
    .where('id', '=', id)
    .execute();
}

/** Recorded deliveries in (createdAt, id) order after `after`, at most `limit`. */
export async function listWebhookEvents(
  db: Database,
  input: { endpointId?: string | undefined; kind?: string | undefined; after?: Position | undefined; limit: number },
): Promise<WebhookEvent[]> {
  const { endpointId, kind, after } = input;
  return db
    .selectFrom('webhook_events')
    .select([
      'id',
      'endpoint as endpointId',
      'organization as organizationId',
      'integration as integrationId',
      'environment',
      'kind',
      'notificationAt',
      'subjectType',
      'subjectId',
      'status',
      'subject',
      'issues',
      'observationId',
      'trackedPaymentId',
      'createdAt',
    ])
    .$if(endpointId !== undefined, (qb) => qb.where('endpoint', '=', endpointId!))
    .$if(kind !== undefined, (qb) => qb.where('kind', '=', kind!))
    .$if(after !== undefined, (qb) => qb.where((eb) => eb(eb.refTuple('createdAt', 'id'), '>', eb.tuple(after!.createdAt, after!.id))))
    .orderBy('createdAt')
    .orderBy('id')
    .limit(input.limit)
    .execute();
}
