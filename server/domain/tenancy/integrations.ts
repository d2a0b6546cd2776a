import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment, Provider } from '../../../contract/common/index.js';
import * as store from '../../persistence/sql/integrations.sql.js';
import { organizationById } from '../../persistence/sql/organizations.sql.js';
import { databaseOf } from '../../persistence/kysely.js';
import { sqlOf } from '../../persistence/sql/sql.js';
import { DomainError } from '../errors.js';
import type { Integration } from './types.js';

export interface IntegrationView {
  id: string;
  organizationId: string;
  provider: Provider;
  environment: Environment;
  createdAt: string;
}

export const toIntegrationView = (i: Integration): IntegrationView => ({
  id: i.id,
  organizationId: i.organizationId,
  provider: i.provider,
  environment: i.environment,
  createdAt: i.createdAt.toISOString(),
});

export async function createIntegration(
  em: EntityManager,
  input: { organizationId: string; provider: Provider; environment: Environment },
): Promise<IntegrationView> {
  const sql = sqlOf(em);
  const organization = await organizationById(databaseOf(em), input.organizationId);
  if (!organization) throw new DomainError('not_found', `No organization ${input.organizationId}`);
  const integration = await store.insertIntegration(sql, {
    id: crypto.randomUUID(),
    organizationId: organization.id,
    provider: input.provider,
    environment: input.environment,
    createdAt: new Date(),
  });
  return toIntegrationView(integration);
}

export async function listIntegrations(em: EntityManager, input: { organizationId: string }): Promise<IntegrationView[]> {
  return (await store.integrationsOfOrganization(sqlOf(em), input.organizationId)).map(toIntegrationView);
}
