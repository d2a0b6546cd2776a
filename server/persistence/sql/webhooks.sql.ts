import { sql as expr, type Selectable } from 'kysely';
import type {
  DeliveryEndpoint,
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
import { db, first, run, type Database } from '../db/query.js';
import type { TenantScope } from '../../domain/tenant-scope.js';
import type { PreparationEvidenceFactsView } from './evidence.sql.js';
import type { PaymentChainViews } from './payment-chains.js';
import type { Sql } from './sql.js';

const dateOrNull = (value: string | null): Date | null => (value === null ? null : new Date(value));
const amountOrNull = (value: string | null): number | null => (value === null ? null : Number(value));

export async function findEndpointForDelivery(sql: Sql, id: string): Promise<DeliveryEndpoint | undefined> {
  const row = await first(
    sql,
    db
      .selectFrom('webhook_endpoints as e')
      .innerJoin('integrations as i', 'i.id', 'e.integration_id')
      .innerJoin('organizations as o', 'o.id', 'e.organization_id')
      .select([
        'e.id',
        'e.organization_id',
        'e.integration_id',
        'e.environment',
        'e.status',
        'e.public_key',
        'e.private_key_enc',
        'e.previous_public_key',
        'e.previous_private_key_enc',
        'e.previous_valid_until',
        'o.status as organization_status',
        'i.provider as integration_provider',
        'i.environment as integration_environment',
      ])
      .where('e.id', '=', id),
  );
  return (
    row && {
      id: row.id,
      organizationId: row.organization_id,
      integrationId: row.integration_id,
      environment: row.environment,
      status: row.status,
      publicKey: row.public_key,
      privateKeyEnc: row.private_key_enc,
      previousPublicKey: row.previous_public_key,
      previousPrivateKeyEnc: row.previous_private_key_enc,
      previousValidUntil: dateOrNull(row.previous_valid_until),
      organizationStatus: row.organization_status,
      integrationProvider: row.integration_provider,
      integrationEnvironment: row.integration_environment,
    }
  );
}

/**
 * Claim the delivery's identity: insert its row unless one of the endpoint's
 * unique keys is taken, (endpoint, kind, timestamp, subject) or (endpoint,
 * provider event id). A concurrent claimer of the same identity waits on the
 * unique index until the first commits, then inserts nothing. Returns whether
 * this call inserted.
 */
export async function claimEvent(sql: Sql, scope: TenantScope, row: EventInsert): Promise<boolean> {
  const rows = await run(
    sql,
    db
      .insertInto('webhook_events')
      .values({
        id: row.id,
        organization_id: scope.organizationId,
        integration_id: scope.integrationId,
        environment: scope.environment,
        endpoint_id: row.endpointId,
        kind: row.kind,
        notification_at: row.notificationAt,
        subject_type: row.subjectType,
        subject_id: row.subjectId,
        provider_event_id: row.providerEventId,
        status: 'no_payment_effect',
        // As JSON text: the driver would send an array as a PostgreSQL array.
        subject: JSON.stringify(row.subject),
        request_id: row.requestId,
        created_at: row.createdAt,
      })
      .onConflict((oc) => oc.doNothing())
      .returning('id'),
  );
  return rows.length > 0;
}

/** The recorded status of the delivery that holds either unique key of this identity. */
export async function findEventStatus(
  sql: Sql,
  identity: { endpointId: string; kind: string; notificationAt: Date; subjectId: string; providerEventId: string | null },
): Promise<string | undefined> {
  const { providerEventId } = identity;
  const row = await first(
    sql,
    db
      .selectFrom('webhook_events')
      .select('status')
      .where('endpoint_id', '=', identity.endpointId)
      .where((eb) => {
        const sameIdentity = eb.and([
          eb('kind', '=', identity.kind),
          eb('notification_at', '=', identity.notificationAt.toISOString()),
          eb('subject_id', '=', identity.subjectId),
        ]);
        // Without a provider event id only the first key can be held (`= null` matches nothing).
        return providerEventId === null ? sameIdentity : eb.or([sameIdentity, eb('provider_event_id', '=', providerEventId)]);
      })
      .limit(1),
  );
  return row?.status;
}

export async function setEventOutcome(
  sql: Sql,
  id: string,
  outcome: { status: string; observationId: string | null; trackedPaymentId: string | null; issues: unknown[] | null },
): Promise<void> {
  await run(
    sql,
    db
      .updateTable('webhook_events')
      .set({
        status: outcome.status,
        observation_id: outcome.observationId,
        tracked_payment_id: outcome.trackedPaymentId,
        // As JSON text: the driver would send an array as a PostgreSQL array.
        issues: outcome.issues === null ? null : JSON.stringify(outcome.issues),
      })
      .where('id', '=', id),
  );
}

/** The tracked payment a provider payment id (gwa transaction, gwc PaymentIntent) is linked to in this integration and environment. */
export async function findPaymentByProviderId(sql: Sql, scope: TenantScope, providerPaymentId: string): Promise<LinkedPayment | undefined> {
  const row = await first(
    sql,
    db
      .selectFrom('tracked_payments')
      .select(['id', 'attempt_id', 'currency', 'captured_amount_minor', 'refunded_amount_minor', 'enrichment_request_id'])
      .where('integration_id', '=', scope.integrationId)
      .where('environment', '=', scope.environment)
      .where('provider_payment_id', '=', providerPaymentId),
  );
  return (
    row && {
      id: row.id,
      attemptId: row.attempt_id,
      currency: row.currency,
      capturedAmountMinor: amountOrNull(row.captured_amount_minor),
      refundedAmountMinor: amountOrNull(row.refunded_amount_minor),
      enrichmentRequestId: row.enrichment_request_id,
    }
  );
}

/** Keep the endpoint's last refused delivery and why (a safe message, never signature or secret material). */
export async function noteRefusal(sql: Sql, endpointId: string, refusal: { code: string; message: string; at: Date }): Promise<void> {
  await run(
    sql,
    db
      .updateTable('webhook_endpoints')
      .set({
        last_refusal_at: refusal.at,
        last_refusal_code: refusal.code.slice(0, 40),
        last_refusal_message: refusal.message.slice(0, 200),
      })
      .where('id', '=', endpointId),
  );
}

export async function findObservationPayment(sql: Sql, observationId: string): Promise<string | undefined> {
  const row = await first(sql, db.selectFrom('payment_observations').select('tracked_payment_id').where('id', '=', observationId));
  return row?.tracked_payment_id;
}

/** The delivery status of each endpoint, in three statements whatever the number of endpoints. */
export async function deliveryStatusOf(sql: Sql, endpointIds: readonly string[]): Promise<Map<string, DeliveryStatus>> {
  const out = new Map<string, DeliveryStatus>();
  if (endpointIds.length === 0) return out;
  const ids = [...endpointIds];
  const endpointRows = await run(
    sql,
    db
      .selectFrom('webhook_endpoints')
      .select(['id', 'last_refusal_at', 'last_refusal_code', 'last_refusal_message'])
      .where('id', 'in', ids),
  );
  for (const r of endpointRows) {
    out.set(r.id, {
      lastDelivery: null,
      counts: {},
      kinds: [],
      lastRefusal: r.last_refusal_at
        ? { at: new Date(r.last_refusal_at).toISOString(), code: r.last_refusal_code ?? '', message: r.last_refusal_message ?? '' }
        : null,
    });
  }
  const eventRows = await run(
    sql,
    db
      .selectFrom('webhook_events')
      .select(['endpoint_id', 'status', 'kind', expr<number>`count(*)::int`.as('n')])
      .where('endpoint_id', 'in', ids)
      .groupBy(['endpoint_id', 'status', 'kind'])
      .orderBy('kind'),
  );
  for (const r of eventRows) {
    const status = out.get(r.endpoint_id);
    if (!status) continue;
    status.counts[r.status] = (status.counts[r.status] ?? 0) + r.n;
    if (!status.kinds.includes(r.kind)) status.kinds.push(r.kind);
  }
  const lastRows = await run(
    sql,
    db
      .selectFrom('webhook_events')
      .distinctOn('endpoint_id')
      .select(['endpoint_id', 'created_at', 'kind', 'status'])
      .where('endpoint_id', 'in', ids)
      .orderBy('endpoint_id')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc'),
  );
  for (const r of lastRows) {
    const status = out.get(r.endpoint_id);
    if (status) status.lastDelivery = { at: new Date(r.created_at).toISOString(), kind: r.kind, status: r.status };
  }
  return out;
}

const views = db.withTables<PaymentChainViews & { preparation_evidence_facts: PreparationEvidenceFactsView }>();

/**
 * What lacks a provider-verified capture, created before `createdBefore`, oldest first, at most `limit` (the domain's
 * `UnconfirmedPreparation`). Preparations come from the evidence projection, whose fact keys the domain chose
 * (`factKeys`: those without a verified capture), with their chain's payment from the facts view: the same definition
 * as `evidence.*`. Inline enrichments and payments naming no enrichment come from `payment_chains`.
 */
export async function unconfirmedGwcPreparations(
  sql: Sql,
  input: { integrationId?: string | undefined; createdBefore: Date; limit: number; factKeys: number[] },
): Promise<UnconfirmedPreparation[]> {
  const { integrationId, createdBefore, limit } = input;
  const [preparations, enrichments, payments] = await Promise.all([
    run(
      sql,
      views
        .selectFrom('preparation_evidence as e')
        .innerJoin('preparation_evidence_facts as f', 'f.id', 'e.preparation_id')
        .select([
          'f.id',
          'f.organization_id',
          'f.integration_id',
          'f.environment',
          'f.amount_minor',
          'f.currency',
          'f.created_at',
          'f.payment_id',
          'f.payment_status',
          'f.captured_minor',
        ])
        .where('e.provider', '=', 'gwc')
        .where('e.fact_key', '=', expr<number>`any(${input.factKeys}::int[])`)
        .where('e.created_at', '<', createdBefore.toISOString())
        .$if(integrationId !== undefined, (qb) => qb.where('e.integration_id', '=', integrationId!))
        .orderBy('e.created_at')
        .orderBy('e.preparation_id')
        .limit(limit),
    ),
    run(
      sql,
      views
        .selectFrom((eb) =>
          eb
            .selectFrom('payment_chains as t')
            .innerJoin('enrichment_records as r', (join) =>
              join
                .onRef('r.request_id', '=', 't.enrichment_request_id')
                .onRef('r.integration_id', '=', 't.integration_id')
                .onRef('r.environment', '=', 't.environment'),
            )
            // One payment per enrichment, chosen as a preparation's is (the `preparation_evidence_facts` order).
            .distinctOn('r.request_id')
            .select([
              'r.request_id',
              'r.organization_id',
              'r.integration_id',
              'r.environment',
              'r.amount_minor',
              'r.currency',
              'r.created_at',
              't.id as payment_id',
              't.status as payment_status',
              't.captured_amount_minor',
              't.verified_capture',
            ])
            .where('t.provider', '=', 'gwc')
            .where('r.created_at', '<', createdBefore.toISOString())
            .$if(integrationId !== undefined, (qb) => qb.where('t.integration_id', '=', integrationId!))
            .orderBy('r.request_id')
            .orderBy('t.verified_capture', 'desc')
            .orderBy(expr`coalesce(t.captured_amount_minor, 0) > 0`, 'desc')
            .orderBy('t.created_at', 'desc')
            .orderBy('t.id')
            .as('c'),
        )
        .selectAll('c')
        .where('c.verified_capture', '=', false)
        .orderBy('c.created_at')
        .orderBy('c.request_id')
        .limit(limit),
    ),
    run(
      sql,
      views
        .selectFrom('payment_chains as t')
        .select([
          't.id',
          't.organization_id',
          't.integration_id',
          't.environment',
          't.amount_minor',
          't.currency',
          't.created_at',
          't.status',
          't.captured_amount_minor',
        ])
        .where('t.provider', '=', 'gwc')
        .where('t.enrichment_request_id', 'is', null)
        .where('t.verified_capture', '=', false)
        .where('t.created_at', '<', createdBefore.toISOString())
        .$if(integrationId !== undefined, (qb) => qb.where('t.integration_id', '=', integrationId!))
        .orderBy('t.created_at')
        .orderBy('t.id')
        .limit(limit),
    ),
  ]);
  const rows: UnconfirmedPreparation[] = [
    ...preparations.map((r) => ({
      kind: 'preparation' as const,
      id: r.id,
      organizationId: r.organization_id,
      integrationId: r.integration_id,
      environment: r.environment,
      amountMinor: Number(r.amount_minor),
      currency: r.currency,
      createdAt: new Date(r.created_at),
      payment:
        r.payment_id === null ? null : { id: r.payment_id, status: r.payment_status, capturedAmountMinor: amountOrNull(r.captured_minor) },
    })),
    ...enrichments.map((r) => ({
      kind: 'inline_enrichment' as const,
      id: r.request_id,
      organizationId: r.organization_id,
      integrationId: r.integration_id,
      environment: r.environment,
      amountMinor: Number(r.amount_minor),
      currency: r.currency,
      createdAt: new Date(r.created_at),
      payment: { id: r.payment_id, status: r.payment_status, capturedAmountMinor: amountOrNull(r.captured_amount_minor) },
    })),
    ...payments.map((r) => ({
      kind: 'payment' as const,
      id: r.id,
      organizationId: r.organization_id,
      integrationId: r.integration_id,
      environment: r.environment,
      // A payment known only from an authorization or a failure has no amount of its own yet.
      amountMinor: Number(r.amount_minor ?? 0),
      currency: r.currency ?? '',
      createdAt: new Date(r.created_at),
      payment: { id: r.id, status: r.status, capturedAmountMinor: amountOrNull(r.captured_amount_minor) },
    })),
  ];
  // Oldest first across the three, ties by id; each part was already cut at `limit`, so the first `limit` are exact.
  rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return rows.slice(0, limit);
}

/** The integration an endpoint is to be registered for. */
export async function integrationForEndpoint(sql: Sql, id: string): Promise<EndpointIntegration | undefined> {
  const row = await first(
    sql,
    db.selectFrom('integrations').select(['id', 'organization_id', 'provider', 'environment']).where('id', '=', id),
  );
  return row && { id: row.id, organizationId: row.organization_id, provider: row.provider, environment: row.environment };
}

const endpointColumns = [
  'e.id',
  'e.organization_id',
  'e.integration_id',
  'e.environment',
  'i.provider',
  'e.status',
  'e.public_key',
  'e.private_key_enc',
  'e.previous_public_key',
  'e.previous_private_key_enc',
  'e.previous_valid_until',
  'e.credentials_updated_at',
  'e.disabled_at',
  'e.created_at',
] as const;

type EndpointRow = Omit<Selectable<Database['webhook_endpoints']>, 'last_refusal_at' | 'last_refusal_code' | 'last_refusal_message'> &
  Pick<Selectable<Database['integrations']>, 'provider'>;

const endpointOf = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  organizationId: row.organization_id,
  integrationId: row.integration_id,
  environment: row.environment,
  provider: row.provider,
  status: row.status,
  publicKey: row.public_key,
  privateKeyEnc: row.private_key_enc,
  previousPublicKey: row.previous_public_key,
  previousPrivateKeyEnc: row.previous_private_key_enc,
  previousValidUntil: dateOrNull(row.previous_valid_until),
  credentialsUpdatedAt: dateOrNull(row.credentials_updated_at),
  disabledAt: dateOrNull(row.disabled_at),
  createdAt: new Date(row.created_at),
});

