import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * The tag new API keys carry (docs/decisions.md, "Issued keys told from forged ones"): an HMAC-SHA256 under a key
 * derived from the service's token key (SVC_TOKEN_KEY, or `<SVC_DATA_DIR>/token-key`), so every process and
 * instance that shares the token key recognizes the keys any of them issued, without a lookup. Truncated to 64 bits:
 * enough that a forged key passes only by a 2^-64 chance, and the pass only buys it the lookup it would have had.
 */
export interface ApiKeyMac {
  /** The 16 hex digits of the tag over `material`. */
  tag(material: string): string;
  /** Constant-time: whether `tag` is the tag over `material`. */
  verifies(material: string, tag: string): boolean;
}

const TAG_HEX = 16;

export function apiKeyMac(tokenKey: Buffer): ApiKeyMac {
  // Its own key, derived for this one use: the token key itself only ever encrypts.
  const key = Buffer.from(hkdfSync('sha256', tokenKey, Buffer.alloc(0), 'svc api-key mac v1', 32));
  const tag = (material: string) => createHmac('sha256', key).update(material, 'utf8').digest('hex').slice(0, TAG_HEX);
  return {
    tag,
    verifies(material, presented) {
      if (presented.length !== TAG_HEX) return false;
      return timingSafeEqual(Buffer.from(tag(material), 'latin1'), Buffer.from(presented, 'latin1'));
    },
  };
}
