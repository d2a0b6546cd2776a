import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { EnvironmentSchema, ProviderSchema, type Environment, type Provider } from '../../../contract/common/index.js';
import { Organization } from './organization.entity.js';

export const PROVIDERS = ProviderSchema.options;
export const ENVIRONMENTS = EnvironmentSchema.options;
export type { Environment, Provider };

/** One organization's account at one provider in one environment; keys are issued per integration. */
export const Integration = defineEntity({
  name: 'Integration',
  tableName: 'integrations',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => crypto.randomUUID()),
    organization: () => p.manyToOne(Organization).index(),
    provider: p.enum([...PROVIDERS]),
    environment: p.enum([...ENVIRONMENTS]),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type Integration = InferEntity<typeof Integration>;
