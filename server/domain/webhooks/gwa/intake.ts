import { effectOf, identityOf } from './effects.js';
import { recordDelivery, type DeliveryStores, type WebhookAck } from '../record-delivery.js';
import { InvalidNotification, parseNotification, type Notification } from './notification.js';
import { challengeResponse, isValidChallenge, MAX_SIGNATURE_PAIRS, verifySignature, type KeyPair } from './signature.js';
import { deliverableSecrets, deliveryFailure } from '../deliverable-endpoint.js';
import type { TenantScope } from '../../tenant-scope.js';
import type { UnitOfWork } from '../../unit-of-work.js';
import type { WebhookRuntime } from '../runtime.js';
import type { EndpointDirectory } from '../endpoint-directory.js';
import type { AtOnceWrite } from '../types.js';

export type { WebhookAck };

const fail = deliveryFailure;

export const invalidSignature = (message: string) => fail('validation_error', 'invalid_signature', 'gwa_signature', message);
export const invalidEvent = (message: string) => fail('validation_error', 'invalid_event', 'gwa_payload', message);

export interface Deliverable {
  scope: TenantScope;
  endpointId: string;
  keys: KeyPair[];
}

/** The gwa endpoint a delivery is addressed to, with its key pairs (checks: `deliverableSecrets`). */
export async function deliverableEndpoint(
  endpoints: EndpointDirectory,
  runtime: WebhookRuntime,
  endpointId: string,
  now: Date,
): Promise<Deliverable> {
  const endpoint = await deliverableSecrets(endpoints, runtime, { provider: 'gwa', endpointId, now });
  const keys = endpoint.secrets.flatMap((s) => (s.publicKey ? [{ publicKey: s.publicKey, privateKey: s.secret }] : []));
  return { scope: endpoint.scope, endpointId: endpoint.endpointId, keys };
}

/** The GET handshake (docs/provider-facts.md §1.4): answered with the current key pair only. */
export async function answerChallenge(
  endpoints: EndpointDirectory,
  runtime: WebhookRuntime,
  endpointId: string,
  challenge: unknown,
): Promise<string> {
  const endpoint = await deliverableEndpoint(endpoints, runtime, endpointId, new Date());
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
  storage: UnitOfWork<DeliveryStores>,
  input: { endpoint: Deliverable; signature: string; payload: string; requestId: string; atOnce?: AtOnceWrite; now?: Date },
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
  return recordDelivery(storage, {
    scope: endpoint.scope,
    endpointId: endpoint.endpointId,
    provider: 'gwa',
    event: {
      kind: identity.kind,
      at: identity.timestamp,
      subjectType: notification.subject.type,
      subjectId: identity.subjectId,
      providerEventId: null,
      subject: subjectSummary(notification),
    },
    providerPaymentId: notification.subject.transaction?.id ?? null,
    effectOf: (link) => effectOf(notification, link),
    invalid: invalidEvent,
    requestId: input.requestId,
    now,
    atOnce: input.atOnce,
  });
}
