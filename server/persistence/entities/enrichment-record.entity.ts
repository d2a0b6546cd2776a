import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { ENVIRONMENTS, Integration, PROVIDERS } from './integration.entity.js';
import { Organization } from './organization.entity.js';

/**
 * The enrichment record of one successful inline enrichment: enough for a
 * later payment report to name it (by the response's `x-svc-request-id`) and
 * to compare amount and currency. Holds no invoice content beyond its number.
 */
export const EnrichmentRecord = defineEntity({
  name: 'EnrichmentRecord',
  tableName: 'enrichment_records',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => crypto.randomUUID()),
    requestId: p.string().length(64).unique(),
    organization: () => p.manyToOne(Organization),
    integration: () => p.manyToOne(Integration).index(),
    environment: p.enum([...ENVIRONMENTS]),
    provider: p.enum([...PROVIDERS]),
    amountMinor: p.bigint('number'),
    currency: p.string().length(3),
    invoiceNumber: p.string().length(160),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type EnrichmentRecord = InferEntity<typeof EnrichmentRecord>;
