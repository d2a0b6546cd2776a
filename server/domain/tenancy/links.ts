import type { EntityManager } from '@mikro-orm/postgresql';
import * as store from '../../persistence/sql/integration-links.sql.js';
import { integrationById } from '../../persistence/sql/integrations.sql.js';
import { isUniqueViolation, sqlOf } from '../../persistence/sql/sql.js';
import { DomainError } from '../errors.js';
import type { IntegrationLink } from './types.js';

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
  em: EntityManager,
  input: { ledgerIntegrationId: string; providerIntegrationId: string },
): Promise<LinkView> {
  const sql = sqlOf(em);
  const [ledger, provider] = await Promise.all([
    integrationById(sql, input.ledgerIntegrationId),
    integrationById(sql, input.providerIntegrationId),
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

  try {
    const link = await store.insertLink(sql, {
      id: crypto.randomUUID(),
      ledgerIntegrationId: ledger.id,
      providerIntegrationId: provider.id,
      createdAt: new Date(),
    });
    return toLinkView(link);
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError('conflict', 'These integrations are already linked');
    throw err;
  }
}

/** Remove a link; keys holding invoices:read for that integration stop working for invoice routes at once. */
export async function deleteLink(em: EntityManager, input: { id: string }): Promise<{ id: string; deleted: true }> {
  if (!(await store.deleteLink(sqlOf(em), input.id))) throw new DomainError('not_found', `No link ${input.id}`);
  return { id: input.id, deleted: true };
}

/** Links, oldest first; either side's integration, or an organization, narrows the list. */
export async function listLinks(
  em: EntityManager,
  input: { organizationId?: string | undefined; integrationId?: string | undefined },
): Promise<LinkView[]> {
  return (await store.listLinks(sqlOf(em), input)).map(toLinkView);
}
