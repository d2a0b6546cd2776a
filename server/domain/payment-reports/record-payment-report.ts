import type { PaymentProvider } from '../../../contract/common/index.js';
import type { PaymentReport, ReportStatus } from '../../../contract/payment-reports.js';
import type { SavedPreparationStore } from '../preparations/ports.js';
import type { TenantScope } from '../tenant-scope.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { AuthContext } from '../auth/auth-context.js';
import { DomainError, refusalOf } from '../errors.js';
import { paymentReportMetrics } from '../../observability/business-metrics.js';
import { inSpan } from '../../observability/spans.js';
import { KeyTaken, replayOrConflict, retryOnConcurrentInsert, type KeyConflict } from '../idempotency/idempotent-write.js';
import { correlationMismatches, resolveCorrelation, type CorrelationTarget } from './correlate.js';
import { requestFingerprint } from '../idempotency/fingerprint.js';
import { normalizeReport, reportAliases } from './normalize-report.js';
import { conflictIssues, establishedAliases, projectCurrent, type Fact } from './payment-rules.js';
import type { PaymentReportStore } from './ports.js';
import { reportRuleIssues } from './report-rules.js';
import type {
  FirstOutcome,
  FirstReport,
  LockedPayment,
  ObservationEvidence,
  ObservationInsert,
  PreviousObservation,
  ProjectionUpdate,
  StoredObservation,
} from './types.js';

/** What recording a report reads and writes: its payments, and the preparations a report may name. */
export type ReportStores = { paymentReports: PaymentReportStore; preparations: SavedPreparationStore };

export interface Acknowledgment {
  id: string;
  duplicate: boolean;
}

interface Prepared {
  ctx: AuthContext;
  provider: PaymentProvider;
  report: PaymentReport;
  requestId: string;
  now: Date;
  normalized: Record<string, unknown>;
  hash: string;
  correlation: CorrelationTarget | undefined;
  evidence: ObservationEvidence;
  attemptProvisional: boolean;
}

/**
 * Where a report comes from. Omitted: the merchant's own report (endpoints 3, 7, 13). A verified provider delivery
 * says so; when the service knew no attempt for its provider payment, the report's attemptId is one the service
 * made up (`provisionalAttempt`), which the merchant's attemptId replaces once it reports the same provider payment.
 */
export interface ReportOrigin {
  evidence: 'provider_verified';
  provisionalAttempt: boolean;
}

/** A stored observation as a fact of the rules. */
export function factOf(provider: PaymentProvider, o: StoredObservation): Fact {
  return {
    id: o.id,
    status: o.status as ReportStatus,
    currency: o.currency,
    amountMinor: o.amountMinor,
    capturedAmountMinor: o.capturedAmountMinor,
    refundedAmountMinor: o.refundedAmountMinor,
    occurredAt: o.occurredAt,
    receivedAt: o.receivedAt,
    evidence: o.evidence,
    ...reportAliases(provider, o.payload as unknown as PaymentReport),
  };
}

const scopeOf = (ctx: AuthContext): TenantScope => ({
  organizationId: ctx.organizationId,
  integrationId: ctx.integrationId,
  environment: ctx.environment,
});

const EVENT_ID_REUSED: KeyConflict = {
  message: 'This eventId was already used for a different report',
  issue: {
    code: 'event_id_reused',
    path: 'eventId',
    message: 'An eventId is reused only for identical retries; send a new eventId for a new observation',
  },
};
const IDENTITY_RACE: KeyConflict = {
  message: 'The report conflicts with one recorded concurrently',
  issue: { code: 'identity_conflict', path: 'eventId', message: 'Another report claimed the same identity at the same time' },
};

/** An eventId seen before: the identical report is acknowledged again; any other payload is a 409. */
const replay = (previous: PreviousObservation, hash: string): Acknowledgment =>
  replayOrConflict({ fingerprint: previous.payloadHash }, hash, () => ({ id: previous.id, duplicate: true }), EVENT_ID_REUSED);

