import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The one way the service stores a secret it issued (API key secrets, connect
 * URL secrets, OAuth states): SHA-256, hex. These secrets carry 256 random
 * bits, so a fast hash is enough (no password stretching needed).
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A 256-bit unguessable secret; only its hash is stored. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** Constant-time check of a presented secret against a stored `hashSecret` value. */
export function secretMatchesHash(secret: string, storedHash: string): boolean {
  const actual = Buffer.from(hashSecret(secret), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Constant-time equality of two secrets of any lengths (their digests are compared). */
export function secretsEqual(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
