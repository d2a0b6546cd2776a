/**
 * gwc (payments provider C, Stripe): enrich → merge into the provider's own
 * PaymentIntent call → report the outcome. Type-checked against `stripe`.
 *
 * Where the enrichment goes (spec: endpoint 10): `data.payment_details` merged
 * over your payment details and `data.amount_details` set on the PaymentIntent
 * create, update, confirm or capture call, whose `amount` is the invoice total.
 * Keep your own provider idempotency key and account routing.
 *
 * Invoice-backed (endpoint 12, `payInvoiceWithGwcFromInvoice`): a saved
 * preparation in `enhanced` or `ordinary` mode; `mergeGwcPreparation` applies the
 * caller rules (preparation amount and currency, `metadata.svc_preparation_id`,
 * enrichment only when enhanced). Report with `preparation.id` as `enrichmentRequestId`.
 */
import type Stripe from 'stripe';
import {
  eventIdFrom,
  enrichmentRequestIdOf,
  mergeGwcPaymentIntent,
  mergeGwcPreparation,
  newEventId,
  type CanonicalInvoice,
  type GwcPaymentReport,
  type SvcClient,
} from '../sdk/src/index.js';

/** What this flow needs of the provider SDK; `new Stripe(key).paymentIntents` satisfies it. */
export interface GwcPaymentIntents {
  create(params: Stripe.PaymentIntentCreateParams, options?: Stripe.RequestOptions): Promise<Stripe.Response<Stripe.PaymentIntent>>;
}

/**
 * Report status of a PaymentIntent. No one-to-one mapping exists (spec: gwc
 * normalization): only capture evidence makes `captured`; processing stays `unknown`.
 */
export function gwcReportStatus(intent: Pick<Stripe.PaymentIntent, 'status' | 'amount_received'>): GwcPaymentReport['status'] {
  switch (intent.status) {
    case 'succeeded':
      return intent.amount_received > 0 ? 'captured' : 'unknown';
    case 'requires_capture':
      return 'authorized';
    case 'requires_action':
      return 'requires_action';
    case 'canceled':
      return 'canceled';
    default:
      return 'unknown';
  }
}

export async function payInvoiceWithGwc(
  deps: { svc: SvcClient; paymentIntents: GwcPaymentIntents },
  input: { invoice: CanonicalInvoice; paymentMethod: string; attemptId: string },
): Promise<Stripe.PaymentIntent> {
  // 1. Enrich (inline invoice).
  const enriched = await deps.svc.gwc.enrichPaymentIntent({ body: { invoice: input.invoice } });
  const enrichmentRequestId = enrichmentRequestIdOf(enriched);

  // 2. Merge into the provider's own create call; the enrichment never replaces amount, currency or routing.
  const params: Stripe.PaymentIntentCreateParams = mergeGwcPaymentIntent(
    {
      amount: input.invoice.totalAmountMinor,
      currency: input.invoice.currency,
      payment_method: input.paymentMethod,
      confirm: true,
      metadata: { svc_enrichment_request_id: enrichmentRequestId ?? '' },
    },
    enriched.body.data,
  );
  const intent = await deps.paymentIntents.create(params, { idempotencyKey: `pi-${input.attemptId}` });

  // 3. Report what was observed.
  await deps.svc.gwc.reportPayment({
    body: reportOf(intent, { attemptId: input.attemptId, eventId: newEventId(), source: 'sdk', enrichmentRequestId }),
  });
  return intent;
}

/** An imported invoice the customer pays in full, as looked up with `svc.invoices.list` / `svc.invoices.get`. */
export interface InvoiceToPay {
  invoiceId: string;
  amountMinor: number;
  currency: string;
  /** The revision reviewed at lookup: a changed invoice is refused (409) instead of prepared. */
  revision?: string;
}

/** Where the merchant keeps its payment attempts; the preparation id is saved before the provider call. */
export interface PaymentAttempts {
  save(attempt: { attemptId: string; idempotencyKey: string; preparationId: string }): Promise<void>;
}

/**
 * Pay an imported invoice (endpoint 12). The idempotency key is derived from the
 * attempt and persisted with it, so a retry (same key, same body) returns the
 * same preparation; keys must not hold long digit runs (read as card data).
 * Branch on nothing: `mergeGwcPreparation` handles both modes.
 */
export async function payInvoiceWithGwcFromInvoice(
  deps: { svc: SvcClient; paymentIntents: GwcPaymentIntents; attempts: PaymentAttempts },
  input: { invoice: InvoiceToPay; paymentMethod: string; attemptId: string },
): Promise<Stripe.PaymentIntent> {
  // 1. Prepare from the invoice.
  const idempotencyKey = `prep-${input.attemptId}`;
  const prepared = await deps.svc.gwc.preparePaymentFromInvoice({
    body: {
      invoiceId: input.invoice.invoiceId,
      amountMinor: input.invoice.amountMinor,
      currency: input.invoice.currency,
      idempotencyKey,
      ...(input.invoice.revision ? { expectedRevision: input.invoice.revision } : {}),
    },
  });
  const { preparation } = prepared.body;
  await deps.attempts.save({ attemptId: input.attemptId, idempotencyKey, preparationId: preparation.id });

  // 2. Merge: amount, currency and svc_preparation_id from the preparation; enrichment only when enhanced.
  const params: Stripe.PaymentIntentCreateParams = mergeGwcPreparation(
    { payment_method: input.paymentMethod, confirm: true },
    prepared.body,
  );
  const intent = await deps.paymentIntents.create(params, { idempotencyKey: `pi-${input.attemptId}` });

  // 3. Report with the preparation id as `enrichmentRequestId`.
  await deps.svc.gwc.reportPayment({
    body: reportOf(intent, { attemptId: input.attemptId, eventId: newEventId(), source: 'sdk', enrichmentRequestId: preparation.id }),
  });
  return intent;
}

/**
 * A later observation from the merchant's verified webhook handler: a new event id
 * derived from the provider event (so a redelivery reports the same observation),
 * the same attempt id.
 */
export function reportFromWebhook(event: Stripe.Event, attemptId: string): GwcPaymentReport | null {
  if (event.type !== 'payment_intent.succeeded' && event.type !== 'payment_intent.canceled') return null;
  return reportOf(event.data.object, {
    attemptId,
    eventId: eventIdFrom('gwc', event.id),
    source: 'merchant_webhook',
    providerEventId: event.id,
  });
}

function reportOf(
  intent: Stripe.PaymentIntent,
  ids: {
    attemptId: string;
    eventId: string;
    source: GwcPaymentReport['source'];
    enrichmentRequestId?: string | undefined;
    providerEventId?: string;
  },
): GwcPaymentReport {
  const status = gwcReportStatus(intent);
  return {
    eventId: ids.eventId,
    attemptId: ids.attemptId,
    status,
    currency: intent.currency,
    amountMinor: intent.amount,
    capturedAmountMinor: status === 'captured' ? intent.amount_received : 0,
    refundedAmountMinor: 0,
    occurredAt: new Date(intent.created * 1000).toISOString(),
    source: ids.source,
    paymentIntentId: intent.id,
    ...(ids.enrichmentRequestId ? { enrichmentRequestId: ids.enrichmentRequestId } : {}),
    ...(ids.providerEventId ? { providerEventId: ids.providerEventId } : {}),
  };
}
