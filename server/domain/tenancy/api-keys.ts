import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../../contract/common/index.js';
import * as store from '../../persistence/sql/api-keys.sql.js';
import { isLinked } from '../../persistence/sql/integration-links.sql.js';
import { integrationById } from '../../persistence/sql/integrations.sql.js';
import { sqlOf } from '../../persistence/sql/sql.js';
import type { ApiKeyMac } from '../../crypto/api-key-mac.js';
import { displayPrefix, generateApiKey } from '../auth/api-key.js';
import { DomainError } from '../errors.js';
import { scopeIssues } from './scope-rules.js';
import type { ApiKey } from './types.js';

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
  em: EntityManager,
  input: { integrationId: string; scopes: Scope[] },
  mac: ApiKeyMac,
): Promise<{ id: string; key: string; prefix: string; scopes: Scope[]; createdAt: string }> {
  const sql = sqlOf(em);
  const integration = await integrationById(sql, input.integrationId);
  if (!integration) throw new DomainError('not_found', `No integration ${input.integrationId}`);
  const issues = scopeIssues(integration.provider, input.scopes, await isLinked(sql, integration.id));
  if (issues.length > 0) throw new DomainError('validation_error', 'These scopes cannot be granted to this key', issues);

  const issued = generateApiKey(integration.environment, mac);
  const key = await store.insertApiKey(sql, {
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

export async function listApiKeys(em: EntityManager, input: { integrationId: string }): Promise<ApiKeyView[]> {
  return (await store.apiKeysOfIntegration(sqlOf(em), input.integrationId)).map(toApiKeyView);
}

/** Revoke a key; effective on the key's next request. Revoking twice keeps the first time. */
export async function revokeApiKey(em: EntityManager, input: { id: string }): Promise<ApiKeyView> {
  const sql = sqlOf(em);
  const key = await store.apiKeyById(sql, input.id);
  if (!key) throw new DomainError('not_found', `No API key ${input.id}`);
  // Only an unrevoked key is written: a repeated revocation changes nothing, not even the auth epoch.
  const revoked = key.revokedAt ? key : await store.revokeApiKey(sql, key, new Date());
  // Undefined only when the key was deleted in between.
  if (!revoked) throw new DomainError('not_found', `No API key ${input.id}`);
  return toApiKeyView(revoked);
}
