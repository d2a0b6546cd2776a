import { randomBytes } from 'node:crypto';
import type { Environment } from '../../../contract/common/index.js';
import { hashSecret } from '../../crypto/secrets.js';

/**
 * Key format: `svck_<environment>_<prefix>_<secret>`, prefix 16 and secret 64
 * lowercase hex characters. The prefix is a non-secret lookup handle; only the
 * hash of the secret is stored (server/crypto/secrets.ts).
 */
const KEY_PATTERN = /^svck_(sandbox|production)_([0-9a-f]{16})_([0-9a-f]{64})$/;

export interface IssuedKey {
  key: string;
  prefix: string;
  secretHash: string;
}

export function generateApiKey(environment: Environment): IssuedKey {
  const prefix = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('hex');
  return { key: `svck_${environment}_${prefix}_${secret}`, prefix, secretHash: hashSecret(secret) };
}

export function parseApiKey(key: string): { prefix: string; secret: string } | undefined {
  const match = KEY_PATTERN.exec(key);
  return match ? { prefix: match[2]!, secret: match[3]! } : undefined;
}

/** The displayable, non-secret part of a key. */
export function displayPrefix(environment: Environment, prefix: string): string {
  return `svck_${environment}_${prefix}`;
}
