import type { z } from 'zod';
import type { Issue, PaymentProvider } from '../../../contract/common/index.js';
import type { PaymentReport } from '../../../contract/payment-reports.js';
import type { GwcWebhookEventStatusSchema } from '../../../contract/webhooks.js';
import type { AuthContext } from '../auth/auth-context.js';
import { DomainError } from '../errors.js';
import {
  countStoredFirst,
  newAttemptFirstReport,
  recordPaymentReport,
  type ReportStores,
} from '../payment-reports/record-payment-report.js';
import { findSecrets } from '../guard/secrets-guard.js';
import { retryOnConcurrentInsert } from '../idempotency/idempotent-write.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { WebhookStore } from './ports.js';
import type { AtOnceWrite } from './types.js';
import type { TenantScope } from '../tenant-scope.js';

/**
 * Recording a verified provider delivery, whatever the provider (gwa
 * notifications, gwc events): the delivery's row once, atomically with its
 * payment observation, which goes through the payment-report path of the
 * merchant's own reports (docs/reliability.md, "gwa webhook"; docs/gwc-events.md).
 */

/** The `status` of an acknowledgment: a report status, `no_payment_effect` or `rejected` (contract/webhooks.ts). */
export type WebhookEventStatus = z.infer<typeof GwcWebhookEventStatusSchema>;

/** The 200 answer of a delivery (spec: Events 1; the gwc answer has the same shape). */
export interface WebhookAck {
  received: true;
  kind: string;
  status: WebhookEventStatus;
  duplicate: boolean;
}

/** What the service already knows about the tracked payment of the delivery's provider payment id. */
export interface TrackedLink {
  attemptId: string;
  currency: string | null;
  capturedAmountMinor: number;
  refundedAmountMinor: number;
  /** The preparation or inline enrichment the payment is correlated with; carried so the observation is correlated alike. */
  enrichmentRequestId?: string | null;
}

export type DeliveryEffect = { kind: 'observation'; report: PaymentReport } | { kind: 'none' } | { kind: 'invalid'; reason: string };

/** One delivery as recorded: its identity (unique per endpoint) and the summary kept of it. */
export interface DeliveredEvent {
  kind: string;
  at: Date;
  subjectType: string;
  subjectId: string;
  /** The provider's own event id where it has one (gwc): unique per endpoint. */
  providerEventId: string | null;
  /** Only the fields the service reads; checked for card data before it is stored. */
  subject: Record<string, unknown>;
}

export type DeliveryStores = ReportStores & { webhooks: WebhookStore };

/** One verified delivery, with how its provider's event becomes an effect. */
export interface DeliveryInput {
  scope: TenantScope;
  endpointId: string;
  provider: PaymentProvider;
  event: DeliveredEvent;
  providerPaymentId: string | null;
  effectOf: (link: TrackedLink | undefined) => DeliveryEffect;
  invalid: (reason: string) => DomainError;
  requestId: string;
  now: Date;
  /** How the delivery is recorded at once (`deliverAtOnce`): group-committed with concurrent ones, or alone by default. */
  atOnce?: AtOnceWrite | undefined;
}

/**
 * Record one verified delivery once. A delivery about a payment the service does not track yet is one statement
 * (`deliverAtOnce`). Otherwise, in one transaction: claim its row (a concurrent repeat waits on the unique index, then
 * finds it and answers `duplicate: true`) and, in the same statement, read the payment already linked to its provider
 * payment id; compute its effect from that payment, and record the observation, so a refused observation leaves the
 * row marked `rejected` with the reasons. An unusable event (`invalid`) rolls everything back: the provider's retry
 * gets the same 400.
 */
export async function recordDelivery(storage: UnitOfWork<DeliveryStores>, input: DeliveryInput): Promise<WebhookAck> {
  const { event } = input;
  // Provider objects are free text the service does not control: the summary it keeps is held to the request bodies' rule.
  if (findSecrets(event.subject).length > 0) throw input.invalid('The event carries card data or a credential; it is not stored');
  // A concurrent insert (the same eventId, or the PaymentIntent's payment created by another delivery or a merchant
  // report) makes the first attempt fail, with nothing stored. The first attempt's transaction records its observation
  // without a savepoint: such an insert aborts it. The second attempt runs the transaction whole again, seeing the
  // winner's rows, its observation in a savepoint.
  return retryOnConcurrentInsert(async (attempt) => {
    if (attempt === 0) {
      const ack = await deliverAtOnce(storage, input);
      if (ack) return ack;
    }
    return deliverOnce(storage, input, attempt === 0);
  });
}

