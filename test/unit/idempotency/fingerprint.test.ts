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

  it('when values are generated at random, then the canonical JSON is JSON.stringify of the same value with its keys sorted', () => {
    let seed = 20261123;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const generate = (depth: number): unknown => {
      const choice = next(depth > 3 ? 5 : 8);
      if (choice === 0) return null;
      if (choice === 1) return next(2) === 0;
      if (choice === 2) return next(1_000_000) - 500_000;
      if (choice === 3) return `s${next(1000)}"\\é`;
      if (choice === 4) return undefined;
      if (choice === 5) return Array.from({ length: next(4) }, () => generate(depth + 1));
      return Object.fromEntries(Array.from({ length: next(5) }, () => [`k${next(20)}`, generate(depth + 1)]));
    };
    const sorted = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map((x) => (x === undefined ? null : sorted(x)))
        : v !== null && typeof v === 'object'
          ? Object.fromEntries(
              Object.keys(v)
                .sort()
                .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
            )
          : v;
    for (let i = 0; i < 500; i++) {
      const value = { root: generate(0) };
      expect(canonicalJson(value)).toBe(JSON.stringify(sorted(value)));
    }
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
