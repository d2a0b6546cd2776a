import { DomainError } from '../../errors.js';
import { deliverableSecrets, deliveryFailure, type DeliverableSecrets } from '../deliverable-endpoint.js';
import { eventSummary, gwcEffectOf, parseGwcEvent, paymentIntentOf, type GwcEvent } from './events.js';
import { GWC_SIGNATURE_MESSAGES, verifyGwcSignature } from './signature.js';
import { InvalidNotification } from '../gwa/notification.js';
import { recordDelivery, type DeliveryStores, type WebhookAck } from '../record-delivery.js';
import type { WebhookRuntime } from '../runtime.js';
import type { UnitOfWork } from '../../unit-of-work.js';
import type { EndpointDirectory } from '../endpoint-directory.js';
import type { AtOnceWrite } from '../types.js';

export const invalidSignature = (message: string) => deliveryFailure('validation_error', 'invalid_signature', 'gwc-signature', message);
export const invalidEvent = (message: string) => deliveryFailure('validation_error', 'invalid_event', 'body', message);

export interface RefusalNote {
  code: string;
  message: string;
  at: Date;
}

/** Where an endpoint's last refusal is noted for the operator (coalesced: not a write per refused delivery). */
export interface RefusalNotes {
  note(endpointId: string, note: RefusalNote): void;
}

/** The gwc endpoint a delivery is addressed to (404, 410, 409 in that order; nothing of the body read before). */
export const deliverableGwcEndpoint = (endpoints: EndpointDirectory, runtime: WebhookRuntime, endpointId: string, now: Date) =>
  deliverableSecrets(endpoints, runtime, { provider: 'gwc', endpointId, now });

/**
 * The spec's "endpoint mode": an event of the provider's live mode is evidence for a production integration only,
 * a test-mode event for a sandbox one.
 */
const modeMatches = (event: GwcEvent, environment: string) => event.livemode === (environment === 'production');

/**
 * Receive one delivery to an endpoint `deliverableGwcEndpoint` accepted (docs/gwc-events.md): verify the signature on
 * the raw bytes, read the event, and record it once by its event id, atomically with its payment observation. A
 * refused delivery (400) is noted on the endpoint with its reason, for the operator reviewing a missing confirmation.
 */
export async function receiveGwcEvent(
  storage: UnitOfWork<DeliveryStores>,
  input: {
    endpoint: DeliverableSecrets;
    header: string | undefined;
    rawBody: Buffer;
    requestId: string;
    refusals: RefusalNotes;
    atOnce?: AtOnceWrite;
    now?: Date;
  },
): Promise<WebhookAck> {
  const now = input.now ?? new Date();
  const { endpoint } = input;
  try {
    const verdict = verifyGwcSignature({
      header: input.header,
      rawBody: input.rawBody,
      secrets: endpoint.secrets.map((s) => s.secret),
      nowSeconds: Math.floor(now.getTime() / 1000),
    });
    if (!verdict.ok) throw invalidSignature(GWC_SIGNATURE_MESSAGES[verdict.reason]);
    let event: GwcEvent;
    try {
      event = parseGwcEvent(input.rawBody);
    } catch (err) {
      if (err instanceof InvalidNotification) throw invalidEvent(err.message);
      throw err;
    }
    if (!modeMatches(event, endpoint.scope.environment)) {
      throw invalidEvent(
        `A ${event.livemode ? 'live' : 'test'} mode event cannot be evidence for a ${endpoint.scope.environment} integration`,
      );
    }
    return await recordDelivery(storage, {
      scope: endpoint.scope,
      endpointId: endpoint.endpointId,
      provider: 'gwc',
      event: {
        kind: event.type,
        at: event.created,
        subjectType: typeof event.object.object === 'string' ? event.object.object.slice(0, 80) : 'unknown',
        // The event id, not the object's: two events about one object in the same second are two deliveries.
        subjectId: event.id,
        providerEventId: event.id,
        subject: eventSummary(event),
      },
      providerPaymentId: paymentIntentOf(event),
      effectOf: (link) => gwcEffectOf(event, link),
      invalid: invalidEvent,
      requestId: input.requestId,
      now,
      atOnce: input.atOnce,
    });
  } catch (err) {
    if (err instanceof DomainError && err.type === 'validation_error') {
      const issue = err.issues[0];
      if (issue) input.refusals.note(endpoint.endpointId, { code: issue.code, message: issue.message, at: now });
    }
    throw err;
  }
}
