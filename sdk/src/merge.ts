import type { GwaTransactionEnrichmentData, GwbOrderEnrichmentData, GwcPaymentIntentEnrichmentData } from '../../contract/enrichment.js';
import type { GwcPaymentPreparationData, PreparationRecord } from '../../contract/preparations.js';

/*
 * Where enrichment goes in each provider's own request (spec: endpoints 2, 5,
 * 10-12). `data` is merged; a `preparation` object never is: store its `id` with
 * the payment attempt and report it as `enrichmentRequestId`.
 */

/**
 * gwa sale: spread `data` into the sale request, beside the payment-method nonce.
 * Every key of `data` is one the provider's sale call accepts.
 */
export function mergeGwaSale<Sale extends object>(sale: Sale, data: GwaTransactionEnrichmentData): Sale & GwaTransactionEnrichmentData {
  return { ...sale, ...data };
}

/**
 * gwa authorize-then-capture: `data.amount` is the settlement amount and the
 * other fields are the submit-for-settlement options:
 * `gateway.transaction.submitForSettlement(id, amount, options)`.
 */
export function gwaSettlementArgs(data: GwaTransactionEnrichmentData): {
  amount: string;
  options: Omit<GwaTransactionEnrichmentData, 'amount'>;
} {
  const { amount, ...options } = data;
  return { amount, options };
}

/**
 * gwb: merge the order fragment into your create-order `order` (you add
 * `location_id`, customer and so on). The fragment's line items, taxes, discounts
 * and service charges replace yours, because its totals must equal the payment;
 * metadata entries are combined.
 */
export function mergeGwbOrder<Order extends object>(
  order: Order,
  data: GwbOrderEnrichmentData,
): Omit<Order, keyof GwbOrderEnrichmentData> & GwbOrderEnrichmentData {
  const existing = (order as { metadata?: Record<string, string> | null }).metadata;
  return { ...order, ...data, metadata: { ...(existing ?? {}), ...data.metadata } };
}

/**
 * gwc: merge `payment_details` over your existing payment details and set
 * `amount_details` on the PaymentIntent create, update, confirm or capture call,
 * whose `amount` must be the invoice total.
 */
export function mergeGwcPaymentIntent<Params extends object>(
  params: Params,
  data: GwcPaymentIntentEnrichmentData,
): Omit<Params, 'payment_details' | 'amount_details'> & GwcPaymentIntentEnrichmentData {
  const current = (params as { payment_details?: unknown }).payment_details;
  const existing = typeof current === 'object' && current !== null ? current : {};
  return {
    ...params,
    payment_details: { ...existing, ...data.payment_details },
    amount_details: data.amount_details,
  };
}

/**
 * gwc payment preparation (endpoint 12), with the spec's caller rules: the amount
 * and currency are the preparation's, unchanged; `metadata.svc_preparation_id` is
 * the preparation's id in both modes; when `enhanced`, the enrichment is merged
 * (payment details over yours); when `ordinary`, `amount_details` and
 * `payment_details` are left out entirely. Branch on nothing else. Your own
 * idempotency key and account routing stay as they are.
 */
export function mergeGwcPreparation<Params extends object>(
  params: Params,
  prepared: { data: GwcPaymentPreparationData; preparation: PreparationRecord },
): Omit<Params, 'payment_details' | 'amount_details' | 'amount' | 'currency' | 'metadata'> & {
  amount: number;
  currency: string;
  metadata: Record<string, string>;
} & Partial<GwcPaymentIntentEnrichmentData> {
  const existing = (params as { metadata?: Record<string, string> | null }).metadata;
  const withPreparation = {
    ...params,
    amount: prepared.preparation.amountMinor,
    currency: prepared.preparation.currency,
    metadata: { ...(existing ?? {}), svc_preparation_id: prepared.preparation.id },
  };
  if (prepared.data.mode === 'enhanced' && prepared.data.enrichment !== null) {
    return mergeGwcPaymentIntent(withPreparation, prepared.data.enrichment) as never;
  }
  const {
    payment_details: _details,
    amount_details: _amounts,
    ...ordinary
  } = withPreparation as typeof withPreparation & {
    payment_details?: unknown;
    amount_details?: unknown;
  };
  return ordinary as never;
}

/**
 * The `enrichmentRequestId` to store with a payment attempt and send with its
 * reports: a saved preparation's `preparation.id` when the response has one
 * (invoice-backed), else the response's `x-svc-request-id` (inline enrichment).
 */
export function enrichmentRequestIdOf(response: { body: unknown; requestId: string | null }): string | undefined {
  const body = response.body as { preparation?: { id?: unknown } } | null | undefined;
  if (body && typeof body === 'object' && typeof body.preparation?.id === 'string') return body.preparation.id;
  return response.requestId ?? undefined;
}
