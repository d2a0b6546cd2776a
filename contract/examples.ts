import type { CanonicalInvoice } from './canonical-invoice.js';
import type { GwaTransactionEnrichmentRequest, GwbOrderEnrichmentRequest, GwcPaymentIntentEnrichmentRequest } from './enrichment.js';
import type { CreateInvitationBody } from './ledger.js';
import type { PreparationRequest } from './preparations.js';
import type { GwaPaymentReport, GwbPaymentReport, GwcPaymentReport } from './payment-reports.js';

/**
 * One request example per operation that takes a body, keyed by the route's
 * `operationId`; `contract/openapi.ts` merges them into `openapi.json`. Every
 * example is a real, accepted request: test/openapi checks each against the
 * route's body schema and test/sdk sends each to a running server.
 */
export interface RequestExample {
  summary: string;
  value: unknown;
}

/** An open, fully unpaid USD invoice that all three providers can map (total 134.90). */
const exampleInvoice: CanonicalInvoice = {
  invoiceNumber: 'INV-1001',
  purchaseOrderReference: 'PO-7781',
  status: 'open',
  currency: 'usd',
  subtotalAmountMinor: 12000,
  taxAmountMinor: 990,
  shippingAmountMinor: 1500,
  discountAmountMinor: 1000,
  totalAmountMinor: 13490,
  balanceAmountMinor: 13490,
  issuedAt: '2026-01-02T00:00:00.000Z',
  dueAt: '2026-02-01T00:00:00.000Z',
  voidedAt: null,
  lineItems: [
    {
      sequence: 1,
      productName: 'Industrial widget, blue',
      description: 'Blue widget with stainless steel housing',
      productCode: 'WID-1',
      commodityCode: '43211503',
      quantity: '2',
      unitOfMeasure: 'EA',
      unitAmountMinor: 2500,
      subtotalAmountMinor: 5000,
      taxAmountMinor: 0,
      discountAmountMinor: 0,
      totalAmountMinor: 5000,
    },
    {
      sequence: 2,
      productName: 'Gadget',
      description: null,
      productCode: 'GAD-9',
      commodityCode: null,
      quantity: '1',
      unitOfMeasure: 'BOX',
      unitAmountMinor: 7000,
      subtotalAmountMinor: 7000,
      taxAmountMinor: 0,
      discountAmountMinor: 0,
      totalAmountMinor: 7000,
    },
  ],
};

const report = {
  eventId: 'evt_01J9Z3K7Q8W2',
  attemptId: 'att_01J9Z3K7Q8W2',
  status: 'captured',
  currency: 'usd',
  amountMinor: 13490,
  capturedAmountMinor: 13490,
  refundedAmountMinor: 0,
  occurredAt: '2026-01-10T10:00:00.000Z',
  enrichmentRequestId: 'req_4f9c2a7d0b1e4c3a8d6f5e2b1a0c9d8e',
  invoiceReference: 'INV-1001',
} as const;

const examplePreparation = {
  invoiceNumber: 'INV-1001',
  amountMinor: 13490,
  currency: 'usd',
  idempotencyKey: 'order-8841:prep:1',
} satisfies PreparationRequest;

export const requestExamples: Record<string, RequestExample> = {
  gwaEnrichTransactionFromInvoice: {
    summary: 'Prepare a gwa sale from an imported invoice selected by number',
    value: examplePreparation,
  },
  gwbEnrichOrderFromInvoice: {
    summary: 'Prepare a gwb order fragment from an imported invoice',
    value: { ledgerInvoiceId: '1001', amountMinor: 13490, currency: 'usd', idempotencyKey: 'order-8842:prep:1' },
  },
  gwcEnrichPaymentIntentFromInvoice: {
    summary: 'Prepare gwc PaymentIntent fields from an imported invoice, pinned to a reviewed revision',
    value: { ...examplePreparation, expectedRevision: 'r1', idempotencyKey: 'order-8843:prep:1' },
  },
  gwcPreparePaymentFromInvoice: {
    summary: 'Prepare a gwc payment (enhanced or ordinary) from an imported invoice',
    value: { ...examplePreparation, idempotencyKey: 'order-8844:prep:1' },
  },
  gwaEnrichTransaction: {
    summary: 'Enrich a gwa sale from an inline invoice',
    value: { invoice: exampleInvoice, options: { shipsFromPostalCode: '94107' } } satisfies GwaTransactionEnrichmentRequest,
  },
  gwbEnrichOrder: {
    summary: 'Build a gwb order fragment from an inline invoice',
    value: { invoice: exampleInvoice } satisfies GwbOrderEnrichmentRequest,
  },
  gwcEnrichPaymentIntent: {
    summary: 'Enrich a gwc PaymentIntent from an inline invoice',
    value: {
      invoice: exampleInvoice,
      options: { customerReference: 'CUST-42', shipping: { fromPostalCode: '94107', toPostalCode: '10001' } },
    } satisfies GwcPaymentIntentEnrichmentRequest,
  },
  gwaReportPayment: {
    summary: 'Report a settled gwa sale',
    value: { ...report, source: 'merchant_webhook', transactionId: 'k7x2m9pq' } satisfies GwaPaymentReport,
  },
  gwbReportPayment: {
    summary: 'Report a completed gwb payment',
    value: {
      ...report,
      source: 'api',
      paymentId: 'R2B3Z8WMVt3EAmzYWLZ15Iz0lMHZY',
      orderId: 'CAISENgvlJ6jLWAzERDzjyHVybY',
    } satisfies GwbPaymentReport,
  },
  gwcReportPayment: {
    summary: 'Report a succeeded gwc PaymentIntent',
    value: {
      ...report,
      source: 'sdk',
      paymentIntentId: 'pi_3OqX8c2eZvKYlo2C1a2b3c4d',
      chargeId: 'ch_3OqX8c2eZvKYlo2C1x2y3z4w',
    } satisfies GwcPaymentReport,
  },
  ledgerCreateInvitation: {
    summary: "Invite the merchant's accounting administrator to connect the accounting source",
    value: { recipientEmail: 'controller@merchant.example', expiresInHours: 48 } satisfies CreateInvitationBody,
  },
  ledgerQueueSync: {
    summary: 'Queue an incremental import (true requests a full reconciliation)',
    value: { fullReconciliation: false },
  },
};
