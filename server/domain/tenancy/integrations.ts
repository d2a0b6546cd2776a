import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment, Provider } from '../../../contract/common/index.js';
import { Integration, Organization } from '../../persistence/entities/index.js';
import { DomainError } from '../errors.js';

export interface IntegrationView {
  id: string;
  organizationId: string;
  provider: Provider;
  environment: Environment;
  createdAt: string;
}

export const toIntegrationView = (i: Integration): IntegrationView => ({
  id: i.id,
  organizationId: i.organization.id,
  provider: i.provider,
  environment: i.environment,
  createdAt: i.createdAt.toISOString(),
});

export async function createIntegration(
  em: EntityManager,
  input: { organizationId: string; provider: Provider; environment: Environment },
): Promise<IntegrationView> {
  const organization = await em.findOne(Organization, { id: input.organizationId });
  if (!organization) throw new DomainError('not_found', `No organization ${input.organizationId}`);
  const integration = em.create(Integration, { organization, provider: input.provider, environment: input.environment });
  await em.flush();
  return toIntegrationView(integration);
}

export async function listIntegrations(em: EntityManager, input: { organizationId: string }): Promise<IntegrationView[]> {
  const rows = await em.find(Integration, { organization: input.organizationId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return rows.map(toIntegrationView);
}
