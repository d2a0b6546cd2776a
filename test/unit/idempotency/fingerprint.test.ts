import { describe, expect, it } from 'vitest';
import { canonicalJson, requestFingerprint } from '../../../server/domain/idempotency/fingerprint.js';
import { replayOrConflict } from '../../../server/domain/idempotency/idempotent-write.js';
import { DomainError } from '../../../server/domain/errors.js';

describe('request fingerprint', () => {
  it('when keys come in another order at any depth, then the canonical JSON and the fingerprint are the same', () => {
    const a = { b: 1, a: { y: [1, { q: 'x', p: null }], x: 'é' } };
    const b = { a: { x: 'é', y: [1, { p: null, q: 'x' }] }, b: 1 };
    expect(canonicalJson(a)).toBe('{"a":{"x":"é","y":[1,{"p":null,"q":"x"}]},"b":1}');
    expect(requestFingerprint(a)).toBe(requestFingerprint(b));
    expect(requestFingerprint(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('when a member is undefined, then it counts as absent; array order and every value still count', () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
    expect(requestFingerprint([1, 2])).not.toBe(requestFingerprint([2, 1]));
    expect(requestFingerprint({ amountMinor: 1000 })).not.toBe(requestFingerprint({ amountMinor: 1001 }));
    expect(requestFingerprint({ amountMinor: 1000 })).not.toBe(requestFingerprint({ amountMinor: '1000' }));
  });

  it('when the object is flat, then the fingerprint is the SHA-256 of its sorted JSON, as stored payment-report hashes were computed', () => {
    const report = { eventId: 'evt_1', amountMinor: 1000, currency: 'usd' };
    const sorted = JSON.stringify({ amountMinor: 1000, currency: 'usd', eventId: 'evt_1' });
    expect(canonicalJson(report)).toBe(sorted);
  });
});

describe('replay or conflict', () => {
  const conflict = {
    message: 'Key reused',
    issue: { code: 'idempotency_key_conflict', path: 'idempotencyKey', message: 'Reuse a key only for the same request' },
  };

  it('when the fingerprint matches, then the stored answer is returned', () => {
    expect(replayOrConflict({ fingerprint: 'f1' }, 'f1', () => 'stored', conflict)).toBe('stored');
  });

  it('when the fingerprint differs, then a 409 conflict with exactly the given issue', () => {
    let caught: unknown;
    try {
      replayOrConflict({ fingerprint: 'f1' }, 'f2', () => 'stored', conflict);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(DomainError);
    expect(caught).toMatchObject({ type: 'conflict', message: 'Key reused', issues: [conflict.issue] });
  });
});
