import { GwcPaymentReportSchema, type GwcPaymentReport, type ReportStatus } from '../../../../contract/payment-reports.js';
import { fastSafeParse } from '../../../validation/compile-schema.js';
import { InvalidNotification } from '../gwa/notification.js';
import type { DeliveryEffect, TrackedLink } from '../record-delivery.js';

/**
 * gwc provider events (docs/gwc-events.md): what a verified delivery's event
 * object is, and the payment observation it carries. Pure; the intake
 * (server/domain/webhooks/gwc/intake.ts) does the I/O.
 */
export interface GwcEvent {
  id: string;
  type: string;
  created: Date;
  livemode: boolean;
  /** The connected account the event belongs to, when the provider says (`account`). */
  account: string | null;
  object: Record<string, unknown>;
}

/** Event types whose PaymentIntent's state they report, and the report status each becomes (docs/gwc-events.md). */
export const PAYMENT_INTENT_STATUS: Readonly<Record<string, ReportStatus>> = {
  'payment_intent.succeeded': 'captured',
  'payment_intent.amount_capturable_updated': 'authorized',
  'payment_intent.requires_action': 'requires_action',
  // A processing PaymentIntent stays unknown until capture evidence exists (spec: Provider state normalization).
  'payment_intent.processing': 'unknown',
  'payment_intent.payment_failed': 'failed',
  'payment_intent.canceled': 'canceled',
};
/** Event types whose Charge carries the cumulative captured and refunded amounts of its PaymentIntent. */
export const CHARGE_TYPES: ReadonlySet<string> = new Set(['charge.captured', 'charge.refunded', 'charge.refund.updated']);

/** The event types a merchant should enable for the endpoint: every type above. */
export const RECOMMENDED_EVENT_TYPES: readonly string[] = [...Object.keys(PAYMENT_INTENT_STATUS), ...CHARGE_TYPES];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EVENT_ID = /^evt_[A-Za-z0-9_]{1,155}$/;
const EVENT_TYPE = /^[a-z][a-z0-9_.]{0,79}$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Read a delivery's body (as verified) as an event object; `InvalidNotification` for anything else. */
export function parseGwcEvent(rawBody: Buffer): GwcEvent {
  let root: unknown;
  try {
    root = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new InvalidNotification('The body is not JSON');
  }
  if (!isObject(root)) throw new InvalidNotification('The body is not an event object');
  if (root.object !== undefined && root.object !== 'event') throw new InvalidNotification('The body is not an event object (object)');
  if (typeof root.id !== 'string' || !EVENT_ID.test(root.id)) throw new InvalidNotification('The event has no valid id (evt_…)');
  if (typeof root.type !== 'string' || !EVENT_TYPE.test(root.type)) throw new InvalidNotification('The event has no valid type');
  if (!Number.isSafeInteger(root.created) || (root.created as number) <= 0) {
    throw new InvalidNotification('The event has no valid created time (unix seconds)');
  }
  if (typeof root.livemode !== 'boolean') throw new InvalidNotification('The event has no livemode');
  if (!isObject(root.data) || !isObject(root.data.object)) throw new InvalidNotification('The event has no data.object');
  const account = typeof root.account === 'string' ? root.account : null;
  return {
    id: root.id,
    type: root.type,
    created: new Date((root.created as number) * 1000),
    livemode: root.livemode,
    account,
    object: root.data.object,
  };
}

/**
 * `metadata.svc_preparation_id` when it is a preparation id (where the spec tells merchants to store it). Anything
 * else a merchant stored under the key is neither looked up nor kept: metadata is free text.
 */
const preparationIdOf = (metadata: Record<string, unknown>): string | null =>
  typeof metadata.svc_preparation_id === 'string' && UUID.test(metadata.svc_preparation_id) ? metadata.svc_preparation_id : null;

/** What is kept of an event: the fields the service reads, never the whole object (docs/gwc-events.md). */
export function eventSummary(e: GwcEvent): Record<string, unknown> {
  const o = e.object;
  const pick = (key: string) => (typeof o[key] === 'string' || typeof o[key] === 'number' || typeof o[key] === 'boolean' ? o[key] : null);
  const metadata = isObject(o.metadata) ? o.metadata : {};
  return {
    id: e.id,
    livemode: e.livemode,
    object: pick('object'),
    objectId: pick('id'),
    status: pick('status'),
    currency: pick('currency'),
    amount: pick('amount'),
    amountReceived: pick('amount_received'),
    amountCaptured: pick('amount_captured'),
    amountRefunded: pick('amount_refunded'),
    paymentIntent: pick('payment_intent'),
    svcPreparationId: preparationIdOf(metadata),
  };
}

