import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantScope } from './tenant-scope.js';
import { PROVIDERS } from './integration.entity.js';
import { TrackedPayment } from './tracked-payment.entity.js';

/**
 * One accepted payment report, immutable: never updated or deleted (a database
 * trigger refuses both). `eventId` is unique per organization, integration and
 * environment; `payloadHash` is the SHA-256 of the normalized report.
 */
export const OBSERVATION_EVIDENCE = ['merchant_report', 'provider_verified'] as const;
export type ObservationEvidence = (typeof OBSERVATION_EVIDENCE)[number];

export const PaymentObservation = defineEntity({
  name: 'PaymentObservation',
  tableName: 'payment_observations',
  properties: {
    ...tenantScope(),
    provider: p.enum([...PROVIDERS]),
    eventId: p.string().length(160),
    payloadHash: p.string().length(64),
    payload: p.json<Record<string, unknown>>(),
    trackedPayment: () => p.manyToOne(TrackedPayment).index(),
    attemptId: p.string().length(160),
    status: p.string().length(32),
    currency: p.string().length(3),
    amountMinor: p.bigint('number'),
    capturedAmountMinor: p.bigint('number'),
    refundedAmountMinor: p.bigint('number'),
    occurredAt: p.datetime(),
    requestId: p.string().length(64),
    /** A merchant's report, or a provider delivery whose signature the service verified. */
    evidence: p.enum([...OBSERVATION_EVIDENCE]).default('merchant_report'),
    receivedAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [
    {
      properties: ['organization', 'integration', 'environment', 'eventId'],
      name: 'payment_observations_organization_id_integration__bc7f5_unique',
    },
  ],
});
export type PaymentObservation = InferEntity<typeof PaymentObservation>;
