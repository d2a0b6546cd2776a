import { randomBytes } from 'node:crypto';
import type { Environment } from '../../../contract/common/index.js';
import type { ApiKeyMac } from '../../crypto/api-key-mac.js';
import { hashSecret } from '../../crypto/secrets.js';

/**
 * Key format: `svck_<environment>_<prefix>_<secret>`, prefix 16 and secret 64
 * lowercase hex characters. The prefix is a non-secret lookup handle; only the
 * hash of the secret is stored (server/crypto/secrets.ts). A key issued now ends
 * its secret with a tag over the rest (48 random hex digits, then 16 of tag,
 * server/crypto/api-key-mac.ts): the service tells its own keys from made-up ones
 * without a lookup. Keys issued before carry 64 random digits and still work.
 */
const KEY_PATTERN = /^svck_(sandbox|production)_([0-9a-f]{16})_([0-9a-f]{64})$/;
const RANDOM_HEX = 48;

export interface IssuedKey {
  key: string;
  prefix: string;
  secretHash: string;
}

const tagged = (environment: string, prefix: string, random: string) => `${environment}_${prefix}_${random}`;

export function generateApiKey(environment: Environment, mac: ApiKeyMac): IssuedKey {
  const prefix = randomBytes(8).toString('hex');
  const random = randomBytes(RANDOM_HEX / 2).toString('hex');
  const secret = `${random}${mac.tag(tagged(environment, prefix, random))}`;
  return { key: `svck_${environment}_${prefix}_${secret}`, prefix, secretHash: hashSecret(secret) };
}

export interface ParsedKey {
  environment: Environment;
  prefix: string;
  secret: string;
}

export function parseApiKey(key: string): ParsedKey | undefined {
  const match = KEY_PATTERN.exec(key);
  return match ? { environment: match[1] as Environment, prefix: match[2]!, secret: match[3]! } : undefined;
}

/** Whether the key's tag verifies: the service issued it (it may since have been revoked; the lookup decides). */
export function carriesIssuedTag(key: ParsedKey, mac: ApiKeyMac): boolean {
  return mac.verifies(tagged(key.environment, key.prefix, key.secret.slice(0, RANDOM_HEX)), key.secret.slice(RANDOM_HEX));
}

/** The displayable, non-secret part of a key. */
export function displayPrefix(environment: Environment, prefix: string): string {
  return `svck_${environment}_${prefix}`;
}