/** How the first-report-or-retry statement is sent: alone on the caller's connection, or group-committed. */
export type FirstWrite = (report: FirstReport) => Promise<FirstOutcome>;

const singleFirstWrite =
  (reports: PaymentReportStore): FirstWrite =>
  async (report) =>
    (await reports.recordFirstOrFindPrevious([report]))[0]!;

/**
 * Record one payment report: validate it, store it once as an immutable
 * observation and recompute its payment's projection in the same transaction.
 * Uniqueness of `eventId` is the database's; the payment row lock serialises
 * reports of one attempt so concurrent ones see each other.
 */
export async function recordPaymentReport(storage: UnitOfWork<ReportStores>, input: RecordInput): Promise<Acknowledgment> {
  // The one place a report's outcome is counted (docs/operations.md, svc_payment_reports_total).
  try {
    const ack = await inSpan('payment_report.record', recordReport, storage, input);
    paymentReportMetrics.accepted(input.provider, ack.duplicate);
    return ack;
  } catch (err) {
    // A concurrent insert the caller retries is counted by its retry, not here.
    if (!(input.retriedByCaller && err instanceof KeyTaken)) paymentReportMetrics.refused(input.provider, refusalOf(err));
    throw err;
  }
}

export type RecordInput = {
  ctx: AuthContext;
  provider: PaymentProvider;
  report: PaymentReport;
  requestId: string;
  now?: Date;
  firstWrite?: FirstWrite;
  /**
   * The caller's transaction isolates this report and runs again whole when it meets a concurrent insert: the first
   * write is sent in it without a savepoint, and a unique violation (`KeyTaken`), which aborts it, goes to the caller.
   */
  retriedByCaller?: boolean;
  origin?: ReportOrigin;
};

async function recordReport(storage: UnitOfWork<ReportStores>, input: RecordInput): Promise<Acknowledgment> {
  const prepared = await prepare(storage, input);
  if (input.retriedByCaller) {
    const quick = await replayOrStoreFirst(singleFirstWrite(storage.store.paymentReports), prepared);
    return quick ?? storage.transaction((store) => storeReport(store.paymentReports, prepared));
  }
  // A concurrent writer that stored the same eventId (or claimed the same alias) first makes the first attempt
  // fail on a unique constraint; the second attempt then sees its row and replays it.
  return retryOnConcurrentInsert(async (attempt) => {
    if (attempt === 0) {
      // Observations are immutable, so a retry is answered without a lock; a new attempt is stored in the same statement.
      const quick = input.firstWrite ? await replayOrStoreFirst(input.firstWrite, prepared) : await storeFirstAlone(storage, prepared);
      if (quick) return quick;
    }
    return storage.transaction((store) => storeReport(store.paymentReports, prepared));
  }, IDENTITY_RACE);
}

/** A report checked against its rules, normalized and fingerprinted, with the enrichment it names resolved. */
async function prepare(storage: UnitOfWork<ReportStores>, input: RecordInput): Promise<Prepared> {
  const now = input.now ?? new Date();
  const ruleIssues = reportRuleIssues(input.report, now);
  if (ruleIssues.length > 0) throw new DomainError('validation_error', 'The report is not consistent', ruleIssues);

  const normalized = normalizeReport(input.report);
  const correlation = input.report.enrichmentRequestId
    ? await resolveCorrelation(storage.store, input.ctx, input.report.enrichmentRequestId)
    : undefined;
  return {
    ...input,
    now,
    normalized,
    hash: requestFingerprint(normalized),
    correlation,
    evidence: input.origin?.evidence ?? 'merchant_report',
    attemptProvisional: input.origin?.provisionalAttempt ?? false,
  };
}

