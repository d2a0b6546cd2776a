/**
 * gwa (card gateway A, Braintree): enrich → merge into the provider's own
 * request → report the outcome. Type-checked against @types/braintree.
 *
 * Where the enrichment goes (spec: endpoint 2):
 * - one-step sale: spread `data` into `gateway.transaction.sale(...)` beside the nonce;
 * - authorize, then capture: `data.amount` is the settlement amount and the other
 *   fields are the options of `submitForSettlement(id, amount, options)`.
 * Inline enrichment has no `preparation`; its `x-svc-request-id` is the
 * `enrichmentRequestId` of the reports. A service error never justifies
 * retrying the provider sale.
 */
import type braintree from 'braintree';
import {
  enrichmentRequestIdOf,
  gwaSettlementArgs,
  mergeGwaSale,
  newEventId,
  type CanonicalInvoice,
  type GwaPaymentReport,
  type GwaTransactionEnrichmentData,
  type SvcClient,
} from '../sdk/src/index.js';

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
  const status = gwaReportStatus(transaction.status);
  const amountMinor = input.invoice.totalAmountMinor;
  await deps.svc.gwa.reportPayment({
    body: {
      eventId: newEventId(),
      attemptId: input.attemptId,
      status,
      currency: 'usd',
      amountMinor,
      capturedAmountMinor: status === 'captured' ? amountMinor : 0,
      refundedAmountMinor: 0,
      occurredAt: new Date().toISOString(),
      source: 'api',
      transactionId: transaction.id,
      ...(status === 'failed' ? { errorCode: transaction.status } : {}),
      ...optional('enrichmentRequestId', enrichmentRequestIdOf(enriched)),
      invoiceReference: input.invoice.invoiceNumber,
    },
  });
  return transaction.id;
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
