import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * gwa webhook signatures, exactly as docs/provider-facts.md §1.4 describes the
 * provider's own SDK: the signature field holds `publicKey|hex` pairs joined by
 * `&`; the pair whose public key is the merchant's is checked against
 * HMAC-SHA1 keyed by the raw SHA-1 digest of the private key, over the payload
 * as received and over the payload plus a newline, in constant time.
 */

/** One key pair an endpoint accepts: the current one, or the previous one during the rotation grace period. */
export interface KeyPair {
  publicKey: string;
  privateKey: string;
}

export type SignatureFailure = 'malformed_payload' | 'too_many_pairs' | 'no_matching_public_key' | 'signature_mismatch';

/**
 * Most `publicKey|hex` pairs a signature field may hold. The provider signs with
 * the merchant's key pairs (one, two while a key rotates); a field with more is
 * refused before any HMAC, so a request cannot buy CPU by repeating pairs.
 */
export const MAX_SIGNATURE_PAIRS = 16;
export type SignatureResult = { ok: true; publicKey: string } | { ok: false; reason: SignatureFailure };

/** The payload alphabet: base64 and newlines only (§1.4 item 2). */
const PAYLOAD_ALPHABET = /^[A-Za-z0-9+=/\n]+$/;

const hmacHex = (privateKey: string, data: string): string =>
  createHmac('sha1', createHash('sha1').update(privateKey, 'utf8').digest()).update(data, 'utf8').digest('hex');

const SHA1_BLOCK = 64;

/**
 * The two signatures the SDK accepts for one key, HMAC-SHA1 over the payload and
 * over the payload plus a newline, in one pass over the payload: the inner hash
 * is copied before the newline (RFC 2104 spelled out, since Node's Hmac cannot be
 * copied). Equal to `hmacHex` for both (test/unit/webhooks/signature.test.ts).
 */
function expectedSignatures(privateKey: string, payload: string): { plain: string; withNewline: string } {
  const key = Buffer.alloc(SHA1_BLOCK);
  createHash('sha1').update(privateKey, 'utf8').digest().copy(key);
  const pad = (byte: number) => Buffer.from(key.map((b) => b ^ byte));
  const inner = createHash('sha1').update(pad(0x36)).update(payload, 'utf8');
  const innerWithNewline = inner.copy().update('\n', 'utf8');
  const outer = (h: ReturnType<typeof createHash>) => createHash('sha1').update(pad(0x5c)).update(h.digest()).digest('hex');
  return { plain: outer(inner), withNewline: outer(innerWithNewline) };
}

function sameHex(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  // Lengths are public (a SHA-1 hex digest is always 40 characters); only equal-length buffers are compared.
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The `publicKey|hex` pairs of a signature field; pieces without `|` are ignored (§1.4 item 3). */
export function signaturePairs(signature: string): { publicKey: string; hex: string }[] {
  return signature
    .split('&')
    .filter((piece) => piece.includes('|'))
    .map((piece) => {
      const bar = piece.indexOf('|');
      return { publicKey: piece.slice(0, bar), hex: piece.slice(bar + 1) };
    });
}

/**
 * Verify a delivery against the key pairs the endpoint accepts (current first).
 * Every candidate is checked (no early return on a match) so the time taken
 * does not say which key matched.
 */
export function verifySignature(signature: string, payload: string, keys: readonly KeyPair[]): SignatureResult {
  if (!PAYLOAD_ALPHABET.test(payload)) return { ok: false, reason: 'malformed_payload' };
  const pairs = signaturePairs(signature);
  if (pairs.length > MAX_SIGNATURE_PAIRS) return { ok: false, reason: 'too_many_pairs' };
  let matchedKey: string | undefined;
  let sawPublicKey = false;
  for (const key of keys) {
    const named = pairs.filter((pair) => pair.publicKey === key.publicKey);
    if (named.length === 0) continue;
    sawPublicKey = true;
    // One pass over the payload per key, whatever the number of pairs naming it.
    const expected = expectedSignatures(key.privateKey, payload);
    for (const pair of named) {
      const plain = sameHex(expected.plain, pair.hex);
      const withNewline = sameHex(expected.withNewline, pair.hex);
      if ((plain || withNewline) && matchedKey === undefined) matchedKey = key.publicKey;
    }
  }
  if (matchedKey !== undefined) return { ok: true, publicKey: matchedKey };
  return { ok: false, reason: sawPublicKey ? 'signature_mismatch' : 'no_matching_public_key' };
}

/** A verification challenge is 20-32 lowercase hex digits (§1.4, the GET handshake). */
export const isValidChallenge = (challenge: string): boolean => /^[a-f0-9]{20,32}$/.test(challenge);

/** The handshake answer: `publicKey|HMAC-SHA1hex(SHA1(privateKey), challenge)`. */
export const challengeResponse = (key: KeyPair, challenge: string): string => `${key.publicKey}|${hmacHex(key.privateKey, challenge)}`;
