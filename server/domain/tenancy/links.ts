import { DomainError } from '../errors.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { TenancyStore } from './ports.js';
import type { IntegrationLink } from './types.js';

type Storage = UnitOfWork<{ tenancy: TenancyStore }>;

export interface LinkView {
  id: string;
  ledgerIntegrationId: string;
  providerIntegrationId: string;
  createdAt: string;
}

const toLinkView = (l: IntegrationLink): LinkView => ({
  id: l.id,
  ledgerIntegrationId: l.ledgerIntegrationId,
  providerIntegrationId: l.providerIntegrationId,
  createdAt: l.createdAt.toISOString(),
});

/**
 * Link a ledger integration to a payment-provider integration of the same
 * organization and environment. Uniqueness is the database's (one link per pair).
 */
export async function createLink(
  storage: Storage,
  input: { ledgerIntegrationId: string; providerIntegrationId: string },
): Promise<LinkView> {
  const store = storage.store.tenancy;
  const [ledger, provider] = await Promise.all([
    store.integrationById(input.ledgerIntegrationId),
    store.integrationById(input.providerIntegrationId),
  ]);
  if (!ledger) throw new DomainError('not_found', `No integration ${input.ledgerIntegrationId}`);
  if (!provider) throw new DomainError('not_found', `No integration ${input.providerIntegrationId}`);
  const issues = [];
  if (ledger.provider !== 'ledger') {
    issues.push({ code: 'not_a_ledger_integration', path: 'ledgerIntegrationId', message: 'Must name a ledger integration' });
  }
  if (provider.provider === 'ledger') {
    issues.push({ code: 'not_a_provider_integration', path: 'providerIntegrationId', message: 'Must name a gwa, gwb or gwc integration' });
  }
  if (ledger.organizationId !== provider.organizationId) {
    issues.push({
      code: 'organization_mismatch',
      path: 'providerIntegrationId',
      message: 'Both integrations must belong to the same organization',
    });
  }
  if (ledger.environment !== provider.environment) {
    issues.push({
      code: 'environment_mismatch',
      path: 'providerIntegrationId',
      message: 'Both integrations must be in the same environment',
    });
  }
  if (issues.length > 0) throw new DomainError('validation_error', 'These integrations cannot be linked', issues);

  const link = await store.insertLink({
    id: crypto.randomUUID(),
    ledgerIntegrationId: ledger.id,
    providerIntegrationId: provider.id,
    createdAt: new Date(),
  });
  if (link === 'exists') throw new DomainError('conflict', 'These integrations are already linked');
  return toLinkView(link);
}

/** Remove a link; keys holding invoices:read for that integration stop working for invoice routes at once. */
export async function deleteLink(storage: Storage, input: { id: string }): Promise<{ id: string; deleted: true }> {
  if (!(await storage.store.tenancy.deleteLink(input.id))) throw new DomainError('not_found', `No link ${input.id}`);
  return { id: input.id, deleted: true };
}

/** Links, oldest first; either side's integration, or an organization, narrows the list. */
export async function listLinks(
  storage: Storage,
  input: { organizationId?: string | undefined; integrationId?: string | undefined },
): Promise<LinkView[]> {
  return (await storage.store.tenancy.listLinks(input)).map(toLinkView);
}
