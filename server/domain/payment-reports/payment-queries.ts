import type { EntityManager } from '@mikro-orm/postgresql';
import * as store from '../../persistence/sql/payment-reports.sql.js';
import { sqlOf } from '../../persistence/sql/sql.js';
import { DomainError } from '../errors.js';
import { decodeCursor, pageOf } from '../pagination.js';
import { isoTimestamp } from '../timestamps.js';
import type { CorrelationKind, PaymentChain } from './types.js';

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

export async function listPayments(em: EntityManager, input: { integrationId?: string; status?: string; cursor?: string; limit: number }) {
  const rows = await store.listTrackedPayments(sqlOf(em), {
    integrationId: input.integrationId || undefined,
    status: input.status || undefined,
    after: afterCursor(input.cursor),
    limit: input.limit + 1,
  });
  const page = pageOf(rows, input.limit);
  return { payments: page.items.map(paymentView), nextCursor: page.nextCursor };
}

/** A payment's projection and its whole observation history, oldest observed first. */
export async function getPayment(em: EntityManager, input: { id: string }) {
  const sql = sqlOf(em);
  const payment = await store.trackedPaymentById(sql, input.id);
  if (!payment) throw new DomainError('not_found', `No payment ${input.id}`);
  // Observations of provisional payments merged into this one are its history too (docs/payment-reports.md, L6).
  const observations = await store.observationHistoryOf(sql, payment.id);
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
  em: EntityManager,
  input: { organizationId?: string; kind?: CorrelationKind; cursor?: string; limit: number },
) {
  const rows = await store.listCorrelationExceptions(sqlOf(em), {
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
