import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Integration } from './integration.entity.js';

/**
 * An explicit, operator-made link between a ledger integration and a payment
 * provider integration of the same organization and environment; the
 * precondition for granting `invoices:read` (spec: Authentication, scopes).
 */
export const IntegrationLink = defineEntity({
  name: 'IntegrationLink',
  tableName: 'integration_links',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => crypto.randomUUID()),
    ledgerIntegration: () => p.manyToOne(Integration),
    providerIntegration: () => p.manyToOne(Integration).index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [
    { properties: ['ledgerIntegration', 'providerIntegration'], name: 'integration_links_ledger_integration_id_provider__39ef8_unique' },
  ],
});
export type IntegrationLink = InferEntity<typeof IntegrationLink>;
