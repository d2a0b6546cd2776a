import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth and `undefined` members left
 * out, so two requests that mean the same thing serialise to the same text
 * whatever order their client wrote the keys in. Array order is meaningful and
 * kept.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 (hex) of the canonical JSON of a normalized request: what an idempotent write stores beside its key. */
export function requestFingerprint(normalized: unknown): string {
  return createHash('sha256').update(canonicalJson(normalized), 'utf8').digest('hex');
}
