import type { Environment, Provider } from '../../../contract/common/index.js';
import { DomainError } from '../errors.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { TenancyStore } from './ports.js';
import type { Integration } from './types.js';

type Storage = UnitOfWork<{ tenancy: TenancyStore }>;

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
  storage: Storage,
  input: { organizationId: string; provider: Provider; environment: Environment },
): Promise<IntegrationView> {
  const store = storage.store.tenancy;
  const organization = await store.organizationById(input.organizationId);
  if (!organization) throw new DomainError('not_found', `No organization ${input.organizationId}`);
  const integration = await store.insertIntegration({
    id: crypto.randomUUID(),
    organizationId: organization.id,
    provider: input.provider,
    environment: input.environment,
    createdAt: new Date(),
  });
  return toIntegrationView(integration);
}

export async function listIntegrations(storage: Storage, input: { organizationId: string }): Promise<IntegrationView[]> {
  return (await storage.store.tenancy.integrationsOfOrganization(input.organizationId)).map(toIntegrationView);
}
