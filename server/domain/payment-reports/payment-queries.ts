import { DomainError } from '../errors.js';
import { decodeCursor, pageOf } from '../pagination.js';
import { isoTimestamp } from '../timestamps.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { PaymentReportStore } from './ports.js';
import type { CorrelationKind, PaymentChain } from './types.js';

type Storage = UnitOfWork<{ paymentReports: PaymentReportStore }>;

function paymentView(p: PaymentChain) {
  return {
    id: p.id,
    organizationId: p.organizationId,
    integrationId: p.integrationId,
    environment: p.environment,
    provider: p.provider,
    attemptId: p.attemptId,
    /** True while the payment is known only from provider evidence, under an attempt id the service made up. */
    attemptProvisional: p.attemptProvisional,
    providerPaymentId: p.providerPaymentId,
    accountId: p.accountId,
    chargeId: p.chargeId,
    orderId: p.orderId,
    status: p.status,
    currency: p.currency,
    amountMinor: p.amountMinor,
    capturedAmountMinor: p.capturedAmountMinor,
    refundedAmountMinor: p.refundedAmountMinor,
    occurredAt: isoTimestamp(p.occurredAt),
    currentObservationId: p.currentObservationId,
    enrichmentRequestId: p.enrichmentRequestId,
    observationCount: p.observationCount,
    /** A provider-verified capture among the observations of this payment and of those merged into it (docs/evidence.md). */
    verifiedCapture: p.verifiedCapture,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

const afterCursor = (cursor: string | undefined) => (cursor ? decodeCursor(cursor) : undefined);

export async function listPayments(storage: Storage, input: { integrationId?: string; status?: string; cursor?: string; limit: number }) {
  const rows = await storage.store.paymentReports.listTrackedPayments({
    integrationId: input.integrationId || undefined,
    status: input.status || undefined,
    after: afterCursor(input.cursor),
    limit: input.limit + 1,
  });
  const page = pageOf(rows, input.limit);
  return { payments: page.items.map(paymentView), nextCursor: page.nextCursor };
}

/** A payment's projection and its whole observation history, oldest observed first. */
export async function getPayment(storage: Storage, input: { id: string }) {
  const reports = storage.store.paymentReports;
  const payment = await reports.trackedPaymentById(input.id);
  if (!payment) throw new DomainError('not_found', `No payment ${input.id}`);
  // Observations of provisional payments merged into this one are its history too (docs/payment-reports.md, L6).
  const observations = await reports.observationHistoryOf(payment.id);
  return {
    payment: paymentView(payment),
    observations: observations.map((o) => ({
      id: o.id,
      eventId: o.eventId,
      status: o.status,
      currency: o.currency,
      amountMinor: o.amountMinor,
      capturedAmountMinor: o.capturedAmountMinor,
      refundedAmountMinor: o.refundedAmountMinor,
      occurredAt: o.occurredAt.toISOString(),
      receivedAt: o.receivedAt.toISOString(),
      current: o.id === payment.currentObservationId,
      /** `provider_verified` (a delivery whose signature the service verified) or `merchant_report`. */
      evidence: o.evidence,
      payload: o.payload,
    })),
  };
}

export async function listCorrelationExceptions(
  storage: Storage,
  input: { organizationId?: string; kind?: CorrelationKind; cursor?: string; limit: number },
) {
  const rows = await storage.store.paymentReports.listCorrelationExceptions({
    organizationId: input.organizationId || undefined,
    kind: input.kind || undefined,
    after: afterCursor(input.cursor),
    limit: input.limit + 1,
  });
  const page = pageOf(rows, input.limit);
  return {
    correlationExceptions: page.items.map((x) => ({
      id: x.id,
      organizationId: x.organizationId,
      integrationId: x.integrationId,
      environment: x.environment,
      observationId: x.observationId,
      enrichmentRequestId: x.enrichmentRequestId,
      kind: x.kind,
      expected: x.expected,
      observed: x.observed,
      createdAt: x.createdAt.toISOString(),
    })),
    nextCursor: page.nextCursor,
  };
}