/** The PaymentIntent an event is about: the object itself, or a Charge's `payment_intent`; null when it names none. */
export function paymentIntentOf(e: GwcEvent): string | null {
  const o = e.object;
  const id = o.object === 'payment_intent' ? o.id : o.object === 'charge' ? o.payment_intent : undefined;
  return typeof id === 'string' ? id : null;
}

class Unusable extends Error {}
const minor = (o: Record<string, unknown>, key: string): number => {
  const value = o[key];
  if (!Number.isSafeInteger(value) || (value as number) < 0)
    throw new Unusable(`${String(o.object)}.${key} is not an amount in minor units`);
  return value as number;
};

/** Captured and refunded amounts as one status: refunds known so far turn a capture into (partially) refunded. */
function capturedStatus(captured: number, refunded: number): { status: ReportStatus; captured: number; refunded: number } {
  if (captured === 0) return { status: 'canceled', captured: 0, refunded: 0 };
  const r = Math.min(refunded, captured);
  return { status: r === 0 ? 'captured' : r === captured ? 'refunded' : 'partially_refunded', captured, refunded: r };
}

function amountsOf(e: GwcEvent, link: TrackedLink | undefined) {
  const o = e.object;
  const amount = minor(o, 'amount');
  if (o.object === 'charge') return { amount, ...capturedStatus(minor(o, 'amount_captured'), minor(o, 'amount_refunded')) };
  const status = PAYMENT_INTENT_STATUS[e.type]!;
  if (status === 'captured') return { amount, ...capturedStatus(minor(o, 'amount_received'), link?.refundedAmountMinor ?? 0) };
  if (status === 'unknown') {
    // Unknown keeps the amounts already established (spec: Report statuses).
    const captured = Math.min(link?.capturedAmountMinor ?? 0, amount);
    return { amount, status, captured, refunded: Math.min(link?.refundedAmountMinor ?? 0, captured) };
  }
  return { amount, status, captured: 0, refunded: 0 };
}

/** The report schema's compiled check, as request bodies are checked (zod words any refusal). */
const parseGwcReport = fastSafeParse(GwcPaymentReportSchema);

/** The observation id of an event: the same event delivered to two endpoints of one integration is one observation. */
export const observationEventIdOf = (e: GwcEvent): string => `gwc_webhook_${e.id}`;

/**
 * The payment observation an event carries, if any (docs/gwc-events.md). The PaymentIntent id is the payment
 * identity; `metadata.svc_preparation_id` correlates with the preparation unless the payment already is.
 */
export function gwcEffectOf(e: GwcEvent, link: TrackedLink | undefined): DeliveryEffect {
  const o = e.object;
  const isPaymentIntentEvent = PAYMENT_INTENT_STATUS[e.type] !== undefined;
  if (!isPaymentIntentEvent && !CHARGE_TYPES.has(e.type)) return { kind: 'none' };
  // A refund object (charge.refund.updated) holds one refund's amount, not the charge's cumulative refunds.
  if (!isPaymentIntentEvent && o.object === 'refund') return { kind: 'none' };
  const expected = isPaymentIntentEvent ? 'payment_intent' : 'charge';
  if (o.object !== expected) return { kind: 'invalid', reason: `A ${e.type} event carries a ${expected} object` };
  const paymentIntentId = paymentIntentOf(e);
  // A charge outside any PaymentIntent has no payment identity the service tracks.
  if (paymentIntentId === null) return { kind: 'none' };

  let amounts: ReturnType<typeof amountsOf>;
  try {
    amounts = amountsOf(e, link);
  } catch (err) {
    if (err instanceof Unusable) return { kind: 'invalid', reason: err.message };
    throw err;
  }
  const metadata = isObject(o.metadata) ? o.metadata : {};
  const preparationId = preparationIdOf(metadata) ?? undefined;
  const chargeId = o.object === 'charge' ? o.id : o.latest_charge;
  const candidate = {
    eventId: observationEventIdOf(e),
    attemptId: link?.attemptId ?? `gwc_payment_intent_${paymentIntentId}`,
    status: amounts.status,
    currency: o.currency,
    amountMinor: amounts.amount,
    capturedAmountMinor: amounts.captured,
    refundedAmountMinor: amounts.refunded,
    occurredAt: e.created.toISOString(),
    providerEventId: e.id,
    ...((link?.enrichmentRequestId ?? preparationId) ? { enrichmentRequestId: link?.enrichmentRequestId ?? preparationId } : {}),
    source: 'merchant_webhook',
    paymentIntentId,
    ...(typeof chargeId === 'string' ? { chargeId } : {}),
    ...(e.account !== null ? { gwcAccountId: e.account } : {}),
  };
  const parsed = parseGwcReport(candidate);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    return { kind: 'invalid', reason: `The event's ${first.path.join('.')} is not usable: ${first.message}` };
  }
  return { kind: 'observation', report: parsed.data satisfies GwcPaymentReport };
}
