import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { LedgerConnection } from './ledger-connection.entity.js';
import { tenantScope } from './tenant-scope.js';

/**
 * A merchant-confirmed fact about one source item of one connection: the product
 * code, unit of measure and commodity code the provider's items lack
 * (docs/provider-facts.md §4.4). Versions are kept: confirming an item again adds
 * version + 1 and the earlier rows stay as evidence; revoking marks a version.
 * The tenant columns are those of the connection's ledger integration.
 */
export const ItemMapping = defineEntity({
  name: 'ItemMapping',
  tableName: 'item_mappings',
  properties: {
    ...tenantScope(),
    connection: () => p.manyToOne(LedgerConnection),
    sourceItemId: p.string().length(160),
    productCode: p.string().length(12),
    unitOfMeasure: p.string().length(12),
    commodityCode: p.string().length(12).nullable(),
    version: p.integer(),
    evidence: p.text(),
    approvedBy: p.string().length(200),
    approvedAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
  },
  uniques: [{ properties: ['connection', 'sourceItemId', 'version'] }],
});
export type ItemMapping = InferEntity<typeof ItemMapping>;
