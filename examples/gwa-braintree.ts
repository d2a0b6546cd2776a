/**
 * gwa (card gateway A, Braintree): enrich → merge into the provider's own
 * request → report the outcome. Type-checked against @types/braintree.
 *
 * Where the enrichment goes (spec: endpoint 2):
 * - one-step sale: spread `data` into `gateway.transaction.sale(...)` beside the nonce;
 * - authorize, then capture: `data.amount` is the settlement amount and the other
 *   fields are the options of `submitForSettlement(id, amount, options)`.
 * Inline enrichment has no `preparation`; its `x-svc-request-id` is the
 * `enrichmentRequestId` of the reports. Invoice-backed preparation (endpoint 1,
 * `payInvoiceWithGwaSaleFromInvoice`) answers the same `data` plus a saved
 * `preparation`: store `preparation.id` with the attempt and report it as
 * `enrichmentRequestId`; never merge `preparation`. A service error never
 * justifies retrying the provider sale.
 *
 * An invoice with a gap in PO, SKU or unit is paid as an ordinary sale instead of
 * being blocked (spec: Preparation mode): the invoice list and detail show
 * `checkoutMode: 'ordinary'` with the gaps as `issues`, and endpoint 1 answers 422
 * with those gwa codes (`isGwaOrdinaryFallback`). The sale then carries the full
 * amount and no enhanced fields, and its report has no `enrichmentRequestId`.
 */
import type braintree from 'braintree';
import {
  enrichmentRequestIdOf,
  gwaSettlementArgs,
  isGwaOrdinaryFallback,
  mergeGwaSale,
  newEventId,
  type CanonicalInvoice,
  type GwaPaymentReport,
  type GwaTransactionEnrichmentData,
  type SvcClient,
} from '../sdk/src/index.js';

/** An imported invoice the customer pays in full, as looked up with `svc.invoices.list` / `svc.invoices.get`. */
export interface InvoiceToPay {
  invoiceId: string;
  amountMinor: number;
  /** The revision reviewed at lookup: a changed invoice is refused (409) instead of prepared. */
  revision?: string;
}

/** Where the merchant keeps its payment attempts; the preparation id (null for an ordinary sale) is saved before the provider call. */
export interface PaymentAttempts {
  save(attempt: { attemptId: string; idempotencyKey: string; preparationId: string | null }): Promise<void>;
}

/**
 * The SDK's transaction_gateway.js takes `submitForSettlement(id, amount, options)`
 * with the Level 2/3 keys as options (docs/provider-facts.md §1.1); @types/braintree 3.4.4
 * declares only `(id, amount?)`, so this names the real signature, with option
 * types taken from the official TransactionRequest.
 */
export type SettlementOptions = Pick<
  braintree.TransactionRequest,
  'orderId' | 'purchaseOrderNumber' | 'taxAmount' | 'discountAmount' | 'shippingAmount' | 'shipsFromPostalCode' | 'lineItems'
>;
export interface GwaTransactions {
  sale: braintree.TransactionGateway['sale'];
  submitForSettlement(
    transactionId: string,
    amount: string,
    options: SettlementOptions,
  ): Promise<braintree.ValidatedResponse<braintree.Transaction>>;
}

/** gwa report status from a provider transaction status (spec: Provider state normalization, gwa). */
export function gwaReportStatus(status: braintree.TransactionStatus): GwaPaymentReport['status'] {
  switch (status) {
    case 'authorized':
      return 'authorized';
    case 'submitted_for_settlement':
    case 'settling':
    case 'settlement_pending':
    case 'settled':
    case 'settlement_confirmed':
      return 'captured';
    case 'voided':
      return 'canceled';
    case 'processor_declined':
    case 'gateway_rejected':
    case 'settlement_declined':
    case 'failed':
      return 'failed';
    default:
      return 'unknown';
  }
}

/** One-step sale of an invoice. Returns the provider transaction id, or null when the gateway created none. */
export async function payInvoiceWithGwaSale(
  deps: { svc: SvcClient; transactions: GwaTransactions },
  input: { invoice: CanonicalInvoice; paymentMethodNonce: string; attemptId: string },
): Promise<string | null> {
  // 1. Enrich. Not retried implicitly: each call records a new correlation.
  const enriched = await deps.svc.gwa.enrichTransaction({ body: { invoice: input.invoice } });

  // 2. Merge: `data` spread beside the nonce; every key is one the sale call accepts.
  const sale: braintree.TransactionRequest = mergeGwaSale(
    { paymentMethodNonce: input.paymentMethodNonce, options: { submitForSettlement: true } },
    enriched.body.data,
  );
  const result = await deps.transactions.sale(sale);
  const transaction = result.transaction;
  if (!transaction) return null; // validation errors: no attempt exists at the provider, nothing to report

  // 3. Report the observed outcome (retried safely by the SDK: it carries an eventId).
  await reportGwaSale(deps.svc, {
    attemptId: input.attemptId,
    transaction,
    amountMinor: input.invoice.totalAmountMinor,
    currency: 'usd',
    enrichmentRequestId: enrichmentRequestIdOf(enriched),
    invoiceReference: input.invoice.invoiceNumber,
  });
  return transaction.id;
}

