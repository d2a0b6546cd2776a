import type { Scope } from '../../../contract/common/index.js';
import type { ApiKeyMac } from '../../crypto/api-key-mac.js';
import { displayPrefix, generateApiKey } from '../auth/api-key.js';
import { DomainError } from '../errors.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { TenancyStore } from './ports.js';
import { scopeIssues } from './scope-rules.js';
import type { ApiKey } from './types.js';

type Storage = UnitOfWork<{ tenancy: TenancyStore }>;

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
  integrationId: k.integrationId,
  prefix: displayPrefix(k.environment, k.prefix),
  scopes: [...k.scopes],
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  revokedAt: k.revokedAt?.toISOString() ?? null,
});

/** Issue a key; the secret is returned here and never again (only its hash is stored). */
export async function issueApiKey(
  storage: Storage,
  input: { integrationId: string; scopes: Scope[] },
  mac: ApiKeyMac,
): Promise<{ id: string; key: string; prefix: string; scopes: Scope[]; createdAt: string }> {
  const store = storage.store.tenancy;
  const integration = await store.integrationById(input.integrationId);
  if (!integration) throw new DomainError('not_found', `No integration ${input.integrationId}`);
  const issues = scopeIssues(integration.provider, input.scopes, await store.isLinked(integration.id));
  if (issues.length > 0) throw new DomainError('validation_error', 'These scopes cannot be granted to this key', issues);

  const issued = generateApiKey(integration.environment, mac);
  const key = await store.insertApiKey({
    id: crypto.randomUUID(),
    integrationId: integration.id,
    environment: integration.environment,
    prefix: issued.prefix,
    secretHash: issued.secretHash,
    scopes: [...input.scopes],
    createdAt: new Date(),
    lastUsedAt: null,
    revokedAt: null,
  });
  return {
    id: key.id,
    key: issued.key,
    prefix: displayPrefix(key.environment, key.prefix),
    scopes: [...key.scopes],
    createdAt: key.createdAt.toISOString(),
  };
}

export async function listApiKeys(storage: Storage, input: { integrationId: string }): Promise<ApiKeyView[]> {
  return (await storage.store.tenancy.apiKeysOfIntegration(input.integrationId)).map(toApiKeyView);
}

/** Revoke a key; effective on the key's next request. Revoking twice keeps the first time. */
export async function revokeApiKey(storage: Storage, input: { id: string }): Promise<ApiKeyView> {
  const store = storage.store.tenancy;
  const key = await store.apiKeyById(input.id);
  if (!key) throw new DomainError('not_found', `No API key ${input.id}`);
  // Only an unrevoked key is written: a repeated revocation changes nothing, not even the auth epoch.
  const revoked = key.revokedAt ? key : await store.revokeApiKey(key, new Date());
  // Undefined only when the key was deleted in between.
  if (!revoked) throw new DomainError('not_found', `No API key ${input.id}`);
  return toApiKeyView(revoked);
}
