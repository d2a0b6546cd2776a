import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Organization } from './organization.entity.js';

export const PROVIDERS = ['gwa', 'gwb', 'gwc', 'ledger'] as const;
export type Provider = (typeof PROVIDERS)[number];
export const ENVIRONMENTS = ['sandbox', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** One organization's account at one provider in one environment; keys are issued per integration. */
export const Integration = defineEntity({
  name: 'Integration',
  tableName: 'integrations',
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    organization: () => p.manyToOne(Organization).index(),
    provider: p.enum([...PROVIDERS]),
    environment: p.enum([...ENVIRONMENTS]),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type Integration = InferEntity<typeof Integration>;
