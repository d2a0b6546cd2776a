import type { Environment, Provider } from '../../../contract/common/index.js';
import type { FirstReport } from '../payment-reports/types.js';
import type { TenantScope } from '../tenant-scope.js';

export type EndpointStatus = 'active' | 'disabled';

/** A provider webhook endpoint (table `webhook_endpoints`) with its integration's provider. */
export interface WebhookEndpoint {
  id: string;
  organizationId: string;
  integrationId: string;
  environment: Environment;
  provider: Provider;
  status: EndpointStatus;
  publicKey: string | null;
  privateKeyEnc: string | null;
  previousPublicKey: string | null;
  previousPrivateKeyEnc: string | null;
  previousValidUntil: Date | null;
  credentialsUpdatedAt: Date | null;
  disabledAt: Date | null;
  createdAt: Date;
}

/** An endpoint with what a delivery needs to decide: its tenant, state, key material and its integration's state. */
export interface DeliveryEndpoint {
  id: string;
  organizationId: string;
  integrationId: string;
  environment: Environment;
  status: EndpointStatus;
  publicKey: string | null;
  privateKeyEnc: string | null;
  previousPublicKey: string | null;
  previousPrivateKeyEnc: string | null;
  previousValidUntil: Date | null;
  organizationStatus: string;
  integrationProvider: Provider;
  integrationEnvironment: Environment;
}

/** The integration an endpoint is registered for. */
export interface EndpointIntegration {
  id: string;
  organizationId: string;
  provider: Provider;
  environment: Environment;
}

/** A delivery's row to claim (table `webhook_events`). */
/** What recording a delivery at once did: recorded its outcome, found its identity taken, or wrote nothing (the general path). */
export type AtOnceOutcome = 'recorded' | 'duplicate' | 'general';

/** A delivery as recorded at once: its row with its outcome `status`, and its first report (null without one). */
export interface AtOnceDelivery {
  scope: TenantScope;
  event: EventInsert & { status: string };
  providerPaymentId: string | null;
  first: FirstReport | null;
}

/** How deliveries are recorded at once: alone, or group-committed with concurrent ones. */
export type AtOnceWrite = (delivery: AtOnceDelivery) => Promise<AtOnceOutcome>;

export interface EventInsert {
  id: string;
  endpointId: string;
  kind: string;
  notificationAt: Date;
  subjectType: string;
  subjectId: string;
  providerEventId: string | null;
  subject: Record<string, unknown>;
  requestId: string;
  createdAt: Date;
}

/** A recorded delivery, as the admin list shows it. */
export interface WebhookEvent {
  id: string;
  endpointId: string;
  organizationId: string;
  integrationId: string;
  environment: Environment;
  kind: string;
  notificationAt: Date;
  subjectType: string;
  subjectId: string;
  status: string;
  /** The verified subject as the provider sent it. */
  subject: Record<string, unknown>;
  /** Why the delivery was refused or ignored (the envelope's issues), `null` when it was recorded. */
  issues: Record<string, unknown>[] | null;
  observationId: string | null;
  trackedPaymentId: string | null;
  createdAt: Date;
}

/** The tracked payment a provider payment id is linked to, as a delivery's effect reads it. */
export interface LinkedPayment {
  id: string;
  attemptId: string;
  currency: string | null;
  capturedAmountMinor: number | null;
  refundedAmountMinor: number | null;
  enrichmentRequestId: string | null;
}

/** What an operator reviews when a confirmation is missing: what the endpoint received, and its last refusal. */
export interface DeliveryStatus {
  /** The last recorded delivery and its outcome (the acknowledgment status). */
  lastDelivery: { at: string; kind: string; status: string } | null;
  /** Recorded deliveries by acknowledgment status. */
  counts: Record<string, number>;
  /** Every kind (event type) the endpoint has recorded at least once. */
  kinds: string[];
  lastRefusal: { at: string; code: string; message: string } | null;
}

/**
 * What lacks a provider-verified capture (docs/gwc-events.md, "Missing confirmations"): a gwc preparation (endpoints 11
 * and 12; `id` is the preparation's), an inline enrichment (endpoint 10) a payment names (`id` is its `req_…` request
 * id), or a payment that names no enrichment, reported by the merchant or seen in provider events only (`id` is the
 * payment's). The payment is the one that stands for it (`payment_chains`), if any.
 */
export interface UnconfirmedPreparation {
  kind: 'preparation' | 'inline_enrichment' | 'payment';
  id: string;
  organizationId: string;
  integrationId: string;
  environment: Environment;
  amountMinor: number;
  currency: string;
  createdAt: Date;
  payment: { id: string; status: string | null; capturedAmountMinor: number | null } | null;
}