/** The delivery's row as claimed, without its outcome. */
function eventRow(input: DeliveryInput, id: string) {
  const { event } = input;
  return {
    id,
    endpointId: input.endpointId,
    kind: event.kind,
    notificationAt: event.at,
    subjectType: event.subjectType,
    subjectId: event.subjectId,
    providerEventId: event.providerEventId,
    subject: event.subject,
    requestId: input.requestId,
    createdAt: input.now,
  };
}

/** The payment report a delivery's observation is recorded as: the provider's word, under the endpoint's tenant. */
function reportInput(input: DeliveryInput, report: PaymentReport, tracked: boolean) {
  const ctx: AuthContext = { apiKeyId: '', provider: input.provider, scopes: [], ...input.scope };
  return {
    ctx,
    provider: input.provider,
    report,
    requestId: input.requestId,
    now: input.now,
    origin: { evidence: 'provider_verified' as const, provisionalAttempt: !tracked },
  };
}

async function duplicateAck(store: WebhookStore, input: DeliveryInput): Promise<WebhookAck> {
  const { event } = input;
  const status = await store.findEventStatus({
    endpointId: input.endpointId,
    kind: event.kind,
    notificationAt: event.at,
    subjectId: event.subjectId,
    providerEventId: event.providerEventId,
  });
  return { received: true, kind: event.kind, status: status as WebhookEventStatus, duplicate: true };
}

/**
 * The common delivery in one statement (docs/performance.md, "Webhook deliveries"): an event about a payment the
 * service does not track yet, whose observation is a new attempt's first, or an event without payment effect. The
 * statement writes only when no payment is linked to the event's provider payment id and no observation has its
 * report's eventId, which is exactly when the general path would compute this effect and store this first report.
 * Undefined, with nothing written, when the delivery needs the general path: a tracked payment or a stored
 * observation, an unusable event, or a report that is refused or differs from its enrichment.
 */
async function deliverAtOnce(storage: UnitOfWork<DeliveryStores>, input: DeliveryInput): Promise<WebhookAck | undefined> {
  const effect = input.effectOf(undefined);
  if (effect.kind === 'invalid') return undefined;
  const first = effect.kind === 'observation' ? await newAttemptFirstReport(storage, reportInput(input, effect.report, false)) : null;
  if (first === undefined) return undefined;
  const status: WebhookEventStatus = effect.kind === 'observation' ? effect.report.status : 'no_payment_effect';
  const { webhooks } = storage.store;
  const write = input.atOnce ?? webhooks.recordDeliveryAtOnce;
  const outcome = await write({
    scope: input.scope,
    event: { ...eventRow(input, crypto.randomUUID()), status },
    providerPaymentId: input.providerPaymentId,
    first,
  });
  if (outcome === 'general') return undefined;
  if (outcome === 'duplicate') return duplicateAck(webhooks, input);
  if (first) countStoredFirst(input.provider);
  return { received: true, kind: input.event.kind, status, duplicate: false };
}

async function deliverOnce(storage: UnitOfWork<DeliveryStores>, input: DeliveryInput, retriedByCaller: boolean): Promise<WebhookAck> {
  const { event, scope } = input;
  return storage.transaction(async ({ webhooks: store }, tx) => {
    const rowId = crypto.randomUUID();
    const { claimed, linked: tracked } = await store.claimEvent(scope, eventRow(input, rowId), input.providerPaymentId);
    if (!claimed) return duplicateAck(store, input);

    const effect = input.effectOf(
      tracked && {
        attemptId: tracked.attemptId,
        currency: tracked.currency,
        capturedAmountMinor: tracked.capturedAmountMinor ?? 0,
        refundedAmountMinor: tracked.refundedAmountMinor ?? 0,
        enrichmentRequestId: tracked.enrichmentRequestId,
      },
    );
    if (effect.kind === 'invalid') throw input.invalid(effect.reason);
    if (effect.kind === 'none') return { received: true, kind: event.kind, status: 'no_payment_effect', duplicate: false };

    let status: WebhookEventStatus = effect.report.status;
    let observationId: string | null = null;
    let issues: Issue[] | null = null;
    try {
      // Its writes are savepoints of this transaction: a refusal leaves nothing of it, and the event is still recorded.
      const ack = await recordPaymentReport(tx, { ...reportInput(input, effect.report, tracked !== undefined), retriedByCaller });
      observationId = ack.id;
    } catch (err) {
      if (!(err instanceof DomainError) || (err.type !== 'conflict' && err.type !== 'validation_error')) throw err;
      status = 'rejected';
      issues = err.issues;
    }
    await store.setEventOutcome(rowId, { status, observationId, issues });
    return { received: true, kind: event.kind, status, duplicate: false };
  });
}
