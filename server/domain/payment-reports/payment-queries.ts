import type { EntityManager } from '@mikro-orm/postgresql';
import type { ObservationEvidence } from '../../persistence/entities/payment-observation.entity.js';
import { CorrelationException, PaymentObservation, TrackedPayment } from '../../persistence/entities/index.js';
import { DomainError } from '../errors.js';
import { afterCursor, pageOf } from '../pagination.js';
import { isoTimestamp } from '../timestamps.js';

function paymentView(p: TrackedPayment) {
  return {
    id: p.id,
    organizationId: p.organization.id,
    integrationId: p.integration.id,
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
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export async function listPayments(em: EntityManager, input: { integrationId?: string; status?: string; cursor?: string; limit: number }) {
  const rows = await em.find(
    TrackedPayment,
    {
      ...(input.integrationId ? { integration: input.integrationId } : {}),
      ...(input.status ? { status: input.status } : {}),
      ...afterCursor(input.cursor),
      // A payment row exists from its first accepted observation on.
      observationCount: { $gt: 0 },
    },
    { orderBy: { createdAt: 'asc', id: 'asc' }, limit: input.limit + 1 },
  );
  const page = pageOf(rows, input.limit);
  return { payments: page.items.map(paymentView), nextCursor: page.nextCursor };
}

/** A payment's projection and its whole observation history, oldest observed first. */
export async function getPayment(em: EntityManager, input: { id: string }) {
  const payment = await em.findOne(TrackedPayment, { id: input.id, observationCount: { $gt: 0 } });
  if (!payment) throw new DomainError('not_found', `No payment ${input.id}`);
  // Observations of provisional payments merged into this one are its history too (docs/payment-reports.md, L6).
  const merged = await em.find(TrackedPayment, { mergedIntoId: payment.id }, { fields: ['id'] });
  const observations = await em.find(
    PaymentObservation,
    { trackedPayment: { $in: [payment.id, ...merged.map((m) => m.id)] } },
    { orderBy: { occurredAt: 'asc', receivedAt: 'asc', id: 'asc' } },
  );
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
      evidence: o.evidence as ObservationEvidence,
      payload: o.payload,
    })),
  };
}

export async function listCorrelationExceptions(
  em: EntityManager,
  input: { organizationId?: string; kind?: 'amount_mismatch' | 'currency_mismatch'; cursor?: string; limit: number },
) {
  const rows = await em.find(
    CorrelationException,
    {
      ...(input.organizationId ? { organization: input.organizationId } : {}),
      ...(input.kind ? { kind: input.kind } : {}),
      ...afterCursor(input.cursor),
    },
    { orderBy: { createdAt: 'asc', id: 'asc' }, limit: input.limit + 1 },
  );
  const page = pageOf(rows, input.limit);
  return {
    correlationExceptions: page.items.map((x) => ({
      id: x.id,
      organizationId: x.organization.id,
      integrationId: x.integration.id,
      environment: x.environment,
      observationId: x.observation.id,
      enrichmentRequestId: x.enrichmentRequestId,
      kind: x.kind,
      expected: x.expected,
      observed: x.observed,
      createdAt: x.createdAt.toISOString(),
    })),
    nextCursor: page.nextCursor,
  };
}
