import type { Environment } from '../../../contract/common/index.js';
import { withDates, type Sql, type TenantScope } from './sql.js';

/** An endpoint with what a delivery needs to decide: its tenant, state, key material and its integration's state. */
export interface EndpointRow {
  id: string;
  organization_id: string;
  integration_id: string;
  environment: Environment;
  status: 'active' | 'disabled';
  public_key: string | null;
  private_key_enc: string | null;
  previous_public_key: string | null;
  previous_private_key_enc: string | null;
  previous_valid_until: Date | null;
  organization_status: string;
  integration_provider: string;
  integration_environment: Environment;
}

const endpoints = withDates<EndpointRow>(['previous_valid_until']);

export async function findEndpointForDelivery(sql: Sql, id: string): Promise<EndpointRow | undefined> {
  const rows = await sql(
    `select e.id, e.organization_id, e.integration_id, e.environment, e.status, e.public_key, e.private_key_enc,
            e.previous_public_key, e.previous_private_key_enc, e.previous_valid_until,
            o.status as organization_status, i.provider as integration_provider, i.environment as integration_environment
       from webhook_endpoints e
       join integrations i on i.id = e.integration_id
       join organizations o on o.id = e.organization_id
      where e.id = ?`,
    [id],
  );
  return endpoints(rows)[0];
}

export interface EventInsert {
  id: string;
  endpointId: string;
  kind: string;
  notificationAt: Date;
  subjectType: string;
  subjectId: string;
  providerEventId: string | null;
  subject: Record<string, unknown>;
  requestId: string;
  createdAt: Date;
}

/**
 * Claim the delivery's identity: insert its row unless one of the endpoint's
 * unique keys is taken, (endpoint, kind, timestamp, subject) or (endpoint,
 * provider event id). A concurrent claimer of the same identity waits on the
 * unique index until the first commits, then inserts nothing. Returns whether
 * this call inserted.
 */
export async function claimEvent(sql: Sql, scope: TenantScope, row: EventInsert): Promise<boolean> {
  const rows = await sql<{ id: string }>(
    `insert into webhook_events (id, organization_id, integration_id, environment, endpoint_id, kind, notification_at, subject_type, subject_id,
                                 provider_event_id, status, subject, request_id, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'no_payment_effect', ?::jsonb, ?, ?)
     on conflict do nothing
     returning id`,
    [
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
    ],
  );
  return rows.length > 0;
}

/** The recorded status of the delivery that holds either unique key of this identity. */
export async function findEventStatus(
  sql: Sql,
  identity: { endpointId: string; kind: string; notificationAt: Date; subjectId: string; providerEventId: string | null },
): Promise<string | undefined> {
  const rows = await sql<{ status: string }>(
    `select status from webhook_events
      where endpoint_id = ? and ((kind = ? and notification_at = ? and subject_id = ?) or provider_event_id = ?)
      limit 1`,
    [identity.endpointId, identity.kind, identity.notificationAt, identity.subjectId, identity.providerEventId],
  );
  return rows[0]?.status;
}

export async function setEventOutcome(
  sql: Sql,
  id: string,
  outcome: { status: string; observationId: string | null; trackedPaymentId: string | null; issues: unknown[] | null },
): Promise<void> {
  await sql('update webhook_events set status = ?, observation_id = ?, tracked_payment_id = ?, issues = ?::jsonb where id = ?', [
    outcome.status,
    outcome.observationId,
    outcome.trackedPaymentId,
    outcome.issues === null ? null : JSON.stringify(outcome.issues),
    id,
  ]);
}

export interface TrackedByProviderId {
  id: string;
  attempt_id: string;
  currency: string | null;
  captured_amount_minor: string | null;
  refunded_amount_minor: string | null;
  enrichment_request_id: string | null;
}

/** The tracked payment a provider payment id (gwa transaction, gwc PaymentIntent) is linked to in this integration and environment. */
export async function findPaymentByProviderId(
  sql: Sql,
  scope: TenantScope,
  providerPaymentId: string,
): Promise<TrackedByProviderId | undefined> {
  const rows = await sql<TrackedByProviderId>(
    `select id, attempt_id, currency, captured_amount_minor, refunded_amount_minor, enrichment_request_id from tracked_payments
      where integration_id = ? and environment = ? and provider_payment_id = ?`,
    [scope.integrationId, scope.environment, providerPaymentId],
  );
  return rows[0];
}

