import type { z } from 'zod';
import type { Issue, PaymentProvider } from '../../../contract/common/index.js';
import type { PaymentReport } from '../../../contract/payment-reports.js';
import type { GwcWebhookEventStatusSchema } from '../../../contract/webhooks.js';
import type { AuthContext } from '../auth/auth-context.js';
import { DomainError } from '../errors.js';
import { recordPaymentReport, type ReportStores } from '../payment-reports/record-payment-report.js';
import { findSecrets } from '../guard/secrets-guard.js';
import { retryOnConcurrentInsert } from '../idempotency/idempotent-write.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { WebhookStore } from './ports.js';
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

/**
 * Record one verified delivery once: claim its row (a concurrent repeat waits on the unique index, then finds it and
 * answers `duplicate: true`) and, in the same statement, read the payment already linked to its provider payment id;
 * compute its effect from that payment, and record the observation in a savepoint, so a refused observation leaves
 * the row marked `rejected` with the reasons. An unusable event (`invalid`) rolls everything back: the provider's
 * retry gets the same 400.
 */
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
}

export async function recordDelivery(storage: UnitOfWork<DeliveryStores>, input: DeliveryInput): Promise<WebhookAck> {
  const { event } = input;
  // Provider objects are free text the service does not control: the summary it keeps is held to the request bodies' rule.
  if (findSecrets(event.subject).length > 0) throw input.invalid('The event carries card data or a credential; it is not stored');
  // The first attempt records its observation without a savepoint: a concurrent insert (the same eventId, or the
  // PaymentIntent's payment created by another delivery) aborts the delivery's transaction, and the second attempt runs
  // it whole again, seeing the winner's rows, its observation in a savepoint as before.
  return retryOnConcurrentInsert((attempt) => deliverOnce(storage, input, attempt === 0));
}

async function deliverOnce(storage: UnitOfWork<DeliveryStores>, input: DeliveryInput, retriedByCaller: boolean): Promise<WebhookAck> {
  const { event, scope, now } = input;
  return storage.transaction(async ({ webhooks: store }, tx) => {
    const rowId = crypto.randomUUID();
    const identity = { endpointId: input.endpointId, kind: event.kind, notificationAt: event.at, subjectId: event.subjectId };
    const { claimed, linked: tracked } = await store.claimEvent(
      scope,
      {
        id: rowId,
        ...identity,
        subjectType: event.subjectType,
        providerEventId: event.providerEventId,
        subject: event.subject,
        requestId: input.requestId,
        createdAt: now,
      },
      input.providerPaymentId,
    );
    if (!claimed) {
      const status = await store.findEventStatus({ ...identity, providerEventId: event.providerEventId });
      return { received: true, kind: event.kind, status: status as WebhookEventStatus, duplicate: true };
    }

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

    const ctx: AuthContext = { apiKeyId: '', provider: input.provider, scopes: [], ...scope };
    let status: WebhookEventStatus = effect.report.status;
    let observationId: string | null = null;
    let issues: Issue[] | null = null;
    try {
      // Its writes are savepoints of this transaction: a refusal leaves nothing of it, and the event is still recorded.
      const ack = await recordPaymentReport(tx, {
        ctx,
        provider: input.provider,
        report: effect.report,
        requestId: input.requestId,
        now,
        origin: { evidence: 'provider_verified', provisionalAttempt: tracked === undefined },
        retriedByCaller,
      });
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
