import type { Position } from '../pagination.js';
import type { TenantScope } from '../tenant-scope.js';
import type {
  CorrelationException,
  CorrelationKind,
  FirstOutcome,
  FirstReport,
  LockedPayment,
  ObservationInsert,
  PaymentChain,
  PaymentObservation,
  PreviousObservation,
  ProjectionUpdate,
  StoredObservation,
  TrackedPayment,
} from './types.js';

/**
 * What payment reports and the payment views need from storage; server/persistence/stores/payment-report-store.ts
 * implements it. A write that a unique key refuses rejects with `KeyTaken` (domain/idempotency), never with the
 * database's own error.
 */
export interface PaymentReportStore {
  /** The observation stored under this eventId, if any. */
  findObservationByEvent(scope: TenantScope, eventId: string): Promise<PreviousObservation | undefined>;
  /** The attempt's payment, created on first sight, locked for the rest of the transaction. */
  lockPayment(
    scope: TenantScope,
    input: { provider: TrackedPayment['provider']; attemptId: string; attemptProvisional: boolean; now: Date },
  ): Promise<LockedPayment>;
  /** The payment a provider payment id is linked to, locked for the transaction. */
  lockPaymentByProviderId(scope: TenantScope, providerPaymentId: string): Promise<LockedPayment | undefined>;
  /** Give a provisional payment the merchant's attemptId unless another payment holds it; false when it did not. */
  adoptAttemptId(scope: TenantScope, paymentId: string, attemptId: string): Promise<boolean>;
  /** Every observation of a payment, those of the provisional payments merged into it included. */
  observationsOf(paymentId: string): Promise<StoredObservation[]>;
  /** A payment's whole observation history, oldest observed first. */
  observationHistoryOf(paymentId: string): Promise<PaymentObservation[]>;
  /** Merge a provisional payment into the merchant's payment; the survivor's enrichment request id after the merge. */
  mergeProvisional(provisionalId: string, intoId: string): Promise<string | null>;
  /** Whether another payment of the scope holds this provider payment id. */
  isPaymentIdClaimed(scope: TenantScope, providerPaymentId: string, exceptPaymentId: string): Promise<boolean>;
  insertObservation(scope: TenantScope, row: ObservationInsert): Promise<void>;
  updateProjection(paymentId: string, projection: ProjectionUpdate): Promise<void>;
  insertCorrelationException(
    scope: TenantScope,
    row: { observationId: string; enrichmentRequestId: string; kind: CorrelationKind; expected: string; observed: string; createdAt: Date },
  ): Promise<void>;
  /** The amount and currency an inline enrichment (`req_…`) of this integration and environment was for. */
  findEnrichmentRecord(input: {
    requestId: string;
    integrationId: string;
    environment: TenantScope['environment'];
  }): Promise<{ amountMinor: number; currency: string } | undefined>;
  /** A retry of a stored eventId or the first report of a new attempt, for several reports in one statement. */
  recordFirstOrFindPrevious(reports: FirstReport[]): Promise<FirstOutcome[]>;
  /** Payments (never one merged into another) in (createdAt, id) order after `after`, at most `limit`. */
  listTrackedPayments(input: {
    integrationId?: string | undefined;
    status?: string | undefined;
    after?: Position | undefined;
    limit: number;
  }): Promise<PaymentChain[]>;
  trackedPaymentById(id: string): Promise<PaymentChain | undefined>;
  listCorrelationExceptions(input: {
    organizationId?: string | undefined;
    kind?: CorrelationKind | undefined;
    after?: Position | undefined;
    limit: number;
  }): Promise<CorrelationException[]>;
}
