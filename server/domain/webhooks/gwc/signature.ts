import { createHmac, timingSafeEqual } from 'node:crypto';
import { GWC_MAX_SIGNATURES } from '../../../../contract/webhooks.js';

/**
 * gwc delivery signatures (docs/provider-facts.md §3.7; docs/gwc-events.md):
 * header `gwc-signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]`, each v1 being
 * HMAC-SHA256(secret, `<t>.<raw body>`) in hex. Pure: the intake reads the secrets.
 */

/** How far the signed timestamp may be from the server clock, either way (the provider's default tolerance). */
export const GWC_SIGNATURE_TOLERANCE_SECONDS = 300;
/**
 * `GWC_MAX_SIGNATURES` (4): most `v1` signatures one header may carry. The provider sends one per active secret (two
 * while a secret is rolled); each costs a compare against every secret, so a header with more is refused.
 */
export { GWC_MAX_SIGNATURES };
/** Longest header read: the timestamp, a few signatures and other schemes' pairs fit many times over. */
export const GWC_MAX_HEADER_LENGTH = 1024;

export type GwcSignatureVerdict =
  { ok: true } | { ok: false; reason: 'missing' | 'malformed' | 'too_many' | 'outside_tolerance' | 'no_match' };

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/** The timestamp and v1 signatures of a header; pairs of other schemes (`v0` of the provider's test mode) are ignored. */
function parseHeader(header: string): { t: number; v1: string[] } | 'malformed' | 'too_many' {
  let t: number | undefined;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return 'malformed';
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== undefined || !/^[0-9]{1,12}$/.test(value)) return 'malformed';
      t = Number(value);
    } else if (key === 'v1') {
      if (!HEX_SHA256.test(value)) return 'malformed';
      if (v1.length === GWC_MAX_SIGNATURES) return 'too_many';
      v1.push(value);
    }
  }
  if (t === undefined || v1.length === 0) return 'malformed';
  return { t, v1 };
}

/**
 * Verify a delivery against the endpoint's secrets (current first, then the previous one during its grace period).
 * Each secret's HMAC is computed once and compared in constant time with every v1 of the header; any match passes.
 */
export function verifyGwcSignature(input: {
  header: string | undefined;
  rawBody: Buffer;
  secrets: readonly string[];
  nowSeconds: number;
}): GwcSignatureVerdict {
  const { header } = input;
  if (header === undefined || header === '') return { ok: false, reason: 'missing' };
  if (header.length > GWC_MAX_HEADER_LENGTH) return { ok: false, reason: 'malformed' };
  const parsed = parseHeader(header);
  if (parsed === 'malformed' || parsed === 'too_many') return { ok: false, reason: parsed };
  if (Math.abs(input.nowSeconds - parsed.t) > GWC_SIGNATURE_TOLERANCE_SECONDS) return { ok: false, reason: 'outside_tolerance' };
  const given = parsed.v1.map((hex) => Buffer.from(hex, 'hex'));
  let matched = false;
  for (const secret of input.secrets) {
    const expected = createHmac('sha256', secret).update(`${parsed.t}.`, 'utf8').update(input.rawBody).digest();
    // Every pair is compared even after a match, so the time taken does not say which one matched.
    for (const candidate of given) matched = timingSafeEqual(expected, candidate) || matched;
  }
  return matched ? { ok: true } : { ok: false, reason: 'no_match' };
}

/** The refusal message of each verdict: safe to show the operator (no signature or secret in it). */
export const GWC_SIGNATURE_MESSAGES: Record<Exclude<GwcSignatureVerdict, { ok: true }>['reason'], string> = {
  missing: 'The gwc-signature header is missing',
  malformed: 'The gwc-signature header is not t=<unix seconds>,v1=<64 hex digits>[,v1=…]',
  too_many: `The gwc-signature header carries more than ${GWC_MAX_SIGNATURES} v1 signatures`,
  outside_tolerance: `The signed timestamp is more than ${GWC_SIGNATURE_TOLERANCE_SECONDS} seconds from the server clock`,
  no_match: 'The signature did not match the current secret (nor the previous one during its grace period)',
};
