import type { EntityManager } from '@mikro-orm/postgresql';
import type { Issue } from '../../../contract/common/index.js';
import type { AuthContext } from '../../domain/auth/auth-context.js';
import { DomainError } from '../../domain/errors.js';
import { recordPaymentReport } from '../../domain/payment-reports/record-payment-report.js';
import { effectOf, identityOf, type WebhookEventStatus } from '../../domain/webhooks/effects.js';
import { InvalidNotification, parseNotification, type Notification } from '../../domain/webhooks/notification.js';
import {
  challengeResponse,
  isValidChallenge,
  MAX_SIGNATURE_PAIRS,
  verifySignature,
  type KeyPair,
} from '../../domain/webhooks/signature.js';
import * as store from '../../persistence/sql/webhooks.sql.js';
import { sqlOf, type TenantScope } from '../../persistence/sql/sql.js';
import { currentKeySlot, previousKeySlot, type WebhookRuntime } from './runtime.js';

/** The 200 answer of a delivery (spec: Events 1). */
export interface WebhookAck {
  received: true;
  kind: string;
  status: WebhookEventStatus;
  duplicate: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const fail = (type: 'validation_error' | 'not_found' | 'conflict' | 'gone', code: string, path: string, message: string): DomainError =>
  new DomainError(type, message, [{ code, path, message }]);

export const invalidSignature = (message: string) => fail('validation_error', 'invalid_signature', 'gwa_signature', message);
export const invalidEvent = (message: string) => fail('validation_error', 'invalid_event', 'gwa_payload', message);

export interface Deliverable {
  scope: TenantScope;
  endpointId: string;
  keys: KeyPair[];
}

/**
 * The endpoint a delivery is addressed to, checked in this order (docs/decisions.md,
 * "gwa webhook"): unknown or malformed id 404 `endpoint_not_found`; disabled 410
 * `endpoint_disabled`; no key pair 409 `credentials_required`; an integration that
 * cannot take events 409 `connection_unavailable`. Nothing of the body is read before.
 */
export async function deliverableEndpoint(em: EntityManager, runtime: WebhookRuntime, endpointId: string, now: Date): Promise<Deliverable> {
  const row = UUID.test(endpointId) ? await store.findEndpointForDelivery(sqlOf(em), endpointId.toLowerCase()) : undefined;
  // A malformed id answers exactly like an unknown one: the answer says nothing about which ids exist.
  if (!row) throw fail('not_found', 'endpoint_not_found', 'endpointId', 'No such webhook endpoint');
  if (row.status === 'disabled') throw fail('gone', 'endpoint_disabled', 'endpointId', 'This webhook endpoint is disabled');
  if (!row.public_key || !row.private_key_enc) {
    throw fail('conflict', 'credentials_required', 'endpointId', 'This webhook endpoint has no key pair to verify deliveries with');
  }
  if (row.organization_status !== 'active' || row.integration_environment !== runtime.environment || row.integration_provider !== 'gwa') {
    throw fail('conflict', 'connection_unavailable', 'endpointId', "This webhook endpoint's integration cannot take events");
  }
  const keys: KeyPair[] = [{ publicKey: row.public_key, privateKey: runtime.cipher.decrypt(row.private_key_enc, currentKeySlot(row.id)) }];
  if (row.previous_public_key && row.previous_private_key_enc && row.previous_valid_until && row.previous_valid_until > now) {
    keys.push({
      publicKey: row.previous_public_key,
      privateKey: runtime.cipher.decrypt(row.previous_private_key_enc, previousKeySlot(row.id)),
    });
  }
  return {
    scope: { organizationId: row.organization_id, integrationId: row.integration_id, environment: row.environment },
    endpointId: row.id,
    keys,
  };
}

/** The GET handshake (docs/provider-facts.md §1.4): answered with the current key pair only. */
export async function answerChallenge(em: EntityManager, runtime: WebhookRuntime, endpointId: string, challenge: unknown): Promise<string> {
  const endpoint = await deliverableEndpoint(em, runtime, endpointId, new Date());
  if (typeof challenge !== 'string' || !isValidChallenge(challenge)) {
    throw fail('validation_error', 'invalid_challenge', 'gwa_challenge', 'gwa_challenge must be 20 to 32 lowercase hex digits');
  }
  return challengeResponse(endpoint.keys[0]!, challenge);
}

/** What is kept of a notification: the fields the service reads, never the document (it may carry card data). */
function subjectSummary(n: Notification): Record<string, unknown> {
  return { type: n.subject.type, id: n.subject.id, sourceMerchantId: n.sourceMerchantId, transaction: n.subject.transaction };
}

/**
 * Receive one delivery to an endpoint `deliverableEndpoint` accepted: verify, parse, and record the notification once,
 * atomically with its effect (docs/reliability.md, "gwa webhook"). The first
 * delivery of an identity inserts the event row; its payment observation goes
 * through the payment-report path (record-payment-report.ts) inside the same
 * transaction. A repeat finds the row and changes nothing; a concurrent repeat
 * waits on the row's unique index and then finds it.
 */
export async function receiveNotification(
  em: EntityManager,
  input: { endpoint: Deliverable; signature: string; payload: string; requestId: string; now?: Date },
): Promise<WebhookAck> {
  const now = input.now ?? new Date();
  const { endpoint } = input;
  const verdict = verifySignature(input.signature, input.payload, endpoint.keys);
  if (!verdict.ok) {
    const messages = {
      malformed_payload: 'gwa_payload contains characters outside base64 and newline',
      too_many_pairs: `gwa_signature holds more than ${MAX_SIGNATURE_PAIRS} publicKey|signature pairs`,
      no_matching_public_key: "gwa_signature holds no pair for this endpoint's public key",
      signature_mismatch: 'gwa_signature does not match gwa_payload',
    } as const;
    throw invalidSignature(messages[verdict.reason]);
  }
  let notification: Notification;
  try {
    notification = parseNotification(input.payload);
  } catch (err) {
    if (err instanceof InvalidNotification) throw invalidEvent(err.message);
    throw err;
  }
  const identity = identityOf(endpoint.endpointId, notification);

  return em.transactional(async (tem) => {
    const sql = sqlOf(tem);
    const eventId = crypto.randomUUID();
    const claimed = await store.claimEvent(sql, endpoint.scope, {
      id: eventId,
      endpointId: identity.endpointId,
      kind: identity.kind,
      notificationAt: identity.timestamp,
      subjectType: notification.subject.type,
      subjectId: identity.subjectId,
      subject: subjectSummary(notification),
      requestId: input.requestId,
      createdAt: now,
    });
    if (!claimed) {
      const status = await store.findEventStatus(sql, { ...identity, notificationAt: identity.timestamp });
      return { received: true, kind: notification.kind, status: status as WebhookEventStatus, duplicate: true };
    }

    const transactionId = notification.subject.transaction?.id;
    const tracked = transactionId ? await store.findPaymentByTransaction(sql, endpoint.scope, transactionId) : undefined;
    const effect = effectOf(
      notification,
      tracked && {
        attemptId: tracked.attempt_id,
        currency: tracked.currency,
        refundedAmountMinor: Number(tracked.refunded_amount_minor ?? 0),
        enrichmentRequestId: tracked.enrichment_request_id,
      },
    );
    // Throwing here rolls the event row back: the provider's retry gets the same 400.
    if (effect.kind === 'invalid') throw invalidEvent(effect.reason);
    if (effect.kind === 'none') return { received: true, kind: notification.kind, status: 'no_payment_effect', duplicate: false };

    const ctx: AuthContext = { apiKeyId: '', provider: 'gwa', scopes: [], ...endpoint.scope };
    let status: WebhookEventStatus = effect.report.status;
    let observationId: string | null = null;
    let issues: Issue[] | null = null;
    try {
      // A savepoint: a refused observation leaves the event row in place, marked rejected.
      const ack = await tem.transactional((inner) =>
        recordPaymentReport(inner, { ctx, provider: 'gwa', report: effect.report, requestId: input.requestId, now }),
      );
      observationId = ack.id;
    } catch (err) {
      if (!(err instanceof DomainError) || (err.type !== 'conflict' && err.type !== 'validation_error')) throw err;
      status = 'rejected';
      issues = err.issues;
    }
    const trackedPaymentId = observationId ? ((await store.findObservationPayment(sql, observationId)) ?? null) : null;
    await store.setEventOutcome(sql, eventId, { status, observationId, trackedPaymentId, issues });
    return { received: true, kind: notification.kind, status, duplicate: false };
  });
}
