import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import { Integration, IntegrationLink } from '../../persistence/entities/index.js';
import { DomainError } from '../errors.js';

export interface LinkView {
  id: string;
  ledgerIntegrationId: string;
  providerIntegrationId: string;
  createdAt: string;
}

const toLinkView = (l: IntegrationLink): LinkView => ({
  id: l.id,
  ledgerIntegrationId: l.ledgerIntegration.id,
  providerIntegrationId: l.providerIntegration.id,
  createdAt: l.createdAt.toISOString(),
});

/**
 * Link a ledger integration to a payment-provider integration of the same
 * organization and environment. Uniqueness is the database's (one link per pair).
 */
export async function createLink(
  em: EntityManager,
  input: { ledgerIntegrationId: string; providerIntegrationId: string },
): Promise<LinkView> {
  const [ledger, provider] = await Promise.all([
    em.findOne(Integration, { id: input.ledgerIntegrationId }),
    em.findOne(Integration, { id: input.providerIntegrationId }),
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
  if (ledger.organization.id !== provider.organization.id) {
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

  try {
    const link = em.create(IntegrationLink, { ledgerIntegration: ledger, providerIntegration: provider });
    await em.flush();
    return toLinkView(link);
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw new DomainError('conflict', 'These integrations are already linked');
    throw err;
  }
}

/** Remove a link; keys holding invoices:read for that integration stop working for invoice routes at once. */
export async function deleteLink(em: EntityManager, input: { id: string }): Promise<{ id: string; deleted: true }> {
  const removed = await em.nativeDelete(IntegrationLink, { id: input.id });
  if (removed === 0) throw new DomainError('not_found', `No link ${input.id}`);
  return { id: input.id, deleted: true };
}

/** Links, oldest first; either side's integration, or an organization, narrows the list. */
export async function listLinks(
  em: EntityManager,
  input: { organizationId?: string | undefined; integrationId?: string | undefined },
): Promise<LinkView[]> {
  const rows = await em.find(
    IntegrationLink,
    {
      ...(input.integrationId ? { $or: [{ ledgerIntegration: input.integrationId }, { providerIntegration: input.integrationId }] } : {}),
      ...(input.organizationId ? { ledgerIntegration: { organization: input.organizationId } } : {}),
    },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  return rows.map(toLinkView);
}