const endpoints = () =>
  db.selectFrom('webhook_endpoints as e').innerJoin('integrations as i', 'i.id', 'e.integration_id').select(endpointColumns);

export async function insertEndpoint(sql: Sql, endpoint: Omit<WebhookEndpoint, 'provider'>): Promise<void> {
  await run(
    sql,
    db.insertInto('webhook_endpoints').values({
      id: endpoint.id,
      organization_id: endpoint.organizationId,
      integration_id: endpoint.integrationId,
      environment: endpoint.environment,
      status: endpoint.status,
      public_key: endpoint.publicKey,
      private_key_enc: endpoint.privateKeyEnc,
      previous_public_key: endpoint.previousPublicKey,
      previous_private_key_enc: endpoint.previousPrivateKeyEnc,
      previous_valid_until: endpoint.previousValidUntil,
      credentials_updated_at: endpoint.credentialsUpdatedAt,
      disabled_at: endpoint.disabledAt,
      created_at: endpoint.createdAt,
    }),
  );
}

export async function endpointById(sql: Sql, id: string): Promise<WebhookEndpoint | undefined> {
  const row = await first(sql, endpoints().where('e.id', '=', id));
  return row && endpointOf(row);
}

/** The endpoint, its row locked until the transaction ends (a rotation reads and replaces its secrets under it). */
export async function lockEndpoint(sql: Sql, id: string): Promise<WebhookEndpoint | undefined> {
  const row = await first(sql, endpoints().where('e.id', '=', id).forUpdate('e'));
  return row && endpointOf(row);
}

