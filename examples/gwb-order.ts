/**
 * gwb (payments provider B, Square): enrich → merge into the provider's own
 * create-order request → pay the order → report the outcome.
 *
 * Where the enrichment goes (spec: endpoint 5): `data` is an order fragment
 * (reference_id, line_items, taxes, discounts, service_charges, metadata)
 * merged into your `order`; you add `location_id` and your idempotency key.
 * The provider computes the order total, and the payment must equal it.
 *
 * Invoice-backed (endpoint 6, `payInvoiceWithGwbFromInvoice`): the same `data`
 * plus a saved `preparation`; store `preparation.id` with the attempt and report
 * it as `enrichmentRequestId`, never merge it.
 *
 * The provider's official package (`square`) is not a dependency of this
 * repository, so the request types below are local, limited to the fields used
 * (docs/provider-facts.md §2.1); the merged fragment is checked against them.
 */
import {
  enrichmentRequestIdOf,
  mergeGwbOrder,
  newEventId,
  type CanonicalInvoice,
  type GwbOrderEnrichmentData,
  type GwbPaymentReport,
  type SvcClient,
} from '../sdk/src/index.js';

interface Money {
  amount: number | bigint;
  currency: string;
}
/** The parts of the provider's Order this flow sends. */
export interface GwbOrder {
  location_id: string;
  reference_id?: string;
  customer_id?: string;
  line_items?: {
    uid?: string;
    name?: string;
    quantity: string;
    base_price_money?: Money;
    applied_taxes?: { tax_uid: string }[];
    applied_discounts?: { discount_uid: string }[];
  }[];
  taxes?: { uid?: string; name?: string; type?: 'ADDITIVE' | 'INCLUSIVE'; percentage?: string; scope?: 'ORDER' | 'LINE_ITEM' }[];
  discounts?: {
    uid?: string;
    name?: string;
    type?: 'FIXED_AMOUNT' | 'FIXED_PERCENTAGE';
    amount_money?: Money;
    scope?: 'ORDER' | 'LINE_ITEM';
  }[];
  service_charges?: {
    uid?: string;
    name?: string;
    amount_money?: Money;
    calculation_phase?: 'SUBTOTAL_PHASE' | 'TOTAL_PHASE';
    taxable?: boolean;
  }[];
  metadata?: Record<string, string>;
}
export interface GwbApi {
  createOrder(request: { order: GwbOrder; idempotency_key: string }): Promise<{ order: { id: string; total_money: Money } }>;
  createPayment(request: {
    source_id: string;
    idempotency_key: string;
    amount_money: Money;
    order_id: string;
    location_id: string;
  }): Promise<{ payment: GwbPayment }>;
}

/** The parts of the provider's Payment this flow reads; `refunded_money` is the cumulative refunded amount. */
export interface GwbPayment {
  id: string;
  status: 'APPROVED' | 'PENDING' | 'COMPLETED' | 'CANCELED' | 'FAILED';
  order_id: string;
  refunded_money?: Money;
}

/** Compile-time check that the fragment fits the order type. */
const fitsOrder = (data: GwbOrderEnrichmentData): Omit<GwbOrder, 'location_id'> => data;

/**
 * gwb report status and cumulative refund of a payment (spec: Provider state normalization, gwb): COMPLETED is
 * captured, partially_refunded or refunded according to the cumulative refunded money against the captured amount.
 */
export function gwbReportStatus(
  payment: Pick<GwbPayment, 'status' | 'refunded_money'>,
  capturedMinor: number,
): { status: GwbPaymentReport['status']; refundedAmountMinor: number } {
  if (payment.status !== 'COMPLETED') {
    const status = ({ APPROVED: 'authorized', CANCELED: 'canceled', FAILED: 'failed', PENDING: 'unknown' } as const)[payment.status];
    return { status, refundedAmountMinor: 0 };
  }
  const refunded = Number(payment.refunded_money?.amount ?? 0);
  const status = refunded === 0 ? 'captured' : refunded < capturedMinor ? 'partially_refunded' : 'refunded';
  return { status, refundedAmountMinor: refunded };
}

/** An imported invoice the customer pays in full, as looked up with `svc.invoices.list` / `svc.invoices.get`. */
export interface InvoiceToPay {
  invoiceId: string;
  amountMinor: number;
  currency: string;
  /** The revision reviewed at lookup: a changed invoice is refused (409) instead of prepared. */
  revision?: string;
}