/**
 * A report as a new attempt's first payment and observation, for a caller that stores them in a statement of its own
 * (a provider delivery about a payment the service does not track yet, `recordDelivery`); built exactly as the
 * general path builds them. Undefined when the report needs the general path: it is refused by its rules or names an
 * enrichment that does not exist, or a mismatch with its enrichment is to be recorded. A caller whose statement stored
 * them counts the report with `countStoredFirst`; one that finds the attempt or the eventId taken records the report
 * with `recordPaymentReport` instead.
 */
export async function newAttemptFirstReport(storage: UnitOfWork<ReportStores>, input: RecordInput): Promise<FirstReport | undefined> {
  let prepared: Prepared;
  try {
    prepared = await prepare(storage, input);
  } catch (err) {
    if (err instanceof DomainError) return undefined;
    throw err;
  }
  const first = firstReportOf(prepared);
  return first.insert ? first : undefined;
}

/** A report `newAttemptFirstReport` built, stored by its caller: counted as `recordPaymentReport` counts it. */
export const countStoredFirst = (provider: PaymentProvider) => paymentReportMetrics.accepted(provider, false);

/**
 * The one-statement path without group commit (the callers that pass no `firstWrite`: a webhook delivery, inside its
 * transaction). It runs in a transaction of its own, which inside a caller's transaction is a savepoint, so a unique
 * violation it meets leaves that transaction usable for the locking path.
 */
function storeFirstAlone(storage: UnitOfWork<ReportStores>, input: Prepared): Promise<Acknowledgment | undefined> {
  return storage.transaction((store) => replayOrStoreFirst(singleFirstWrite(store.paymentReports), input));
}

function incomingFact(input: Prepared): Fact {
  const { report, provider } = input;
  return {
    id: crypto.randomUUID(),
    status: report.status,
    currency: report.currency,
    amountMinor: report.amountMinor,
    capturedAmountMinor: report.capturedAmountMinor,
    refundedAmountMinor: report.refundedAmountMinor,
    occurredAt: new Date(report.occurredAt),
    receivedAt: input.now,
    evidence: input.evidence,
    ...reportAliases(provider, report),
  };
}

function observationRow(input: Prepared, incoming: Fact, paymentId: string): ObservationInsert {
  const { report } = input;
  return {
    id: incoming.id,
    provider: input.provider,
    eventId: report.eventId,
    payloadHash: input.hash,
    payload: input.normalized,
    paymentId,
    attemptId: report.attemptId,
    status: report.status,
    currency: report.currency,
    amountMinor: report.amountMinor,
    capturedAmountMinor: report.capturedAmountMinor,
    refundedAmountMinor: report.refundedAmountMinor,
    occurredAt: incoming.occurredAt,
    requestId: input.requestId,
    receivedAt: input.now,
    evidence: input.evidence,
  };
}

/** The payment's projection from all its facts (docs/payment-reports.md, "Projection"). */
export function projectionOf(facts: Fact[], enrichmentRequestId: string | null, now: Date): ProjectionUpdate {
  const current = projectCurrent(facts)!;
  return {
    ...establishedAliases(facts),
    status: current.status,
    currency: current.currency,
    amountMinor: current.amountMinor,
    capturedAmountMinor: current.capturedAmountMinor,
    refundedAmountMinor: current.refundedAmountMinor,
    occurredAt: current.occurredAt,
    currentObservationId: current.id,
    enrichmentRequestId,
    observationCount: facts.length,
    updatedAt: now,
  };
}

/**
 * The two common cases in one statement: a retry of a known eventId, or the
 * first report of a new attempt with nothing to record as an exception.
 * Undefined when the attempt's history must be read under its lock.
 */
async function replayOrStoreFirst(write: FirstWrite, input: Prepared): Promise<Acknowledgment | undefined> {
  const first = firstReportOf(input);
  const outcome = await write(first);
  if (outcome.previous) return replay(outcome.previous, input.hash);
  return outcome.inserted ? { id: first.observation.id, duplicate: false } : undefined;
}