/** Keep the endpoint's last refused delivery and why (a safe message, never signature or secret material). */
export async function noteRefusal(sql: Sql, endpointId: string, refusal: { code: string; message: string; at: Date }): Promise<void> {
  await sql('update webhook_endpoints set last_refusal_at = ?, last_refusal_code = ?, last_refusal_message = ? where id = ?', [
    refusal.at,
    refusal.code.slice(0, 40),
    refusal.message.slice(0, 200),
    endpointId,
  ]);
}

export async function findObservationPayment(sql: Sql, observationId: string): Promise<string | undefined> {
  const rows = await sql<{ tracked_payment_id: string }>('select tracked_payment_id from payment_observations where id = ?', [
    observationId,
  ]);
  return rows[0]?.tracked_payment_id;
}

/** What an operator reviews when a confirmation is missing: what the endpoint received, and its last refusal. */
export interface DeliveryStatus {
  /** The last recorded delivery and its outcome (the acknowledgment status). */
  lastDelivery: { at: string; kind: string; status: string } | null;
  /** Recorded deliveries by acknowledgment status. */
  counts: Record<string, number>;
  /** Every kind (event type) the endpoint has recorded at least once. */
  kinds: string[];
  lastRefusal: { at: string; code: string; message: string } | null;
}

/** The delivery status of each endpoint, in three statements whatever the number of endpoints. */
export async function deliveryStatusOf(sql: Sql, endpointIds: readonly string[]): Promise<Map<string, DeliveryStatus>> {
  const out = new Map<string, DeliveryStatus>();
  if (endpointIds.length === 0) return out;
  // Ids are UUIDs read from the database, so the array literal needs no escaping.
  const ids = `{${endpointIds.join(',')}}`;
  const endpointRows = await sql<{
    id: string;
    last_refusal_at: string | null;
    last_refusal_code: string | null;
    last_refusal_message: string | null;
  }>('select id, last_refusal_at, last_refusal_code, last_refusal_message from webhook_endpoints where id = any(?::uuid[])', [ids]);
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
  const eventRows = await sql<{ endpoint_id: string; status: string; kind: string; n: number }>(
    `select endpoint_id, status, kind, count(*)::int as n from webhook_events
      where endpoint_id = any(?::uuid[]) group by endpoint_id, status, kind order by kind`,
    [ids],
  );
  for (const r of eventRows) {
    const status = out.get(r.endpoint_id);
    if (!status) continue;
    status.counts[r.status] = (status.counts[r.status] ?? 0) + r.n;
    if (!status.kinds.includes(r.kind)) status.kinds.push(r.kind);
  }
  const lastRows = await sql<{ endpoint_id: string; created_at: string; kind: string; status: string }>(
    `select distinct on (endpoint_id) endpoint_id, created_at, kind, status from webhook_events
      where endpoint_id = any(?::uuid[]) order by endpoint_id, created_at desc, id desc`,
    [ids],
  );
  for (const r of lastRows) {
    const status = out.get(r.endpoint_id);
    if (status) status.lastDelivery = { at: new Date(r.created_at).toISOString(), kind: r.kind, status: r.status };
  }
  return out;
}

export interface UnconfirmedRow {
  id: string;
  organization_id: string;
  integration_id: string;
  environment: Environment;
  amount_minor: string;
  currency: string;
  created_at: string;
  payment_id: string | null;
  payment_status: string | null;
  captured_amount_minor: string | null;
}

/**
 * gwc preparations created before `createdBefore` whose payment has no provider-verified capture: no observation
 * with `provider_verified` evidence and a captured amount on a payment correlated with the preparation.
 */
export function unconfirmedGwcPreparations(sql: Sql, input: { integrationId?: string | undefined; createdBefore: Date; limit: number }) {
  return sql<UnconfirmedRow>(
    `select p.id, p.organization_id, p.integration_id, p.environment, p.amount_minor, p.currency, p.created_at,
            t.id as payment_id, t.status as payment_status, t.captured_amount_minor
       from preparations p
       left join tracked_payments t
         on t.integration_id = p.integration_id and t.environment = p.environment and lower(t.enrichment_request_id) = p.id::text
      where p.provider = 'gwc' and p.created_at < ? and (?::uuid is null or p.integration_id = ?::uuid)
        and not exists (select 1 from payment_observations o
                         where (o.tracked_payment_id = t.id or o.tracked_payment_id in (select m.id from tracked_payments m where m.merged_into_id = t.id))
                           and o.evidence = 'provider_verified' and o.captured_amount_minor > 0)
      order by p.created_at, p.id
      limit ?`,
    [input.createdBefore, input.integrationId ?? null, input.integrationId ?? null, input.limit],
  );
}
