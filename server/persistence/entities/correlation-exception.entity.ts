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
  indexes: [
    { properties: ['organization', 'createdAt'] },
    // A preparation's exceptions, by the id it names in either case (docs/evidence.md).
    {
      name: 'correlation_exceptions_enrichment_request_index',
      expression:
        'create index "correlation_exceptions_enrichment_request_index" on "correlation_exceptions" ("integration_id", "environment", lower("enrichment_request_id"))',
    },
  ],
});
export type CorrelationException = InferEntity<typeof CorrelationException>;