/** Endpoints oldest first, of one integration or of all, at most `limit`. */
export async function listEndpoints(sql: Sql, input: { integrationId?: string | undefined; limit: number }): Promise<WebhookEndpoint[]> {
  const { integrationId } = input;
  const rows = await run(
    sql,
    endpoints()
      .$if(integrationId !== undefined, (qb) => qb.where('e.integration_id', '=', integrationId!))
      .orderBy('e.created_at')
      .orderBy('e.id')
      .limit(input.limit),
  );
  return rows.map(endpointOf);
}

/** Every endpoint of these integrations, oldest first. */
export async function endpointsOfIntegrations(sql: Sql, integrationIds: readonly string[]): Promise<WebhookEndpoint[]> {
  if (integrationIds.length === 0) return [];
  const rows = await run(
    sql,
    endpoints()
      .where('e.integration_id', 'in', [...integrationIds])
      .orderBy('e.created_at'),
  );
  return rows.map(endpointOf);
}

export async function setEndpointStatus(sql: Sql, id: string, change: { status: EndpointStatus; disabledAt: Date | null }): Promise<void> {
  await run(sql, db.updateTable('webhook_endpoints').set({ status: change.status, disabled_at: change.disabledAt }).where('id', '=', id));
}

/** The endpoint's current secret, and the previous one when a rotation keeps it for its grace period. */
export async function setEndpointCredentials(
  sql: Sql,
  id: string,
  credentials: {
    publicKey: string | null;
    privateKeyEnc: string;
    credentialsUpdatedAt: Date;
    previous?: { publicKey: string | null; privateKeyEnc: string; validUntil: Date };
  },
): Promise<void> {
  const { previous } = credentials;
  await run(
    sql,
    db
      .updateTable('webhook_endpoints')
      .set({
        public_key: credentials.publicKey,
        private_key_enc: credentials.privateKeyEnc,
        credentials_updated_at: credentials.credentialsUpdatedAt,
        ...(previous && {
          previous_public_key: previous.publicKey,
          previous_private_key_enc: previous.privateKeyEnc,
          previous_valid_until: previous.validUntil,
        }),
      })
      .where('id', '=', id),
  );
}

