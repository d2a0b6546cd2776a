import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment, RouteAccess, Scope } from '../../../contract/common/index.js';
import { ApiKey, IntegrationLink } from '../../persistence/entities/index.js';
import { DomainError } from '../errors.js';
import { hashSecret, parseApiKey, secretMatches } from './api-key.js';
import type { AuthContext } from './auth-context.js';

/** Last use is written at most this often per key, so reads do not turn into a write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** Hash compared against when the prefix is unknown, so both misses take the same time. */
const UNKNOWN_KEY_HASH = hashSecret('unknown');

const unauthenticated = (message: string) => new DomainError('authentication_error', message);
const forbidden = (message: string) => new DomainError('permission_error', message);

function bearerToken(header: string | undefined): string {
  if (header === undefined || header === '') throw unauthenticated('Missing Authorization header; send "Authorization: Bearer <API key>"');
  const match = /^Bearer ([^\s]+)$/.exec(header);
  if (!match) throw unauthenticated('Malformed Authorization header; expected "Bearer <API key>"');
  return match[1]!;
}

/**
 * Verify the bearer key and that it may call a route: 401 for a missing,
 * malformed, unknown or revoked key; 403 for another provider's key, another
 * environment or a missing scope (spec: Authentication).
 */
export async function authenticate(
  em: EntityManager,
  options: { authorization: string | undefined; access: RouteAccess; environment: Environment },
): Promise<AuthContext> {
  const parsed = parseApiKey(bearerToken(options.authorization));
  if (!parsed) throw unauthenticated('Malformed API key');

  const key = await em.findOne(ApiKey, { prefix: parsed.prefix }, { populate: ['integration'] });
  const valid = secretMatches(parsed.secret, key?.secretHash ?? UNKNOWN_KEY_HASH);
  if (!key || !valid) throw unauthenticated('Unknown API key');
  if (key.revokedAt) throw unauthenticated('This API key has been revoked');

  const integration = key.integration;
  const { access } = options;
  if (integration.provider !== access.provider) {
    throw forbidden(`A ${integration.provider} key cannot call a ${access.provider} endpoint`);
  }
  if (integration.environment !== options.environment) {
    throw forbidden(`A ${integration.environment} key cannot be used on this ${options.environment} deployment`);
  }
  const held = new Set(key.scopes as Scope[]);
  const missing = access.scopes.filter((scope) => !held.has(scope));
  if (missing.length > 0) throw forbidden(`The API key lacks the scope(s): ${missing.join(', ')}`);
  if (access.scopes.includes('invoices:read')) {
    // invoices:read also needs the explicit link to still exist (spec: Authentication, scopes).
    const linked = await em.count(IntegrationLink, { providerIntegration: integration.id });
    if (linked === 0) throw forbidden('This integration is not linked to an accounting source');
  }

  const now = new Date();
  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await em.nativeUpdate(ApiKey, { id: key.id }, { lastUsedAt: now });
  }

  return {
    apiKeyId: key.id,
    organizationId: integration.organization.id,
    integrationId: integration.id,
    provider: integration.provider,
    environment: integration.environment,
    scopes: [...held],
  };
}
