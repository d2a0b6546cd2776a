import { LockMode, UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import type { PaymentReport, ReportStatus } from '../../../contract/payment-reports.js';
import { CorrelationException, PaymentObservation, TrackedPayment } from '../../persistence/entities/index.js';
import type { AuthContext } from '../auth/auth-context.js';
import { DomainError } from '../errors.js';
import { correlationMismatches, resolveCorrelation, type CorrelationTarget } from './correlate.js';
import { normalizeReport, reportAliases, reportHash } from './normalize-report.js';
import { conflictIssues, establishedAliases, projectCurrent, type Fact, type ReportingProvider } from './payment-rules.js';
import { reportRuleIssues } from './report-rules.js';

export interface Acknowledgment {
  id: string;
  duplicate: boolean;
}

function factOf(provider: ReportingProvider, o: PaymentObservation): Fact {
  return {
    id: o.id,
    status: o.status as ReportStatus,
    currency: o.currency,
    amountMinor: o.amountMinor,
    capturedAmountMinor: o.capturedAmountMinor,
    refundedAmountMinor: o.refundedAmountMinor,
    occurredAt: o.occurredAt,
    receivedAt: o.receivedAt,
    ...reportAliases(provider, o.payload as unknown as PaymentReport),
  };
}

const conflictError = (message: string, issues: DomainError['issues']) => new DomainError('conflict', message, issues);

/**
 * Record one payment report: validate it, store it once as an immutable
 * observation and recompute its payment's projection in the same transaction.
 * Uniqueness of `eventId` is the database's; the payment row lock serialises
 * reports of one attempt so concurrent ones see each other.
 */
export async function recordPaymentReport(
  em: EntityManager,
  input: { ctx: AuthContext; provider: ReportingProvider; report: PaymentReport; requestId: string; now?: Date },
): Promise<Acknowledgment> {
  const { ctx, provider, report, requestId } = input;
  const now = input.now ?? new Date();
  const ruleIssues = reportRuleIssues(report, now);
  if (ruleIssues.length > 0) throw new DomainError('validation_error', 'The report is not consistent', ruleIssues);

  const normalized = normalizeReport(report);
  const hash = reportHash(normalized);
  const correlation = report.enrichmentRequestId ? await resolveCorrelation(em, ctx, report.enrichmentRequestId) : undefined;

  for (let attempt = 0; ; attempt++) {
    try {
      return await em.fork().transactional((tem) => storeReport(tem, { ...input, now, normalized, hash, correlation }));
    } catch (err) {
      // A concurrent writer stored the same eventId (or claimed the same alias) first: replay once, which now sees it.
      if (err instanceof UniqueConstraintViolationException && attempt === 0) continue;
      if (err instanceof UniqueConstraintViolationException) {
        throw conflictError('The report conflicts with one recorded concurrently', [
          { code: 'identity_conflict', path: 'eventId', message: 'Another report claimed the same identity at the same time' },
        ]);
      }
      throw err;
    }
  }
}

async function storeReport(
  tem: EntityManager,
  input: {
    ctx: AuthContext;
    provider: ReportingProvider;
    report: PaymentReport;
    requestId: string;
    now: Date;
    normalized: Record<string, unknown>;
    hash: string;
    correlation: CorrelationTarget | undefined;
  },
): Promise<Acknowledgment> {
  const { ctx, provider, report, now } = input;
  const scope = { integration: ctx.integrationId, environment: ctx.environment };

  await tem
    .createQueryBuilder(TrackedPayment)
    .insert({
      id: crypto.randomUUID(),
      organization: ctx.organizationId,
      ...scope,
      provider,
      attemptId: report.attemptId,
      observationCount: 0,
      createdAt: now,
      updatedAt: now,
    })
    .onConflict(['integration', 'environment', 'attemptId'])
    .ignore()
    .execute();
  const payment = await tem.findOneOrFail(TrackedPayment, { ...scope, attemptId: report.attemptId }, { lockMode: LockMode.PESSIMISTIC_WRITE });

  const previous = await tem.findOne(PaymentObservation, { organization: ctx.organizationId, ...scope, eventId: report.eventId });
  if (previous) {
    if (previous.payloadHash === input.hash) return { id: previous.id, duplicate: true };
    throw conflictError('This eventId was already used for a different report', [
      { code: 'event_id_reused', path: 'eventId', message: 'An eventId is reused only for identical retries; send a new eventId for a new observation' },
    ]);
  }

  const history = (await tem.find(PaymentObservation, { trackedPayment: payment })).map((o) => factOf(provider, o));
  const observationId = crypto.randomUUID();
  const incoming: Fact = {
    id: observationId,
    status: report.status,
    currency: report.currency,
    amountMinor: report.amountMinor,
    capturedAmountMinor: report.capturedAmountMinor,
    refundedAmountMinor: report.refundedAmountMinor,
    occurredAt: new Date(report.occurredAt),
    receivedAt: now,
    ...reportAliases(provider, report),
  };
  const conflicts = conflictIssues(provider, incoming, history);
  if (incoming.providerPaymentId !== null && payment.providerPaymentId === null) {
    const claimed = await tem.count(TrackedPayment, { ...scope, providerPaymentId: incoming.providerPaymentId, id: { $ne: payment.id } });
    if (claimed > 0) conflicts.push({ code: 'identity_conflict', path: 'providerPaymentId', message: 'This provider payment is already reported under another attemptId' });
  }
  if (conflicts.length > 0) throw conflictError('The report conflicts with what is recorded for this payment', conflicts);

  const observation = tem.create(PaymentObservation, {
    id: observationId,
    organization: ctx.organizationId,
    ...scope,
    provider,
    eventId: report.eventId,
    payloadHash: input.hash,
    payload: input.normalized,
    trackedPayment: payment,
    attemptId: report.attemptId,
    status: report.status,
    currency: report.currency,
    amountMinor: report.amountMinor,
    capturedAmountMinor: report.capturedAmountMinor,
    refundedAmountMinor: report.refundedAmountMinor,
    occurredAt: incoming.occurredAt,
    requestId: input.requestId,
    receivedAt: now,
  });

  const facts = [...history, incoming];
  const current = projectCurrent(facts)!;
  Object.assign(payment, {
    ...establishedAliases(facts),
    status: current.status,
    currency: current.currency,
    amountMinor: current.amountMinor,
    capturedAmountMinor: current.capturedAmountMinor,
    refundedAmountMinor: current.refundedAmountMinor,
    occurredAt: current.occurredAt,
    currentObservationId: current.id,
    enrichmentRequestId: payment.enrichmentRequestId ?? report.enrichmentRequestId ?? null,
    observationCount: facts.length,
    updatedAt: now,
  });

  if (input.correlation) {
    for (const mismatch of correlationMismatches(input.correlation, report)) {
      tem.create(CorrelationException, {
        organization: ctx.organizationId,
        ...scope,
        observation,
        enrichmentRequestId: input.correlation.enrichmentRequestId,
        ...mismatch,
        createdAt: now,
      });
    }
  }
  return { id: observation.id, duplicate: false };
}
