import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantScope } from './tenant-scope.js';
import { PaymentObservation } from './payment-observation.entity.js';

/**
 * A difference between a report and the enrichment it names (amount or
 * currency). Recorded as found, never used to rewrite either side.
 */
export const CorrelationException = defineEntity({
  name: 'CorrelationException',
  tableName: 'correlation_exceptions',
  properties: {
    ...tenantScope(),
    observation: () => p.manyToOne(PaymentObservation).index(),
    enrichmentRequestId: p.string().length(64),
    kind: p.enum(['amount_mismatch', 'currency_mismatch']),
    expected: p.string().length(64),
    observed: p.string().length(64),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ properties: ['organization', 'createdAt'] }],
});
export type CorrelationException = InferEntity<typeof CorrelationException>;