/** Recorded deliveries in (createdAt, id) order after `after`, at most `limit`. */
export async function listWebhookEvents(
  sql: Sql,
  input: { endpointId?: string | undefined; kind?: string | undefined; after?: Position | undefined; limit: number },
): Promise<WebhookEvent[]> {
  const { endpointId, kind, after } = input;
  const rows = await run(
    sql,
    db
      .selectFrom('webhook_events')
      .select([
        'id',
        'endpoint_id',
        'organization_id',
        'integration_id',
        'environment',
        'kind',
        'notification_at',
        'subject_type',
        'subject_id',
        'status',
        'subject',
        'issues',
        'observation_id',
        'tracked_payment_id',
        'created_at',
      ])
      .$if(endpointId !== undefined, (qb) => qb.where('endpoint_id', '=', endpointId!))
      .$if(kind !== undefined, (qb) => qb.where('kind', '=', kind!))
      .$if(after !== undefined, (qb) =>
        qb.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(after!.createdAt.toISOString(), after!.id))),
      )
      .orderBy('created_at')
      .orderBy('id')
      .limit(input.limit),
  );
  return rows.map((r) => ({
    id: r.id,
    endpointId: r.endpoint_id,
    organizationId: r.organization_id,
    integrationId: r.integration_id,
    environment: r.environment,
    kind: r.kind,
    notificationAt: new Date(r.notification_at),
    subjectType: r.subject_type,
    subjectId: r.subject_id,
    status: r.status,
    // jsonb this service wrote: the verified subject object and the envelope's issue list.
    subject: r.subject as Record<string, unknown>,
    issues: r.issues as Record<string, unknown>[] | null,
    observationId: r.observation_id,
    trackedPaymentId: r.tracked_payment_id,
    createdAt: new Date(r.created_at),
  }));
}