/** Where the merchant keeps its payment attempts; the preparation id is saved before the provider calls. */
export interface PaymentAttempts {
  save(attempt: { attemptId: string; idempotencyKey: string; preparationId: string }): Promise<void>;
}

/**
 * Pay an imported invoice (endpoint 6). The idempotency key is derived from the
 * attempt and persisted with it, so a retry (same key, same body) returns the
 * same preparation; keys must not hold long digit runs (read as card data).
 */
export async function payInvoiceWithGwbFromInvoice(
  deps: { svc: SvcClient; api: GwbApi; attempts: PaymentAttempts },
  input: { invoice: InvoiceToPay; sourceId: string; locationId: string; attemptId: string },
): Promise<string> {
  // 1. Prepare from the invoice.
  const idempotencyKey = `prep-${input.attemptId}`;
  const prepared = await deps.svc.gwb.enrichOrderFromInvoice({
    body: {
      invoiceId: input.invoice.invoiceId,
      amountMinor: input.invoice.amountMinor,
      currency: input.invoice.currency,
      idempotencyKey,
      ...(input.invoice.revision ? { expectedRevision: input.invoice.revision } : {}),
    },
  });
  const { data, preparation } = prepared.body;
  fitsOrder(data);
  await deps.attempts.save({ attemptId: input.attemptId, idempotencyKey, preparationId: preparation.id });

  // 2-3. Merge `data` (never `preparation`) into your own order, pay exactly the order total, and report with the
  // preparation id as `enrichmentRequestId`.
  return payAndReportGwbOrder(deps, input, data, preparation.id);
}

export async function payInvoiceWithGwb(
  deps: { svc: SvcClient; api: GwbApi },
  input: { invoice: CanonicalInvoice; sourceId: string; locationId: string; attemptId: string },
): Promise<string> {
  // 1. Enrich.
  const enriched = await deps.svc.gwb.enrichOrder({ body: { invoice: input.invoice } });
  fitsOrder(enriched.body.data);

  // 2-3. Merge the fragment into your own order, pay exactly the order total, and report.
  return payAndReportGwbOrder(deps, input, enriched.body.data, enrichmentRequestIdOf(enriched));
}

/** Merge the fragment into your own order, pay exactly the order total, and report the outcome. */
async function payAndReportGwbOrder(
  deps: { svc: SvcClient; api: GwbApi },
  input: { sourceId: string; locationId: string; attemptId: string },
  data: GwbOrderEnrichmentData,
  enrichmentRequestId: string | undefined,
): Promise<string> {
  const order: GwbOrder = mergeGwbOrder({ location_id: input.locationId, metadata: { attempt: input.attemptId } }, data);
  const created = await deps.api.createOrder({ order, idempotency_key: `order-${input.attemptId}` });
  const { payment } = await deps.api.createPayment({
    source_id: input.sourceId,
    idempotency_key: `pay-${input.attemptId}`,
    amount_money: created.order.total_money,
    order_id: created.order.id,
    location_id: input.locationId,
  });
  await reportGwbPayment(deps.svc, {
    attemptId: input.attemptId,
    locationId: input.locationId,
    order: created.order,
    payment,
    enrichmentRequestId,
  });
  return payment.id;
}

/** Report a payment's observed outcome; the SDK retries it safely (it carries an eventId). */
async function reportGwbPayment(
  svc: SvcClient,
  o: {
    attemptId: string;
    locationId: string;
    order: Awaited<ReturnType<GwbApi['createOrder']>>['order'];
    payment: Awaited<ReturnType<GwbApi['createPayment']>>['payment'];
    enrichmentRequestId: string | undefined;
  },
): Promise<void> {
  const amountMinor = Number(o.order.total_money.amount);
  const captured = o.payment.status === 'COMPLETED' ? amountMinor : 0;
  const { status, refundedAmountMinor } = gwbReportStatus(o.payment, captured);
  await svc.gwb.reportPayment({
    body: {
      eventId: newEventId(),
      attemptId: o.attemptId,
      status,
      currency: o.order.total_money.currency.toLowerCase(),
      amountMinor,
      capturedAmountMinor: captured,
      refundedAmountMinor,
      occurredAt: new Date().toISOString(),
      source: 'api',
      paymentId: o.payment.id,
      orderId: o.order.id,
      locationId: o.locationId,
      ...(o.enrichmentRequestId ? { enrichmentRequestId: o.enrichmentRequestId } : {}),
    },
  });
}
