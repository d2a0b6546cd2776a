import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../../contract/common/index.js';
import { ApiKey, Integration, IntegrationLink } from '../../persistence/entities/index.js';
import { displayPrefix, generateApiKey } from '../auth/api-key.js';
import { DomainError } from '../errors.js';
import { scopeIssues } from './scope-rules.js';

export interface ApiKeyView {
  id: string;
  integrationId: string;
  prefix: string;
  scopes: Scope[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const toApiKeyView = (k: ApiKey): ApiKeyView => ({
  id: k.id,
  integrationId: k.integration.id,
  prefix: displayPrefix(k.integration.environment, k.prefix),
  scopes: k.scopes as Scope[],
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  revokedAt: k.revokedAt?.toISOString() ?? null,
});

/** Issue a key; the secret is returned here and never again (only its hash is stored). */
export async function issueApiKey(
  em: EntityManager,
  input: { integrationId: string; scopes: Scope[] },
): Promise<{ id: string; key: string; prefix: string; scopes: Scope[]; createdAt: string }> {
  const integration = await em.findOne(Integration, { id: input.integrationId });
  if (!integration) throw new DomainError('not_found', `No integration ${input.integrationId}`);
  const linked = (await em.count(IntegrationLink, { providerIntegration: integration.id })) > 0;
  const issues = scopeIssues(integration.provider, input.scopes, linked);
  if (issues.length > 0) throw new DomainError('validation_error', 'These scopes cannot be granted to this key', issues);

  const issued = generateApiKey(integration.environment);
  const key = em.create(ApiKey, {
    integration,
    prefix: issued.prefix,
    secretHash: issued.secretHash,
    scopes: [...input.scopes],
    lastUsedAt: null,
    revokedAt: null,
  });
  await em.flush();
  return {
    id: key.id,
    key: issued.key,
    prefix: displayPrefix(integration.environment, issued.prefix),
    scopes: key.scopes as Scope[],
    createdAt: key.createdAt.toISOString(),
  };
}

export async function listApiKeys(em: EntityManager, input: { integrationId: string }): Promise<ApiKeyView[]> {
  const rows = await em.find(
    ApiKey,
    { integration: input.integrationId },
    { populate: ['integration'], orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  return rows.map(toApiKeyView);
}

/** Revoke a key; effective on the key's next request. Revoking twice keeps the first time. */
export async function revokeApiKey(em: EntityManager, input: { id: string }): Promise<ApiKeyView> {
  const key = await em.findOne(ApiKey, { id: input.id }, { populate: ['integration'] });
  if (!key) throw new DomainError('not_found', `No API key ${input.id}`);
  if (!key.revokedAt) {
    key.revokedAt = new Date();
    await em.flush();
  }
  return toApiKeyView(key);
}
