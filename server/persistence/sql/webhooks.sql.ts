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
  subject: Record<string, unknown>;
  requestId: string;
  createdAt: Date;
}

/**
 * Claim the notification's identity: insert its row unless the unique
 * (endpoint, kind, timestamp, subject) already exists. A concurrent claimer of
 * the same identity waits on the unique index until the first commits, then
 * inserts nothing. Returns whether this call inserted.
 */
export async function claimEvent(sql: Sql, scope: TenantScope, row: EventInsert): Promise<boolean> {
  const rows = await sql<{ id: string }>(
    `insert into webhook_events (id, organization_id, integration_id, environment, endpoint_id, kind, notification_at, subject_type, subject_id,
                                 status, subject, request_id, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, 'no_payment_effect', ?::jsonb, ?, ?)
     on conflict (endpoint_id, kind, notification_at, subject_id) do nothing
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
      JSON.stringify(row.subject),
      row.requestId,
      row.createdAt,
    ],
  );
  return rows.length > 0;
}

export async function findEventStatus(
  sql: Sql,
  identity: { endpointId: string; kind: string; notificationAt: Date; subjectId: string },
): Promise<string | undefined> {
  const rows = await sql<{ status: string }>(
    'select status from webhook_events where endpoint_id = ? and kind = ? and notification_at = ? and subject_id = ?',
    [identity.endpointId, identity.kind, identity.notificationAt, identity.subjectId],
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

export interface TrackedByTransaction {
  id: string;
  attempt_id: string;
  currency: string | null;
  refunded_amount_minor: string | null;
  enrichment_request_id: string | null;
}

/** The tracked payment a gwa transaction id is linked to in this integration and environment (its `provider_payment_id`). */
export async function findPaymentByTransaction(
  sql: Sql,
  scope: TenantScope,
  transactionId: string,
): Promise<TrackedByTransaction | undefined> {
  const rows = await sql<TrackedByTransaction>(
    `select id, attempt_id, currency, refunded_amount_minor, enrichment_request_id from tracked_payments
      where integration_id = ? and environment = ? and provider_payment_id = ?`,
    [scope.integrationId, scope.environment, transactionId],
  );
  return rows[0];
}

export async function findObservationPayment(sql: Sql, observationId: string): Promise<string | undefined> {
  const rows = await sql<{ tracked_payment_id: string }>('select tracked_payment_id from payment_observations where id = ?', [
    observationId,
  ]);
  return rows[0]?.tracked_payment_id;
}