/** The report as a new attempt's payment with its projection and its first observation; `insert` false when a mismatch with its enrichment is to be recorded. */
function firstReportOf(input: Prepared): FirstReport {
  const incoming = incomingFact(input);
  const paymentId = crypto.randomUUID();
  return {
    scope: scopeOf(input.ctx),
    insert: !input.correlation || correlationMismatches(input.correlation, input.report).length === 0,
    paymentId,
    provider: input.provider,
    attemptId: input.report.attemptId,
    attemptProvisional: input.attemptProvisional,
    createdAt: input.now,
    projection: projectionOf([incoming], input.report.enrichmentRequestId ?? null, input.now),
    observation: observationRow(input, incoming, paymentId),
  };
}

/**
 * The payment a report belongs to, locked (docs/payment-reports.md, "Provider identity links"). A provider payment id
 * already linked to a payment decides it when the report's attempt id is provisional (provider evidence), or when
 * that payment's own attempt id is provisional: it takes the merchant's attemptId, or, when the merchant's attemptId
 * already names a payment without a provider id, is merged into that one. Otherwise the attemptId decides, and a
 * provider id linked elsewhere is a 409. Locks are taken provider payment first, then attempt, on every path.
 */
async function lockPaymentOf(store: PaymentReportStore, scope: TenantScope, input: Prepared): Promise<LockedPayment> {
  const { provider, report, now } = input;
  const providerPaymentId = reportAliases(provider, report).providerPaymentId;
  const linked = providerPaymentId === null ? undefined : await store.lockPaymentByProviderId(scope, providerPaymentId);
  if (linked) {
    if (linked.attemptId === report.attemptId || input.attemptProvisional) return linked;
    if (linked.attemptProvisional && (await store.adoptAttemptId(scope, linked.id, report.attemptId))) {
      return { ...linked, attemptId: report.attemptId, attemptProvisional: false };
    }
  }
  const own = await store.lockPayment(scope, {
    provider,
    attemptId: report.attemptId,
    attemptProvisional: input.attemptProvisional,
    now,
  });
  if (linked?.attemptProvisional && own.id !== linked.id && own.providerPaymentId === null) {
    return { ...own, enrichmentRequestId: await store.mergeProvisional(linked.id, own.id) };
  }
  return own;
}

async function storeReport(store: PaymentReportStore, input: Prepared): Promise<Acknowledgment> {
  const { ctx, provider, report, now } = input;
  const scope = scopeOf(ctx);
  const payment = await lockPaymentOf(store, scope, input);

  const previous = await store.findObservationByEvent(scope, report.eventId);
  if (previous) return replay(previous, input.hash);

  const history = (await store.observationsOf(payment.id)).map((o) => factOf(provider, o));
  const incoming = incomingFact(input);
  const conflicts = conflictIssues(provider, incoming, history);
  if (incoming.providerPaymentId !== null && payment.providerPaymentId === null) {
    if (await store.isPaymentIdClaimed(scope, incoming.providerPaymentId, payment.id)) {
      conflicts.push({
        code: 'identity_conflict',
        path: 'providerPaymentId',
        message: 'This provider payment is already reported under another attemptId',
      });
    }
  }
  if (conflicts.length > 0) throw new DomainError('conflict', 'The report conflicts with what is recorded for this payment', conflicts);

  await store.insertObservation(scope, observationRow(input, incoming, payment.id));
  const facts = [...history, incoming];
  await store.updateProjection(payment.id, projectionOf(facts, payment.enrichmentRequestId ?? report.enrichmentRequestId ?? null, now));

  if (input.correlation) {
    for (const mismatch of correlationMismatches(input.correlation, report)) {
      await store.insertCorrelationException(scope, {
        observationId: incoming.id,
        enrichmentRequestId: input.correlation.enrichmentRequestId,
        ...mismatch,
        createdAt: now,
      });
    }
  }
  return { id: incoming.id, duplicate: false };
}
