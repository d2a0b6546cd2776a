import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * The evidence facts of one preparation, packed (`factKey`), with its month, currency and net amount: a projection of
 * the `preparation_evidence_facts` view kept by database triggers in the same transaction as every write that changes
 * it (Migration20261125191500_preparation_evidence, docs/evidence.md). Never written by the application.
 */
export const PreparationEvidence = defineEntity({
  name: 'PreparationEvidence',
  tableName: 'preparation_evidence',
  properties: {
    preparationId: p.uuid().primary(),
    organizationId: p.uuid(),
    integrationId: p.uuid(),
    provider: p.string().length(8),
    createdAt: p.datetime(),
    /** `YYYY-MM`, the UTC month of `createdAt`. */
    month: p.string().length(7),
    currency: p.string().length(3),
    factKey: p.smallint(),
    netMinor: p.bigint('number'),
    /** The preparation's qualification level (docs/network-qualification.md), for `qualification.summary`. */
    qualificationLevel: p.string().length(16).nullable(),
  },
  indexes: [{ properties: ['organizationId', 'createdAt'] }, { properties: ['integrationId', 'createdAt'] }],
});
export type PreparationEvidence = InferEntity<typeof PreparationEvidence>;
