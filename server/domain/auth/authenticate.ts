import type { Environment, RouteAccess } from '../../../contract/common/index.js';
import { DomainError } from '../errors.js';
import { hashSecret, secretMatchesHash } from '../../crypto/secrets.js';
import { parseApiKey } from './api-key.js';
import type { AuthContext } from './auth-context.js';
import type { KeyDirectory } from './key-directory.js';
import type { KeyRecord } from './types.js';

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

type AuthenticationOptions = { authorization: string | undefined; access: RouteAccess; environment: Environment };

/**
 * Verify the bearer key and that it may call a route: 401 for a missing,
 * malformed, unknown or revoked key; 404 when the key's organization is
 * inactive; 403 for another provider's key, another environment or a missing
 * scope (spec: Authentication).
 */
export async function authenticate(keys: KeyDirectory, options: AuthenticationOptions): Promise<AuthContext> {
  const parsed = parseApiKey(bearerToken(options.authorization));
  if (!parsed) throw unauthenticated('Malformed API key');
  const key = await keys.find(parsed.prefix);
  const auth = verdict(key, parsed.secret, options);
  const now = new Date();
  if (touchDue(key!, now)) await keys.touch(key!, now, LAST_USED_RESOLUTION_MS);
  return auth;
}

function touchDue(key: KeyRecord, now: Date): boolean {
  return !key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS;
}

/** The checks of `authenticate` on a key record: the request's context, or the refusal. */
function verdict(key: KeyRecord | undefined, secret: string, options: AuthenticationOptions): AuthContext {
  const valid = secretMatchesHash(secret, key?.secretHash ?? UNKNOWN_KEY_HASH);
  if (!key || !valid) throw unauthenticated('Unknown API key');
  return authorizeKey(key, options.access, options.environment);
}

/**
 * What a genuine key may do: the one rule for every caller that acts for a key (an API request once its secret
 * matched, an operator acting on behalf of a key): 401 revoked; 404 inactive organization; 403 another provider,
 * another environment, a missing scope or, for `invoices:read`, no link.
 */
export function authorizeKey(key: KeyRecord, access: RouteAccess, environment: Environment): AuthContext {
  if (key.revokedAt) throw unauthenticated('This API key has been revoked');
  // The key is genuine but acts for nobody: the spec's 404 for a missing or inactive organization context (docs/errors.md).
  if (key.organizationStatus !== 'active')
    throw new DomainError('not_found', 'The organization of this API key does not exist or is inactive');

  const allowed: readonly string[] = typeof access.provider === 'string' ? [access.provider] : access.provider;
  if (!allowed.includes(key.provider)) {
    throw forbidden(`A ${key.provider} key cannot call ${typeof access.provider === 'string' ? `a ${access.provider}` : 'this'} endpoint`);
  }
  if (key.environment !== environment) {
    throw forbidden(`A ${key.environment} key cannot be used on this ${environment} deployment`);
  }
  const held = new Set(key.scopes);
  const missing = access.scopes.filter((scope) => !held.has(scope));
  if (missing.length > 0) throw forbidden(`The API key lacks the scope(s): ${missing.join(', ')}`);
  // invoices:read also needs the explicit link to still exist (spec: Authentication, scopes).
  if (access.scopes.includes('invoices:read') && !key.linked) {
    throw forbidden('This integration is not linked to an accounting source');
  }
  return {
    apiKeyId: key.id,
    organizationId: key.organizationId,
    integrationId: key.integrationId,
    provider: key.provider,
    environment: key.environment,
    scopes: [...held],
  };
}
