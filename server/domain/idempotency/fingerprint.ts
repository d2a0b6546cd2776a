import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth and `undefined` members left
 * out, so two requests that mean the same thing serialise to the same text
 * whatever order their client wrote the keys in. Array order is meaningful and
 * kept.
 */
export function canonicalJson(value: unknown): string {
  // Plain loops: every payment report and preparation computes one (its fingerprint).
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + (value[i] === undefined ? 'null' : canonicalJson(value[i]));
    return `${out}]`;
  }
  let out = '{';
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(member)}`;
  }
  return `${out}}`;
}

/** SHA-256 (hex) of the canonical JSON of a normalized request: what an idempotent write stores beside its key. */
export function requestFingerprint(normalized: unknown): string {
  return createHash('sha256').update(canonicalJson(normalized), 'utf8').digest('hex');
}
