import type { Environment, Provider } from '../../../contract/common/index.js';
import type { TenantScope } from '../tenant-scope.js';

/** A merchant's report, or a provider delivery whose signature the service verified. */
export type ObservationEvidence = 'merchant_report' | 'provider_verified';

/** An accepted payment report as stored (table `payment_observations`), immutable. */
export interface StoredObservation {
  id: string;
  status: string;
  currency: string;
  amountMinor: number;
  capturedAmountMinor: number;
  refundedAmountMinor: number;
  occurredAt: Date;
  receivedAt: Date;
  payload: Record<string, unknown>;
  evidence: ObservationEvidence;
}

/** A stored observation with what the admin view of a payment shows of it. */
export interface PaymentObservation extends StoredObservation {
  eventId: string;
}

/** What the locking path of a report needs of the attempt's payment row. */
export interface LockedPayment {
  id: string;
  attemptId: string;
  attemptProvisional: boolean;
  providerPaymentId: string | null;
  enrichmentRequestId: string | null;
}

/** A payment's current-state projection (table `tracked_payments`). */
export interface TrackedPayment {
  id: string;
  organizationId: string;
  integrationId: string;
  environment: Environment;
  provider: Provider;
  attemptId: string;
  attemptProvisional: boolean;
  providerPaymentId: string | null;
  accountId: string | null;
  chargeId: string | null;
  orderId: string | null;
  status: string | null;
  currency: string | null;
  amountMinor: number | null;
  capturedAmountMinor: number | null;
  refundedAmountMinor: number | null;
  occurredAt: Date | null;
  currentObservationId: string | null;
  enrichmentRequestId: string | null;
  observationCount: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A payment that stands for itself (not merged into another), with whether its chain has a provider-verified capture. */
export interface PaymentChain extends TrackedPayment {
  verifiedCapture: boolean;
}

export type CorrelationKind = 'amount_mismatch' | 'currency_mismatch';

/** A report whose amount or currency differs from the enrichment it names. */
export interface CorrelationException {
  id: string;
  organizationId: string;
  integrationId: string;
  environment: Environment;
  observationId: string;
  enrichmentRequestId: string;
  kind: CorrelationKind;
  expected: string;
  observed: string;
  createdAt: Date;
}

/** A new observation to store. */
export interface ObservationInsert {
  id: string;
  provider: string;
  eventId: string;
  payloadHash: string;
  payload: Record<string, unknown>;
  paymentId: string;
  attemptId: string;
  status: string;
  currency: string;
  amountMinor: number;
  capturedAmountMinor: number;
  refundedAmountMinor: number;
  occurredAt: Date;
  requestId: string;
  receivedAt: Date;
  evidence: ObservationEvidence;
}

/** The projection columns a new observation recomputes. */
export interface ProjectionUpdate {
  providerPaymentId: string | null;
  accountId: string | null;
  chargeId: string | null;
  orderId: string | null;
  status: string;
  currency: string;
  amountMinor: number;
  capturedAmountMinor: number;
  refundedAmountMinor: number;
  occurredAt: Date;
  currentObservationId: string;
  enrichmentRequestId: string | null;
  observationCount: number;
  updatedAt: Date;
}

/** The first report of an attempt, or a retry of a stored eventId: the input of `recordFirstOrFindPrevious`. */
export interface FirstReport {
  scope: TenantScope;
  insert: boolean;
  paymentId: string;
  provider: string;
  attemptId: string;
  attemptProvisional: boolean;
  createdAt: Date;
  projection: ProjectionUpdate;
  observation: ObservationInsert;
}

/** An observation stored earlier under the same eventId: its id and the fingerprint of its report. */
export interface PreviousObservation {
  id: string;
  payloadHash: string;
}

export interface FirstOutcome {
  previous?: PreviousObservation;
  inserted: boolean;
}
