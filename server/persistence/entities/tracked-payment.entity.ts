import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantScope } from './tenant-scope.js';
import { PROVIDERS } from './integration.entity.js';

/**
 * The current-state projection of one payment attempt, recomputed from its
 * observations in the same transaction as each new one. `providerPaymentId` is
 * the provider's stable payment identity (gwa transaction, gwb payment, gwc
 * PaymentIntent); unique per integration so two attempts never claim it.
 */
export const TrackedPayment = defineEntity({
  name: 'TrackedPayment',
  tableName: 'tracked_payments',
  properties: {
    ...tenantScope(),
    provider: p.enum([...PROVIDERS]),
    attemptId: p.string().length(160),
    /** Made up by the service for provider evidence nobody reported yet; the merchant's attemptId replaces it. */
    attemptProvisional: p.boolean().default(false),
    /** A provisional payment merged into the merchant's payment of the same attempt; its observations count as that one's. */
    mergedIntoId: p.uuid().nullable().index(),
    providerPaymentId: p.string().length(160).nullable(),
    accountId: p.string().length(160).nullable(),
    chargeId: p.string().length(160).nullable(),
    orderId: p.string().length(160).nullable(),
    status: p.string().length(32).nullable(),
    currency: p.string().length(3).nullable(),
    amountMinor: p.bigint('number').nullable(),
    capturedAmountMinor: p.bigint('number').nullable(),
    refundedAmountMinor: p.bigint('number').nullable(),
    occurredAt: p.datetime().nullable(),
    currentObservationId: p.uuid().nullable(),
    enrichmentRequestId: p.string().length(64).nullable(),
    observationCount: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [
    { properties: ['integration', 'environment', 'attemptId'] },
    {
      properties: ['integration', 'environment', 'providerPaymentId'],
      name: 'tracked_payments_integration_id_environment_provi_09b9a_unique',
    },
  ],
  indexes: [
    { properties: ['organization', 'status'] },
    // A preparation's payment, by the id it names in either case (docs/evidence.md). The reference first: led by the
    // integration, it would offer itself to every lookup of the integration's payments (Migration20261127190000).
    {
      name: 'tracked_payments_enrichment_request_index',
      expression:
        'create index "tracked_payments_enrichment_request_index" on "tracked_payments" (lower("enrichment_request_id"), "integration_id", "environment")',
    },
  ],
});
export type TrackedPayment = InferEntity<typeof TrackedPayment>;