/**
 * One-step sale of an imported invoice (endpoint 1). The idempotency key is
 * derived from the attempt and persisted with it, so a retry of this request
 * (same key, same body) returns the same preparation. Keys must not hold long
 * digit runs: the service refuses anything that looks like card data.
 */
export async function payInvoiceWithGwaSaleFromInvoice(
  deps: { svc: SvcClient; transactions: GwaTransactions; attempts: PaymentAttempts },
  input: { invoice: InvoiceToPay; paymentMethodNonce: string; attemptId: string },
): Promise<string | null> {
  // 1. Prepare from the invoice; `preparation` is evidence, never merged.
  const idempotencyKey = `prep-${input.attemptId}`;
  const prepared = await deps.svc.gwa
    .enrichTransactionFromInvoice({
      body: {
        invoiceId: input.invoice.invoiceId,
        amountMinor: input.invoice.amountMinor,
        currency: 'usd',
        idempotencyKey,
        ...optional('expectedRevision', input.invoice.revision),
      },
    })
    .catch((err: unknown) => {
      // Only gaps in PO, SKU or unit: the payment is downgraded to ordinary, not blocked. Anything else stays an error.
      if (isGwaOrdinaryFallback(err)) return null;
      throw err;
    });
  if (prepared === null) return payInvoiceWithOrdinaryGwaSale(deps, { ...input, idempotencyKey });
  const { data, preparation } = prepared.body;
  await deps.attempts.save({ attemptId: input.attemptId, idempotencyKey, preparationId: preparation.id });

  // 2. Merge `data` beside the nonce, exactly as for inline enrichment.
  const sale: braintree.TransactionRequest = mergeGwaSale(
    { paymentMethodNonce: input.paymentMethodNonce, options: { submitForSettlement: true } },
    data,
  );
  const result = await deps.transactions.sale(sale);
  const transaction = result.transaction;
  if (!transaction) return null;

  // 3. Report with the preparation id as `enrichmentRequestId`.
  await reportGwaSale(deps.svc, {
    attemptId: input.attemptId,
    transaction,
    amountMinor: preparation.amountMinor,
    currency: preparation.currency,
    enrichmentRequestId: preparation.id,
    invoiceReference: data.orderId,
  });
  return transaction.id;
}

/** The ordinary sale of an invoice gwa cannot enhance: the full amount, no Level 2/3 fields, a report without correlation. */
async function payInvoiceWithOrdinaryGwaSale(
  deps: { svc: SvcClient; transactions: GwaTransactions; attempts: PaymentAttempts },
  input: { invoice: InvoiceToPay; paymentMethodNonce: string; attemptId: string; idempotencyKey: string },
): Promise<string | null> {
  await deps.attempts.save({ attemptId: input.attemptId, idempotencyKey: input.idempotencyKey, preparationId: null });
  const result = await deps.transactions.sale({
    paymentMethodNonce: input.paymentMethodNonce,
    amount: decimalOfMinor(input.invoice.amountMinor),
    options: { submitForSettlement: true },
  });
  const transaction = result.transaction;
  if (!transaction) return null;
  await reportGwaSale(deps.svc, {
    attemptId: input.attemptId,
    transaction,
    amountMinor: input.invoice.amountMinor,
    currency: 'usd',
    enrichmentRequestId: undefined,
    invoiceReference: input.invoice.invoiceId,
  });
  return transaction.id;
}

/** Minor units (cents) as the gateway's decimal string, exactly: `12345` → `"123.45"` (never through floating point). */
function decimalOfMinor(minor: number): string {
  const digits = String(minor).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** Authorize-then-capture: capture an authorized transaction with the invoice's Level 2/3 data. */
export async function captureWithGwa(
  deps: { transactions: GwaTransactions },
  transactionId: string,
  data: GwaTransactionEnrichmentData,
): Promise<braintree.TransactionStatus | undefined> {
  const { amount, options } = gwaSettlementArgs(data);
  const result = await deps.transactions.submitForSettlement(transactionId, amount, options);
  return result.transaction?.status;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** Report a sale's observed outcome; the SDK retries it safely (it carries an eventId). */
async function reportGwaSale(
  svc: SvcClient,
  o: {
    attemptId: string;
    transaction: braintree.Transaction;
    amountMinor: number;
    currency: string;
    enrichmentRequestId: string | undefined;
    invoiceReference: string;
  },
): Promise<void> {
  const status = gwaReportStatus(o.transaction.status);
  await svc.gwa.reportPayment({
    body: {
      eventId: newEventId(),
      attemptId: o.attemptId,
      status,
      currency: o.currency,
      amountMinor: o.amountMinor,
      capturedAmountMinor: status === 'captured' ? o.amountMinor : 0,
      refundedAmountMinor: 0,
      occurredAt: new Date().toISOString(),
      source: 'api',
      transactionId: o.transaction.id,
      ...(status === 'failed' ? { errorCode: o.transaction.status } : {}),
      ...optional('enrichmentRequestId', o.enrichmentRequestId),
      invoiceReference: o.invoiceReference,
    },
  });
}
