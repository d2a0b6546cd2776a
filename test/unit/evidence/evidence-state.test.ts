import { describe, expect, it } from 'vitest';
import { csvRecord } from '../../../server/domain/evidence/csv.js';
import {
  ageHours,
  EVIDENCE_STATES,
  evidenceState,
  factKeysOf,
  factsOfKey,
  FACT_KEY_COUNT,
  keyOfFacts,
  monthOf,
  shareDecimal,
  type EvidenceFacts,
} from '../../../server/domain/evidence/evidence-state.js';
import { summarize } from '../../../server/domain/evidence/evidence-summary.js';

/** A verified chain; each test changes what it is about. */
const verified: EvidenceFacts = {
  enhanced: true,
  exception: false,
  payment: true,
  captured: true,
  verifiedCapture: true,
  amountMatches: true,
  currencyMatches: true,
};

/** docs/evidence.md, "States". */
describe('evidence state of one preparation', () => {
  it('when enhanced, captured per a verified provider event, amount and currency equal, then verified', () => {
    expect(evidenceState(verified)).toBe('verified');
  });
  it('when captured per merchant reports only, then reported_only', () => {
    expect(evidenceState({ ...verified, verifiedCapture: false })).toBe('reported_only');
  });
  it('when there is no payment, or a payment without a capture, then unconfirmed', () => {
    const none = { ...verified, payment: false, captured: false, verifiedCapture: false, amountMatches: false, currencyMatches: false };
    expect(evidenceState(none)).toBe('unconfirmed');
    expect(evidenceState({ ...verified, captured: false, verifiedCapture: false })).toBe('unconfirmed');
  });
  it('when a correlation exception names the preparation, then exception, over verified', () => {
    expect(evidenceState({ ...verified, exception: true })).toBe('exception');
    expect(evidenceState({ ...verified, exception: true, captured: false, verifiedCapture: false })).toBe('exception');
  });
  it('when the payment amount or currency differs without a recorded exception, then exception, never verified', () => {
    expect(evidenceState({ ...verified, amountMatches: false })).toBe('exception');
    expect(evidenceState({ ...verified, currencyMatches: false })).toBe('exception');
  });
  it('when ordinary, then ordinary whatever else holds', () => {
    expect(evidenceState({ ...verified, enhanced: false })).toBe('ordinary');
    expect(evidenceState({ ...verified, enhanced: false, exception: true })).toBe('ordinary');
  });
  it('when facts are packed as a key and back, then they are the same; every key has exactly one state', () => {
    for (let key = 0; key < FACT_KEY_COUNT; key++) expect(keyOfFacts(factsOfKey(key))).toBe(key);
    const all = EVIDENCE_STATES.flatMap((s) => factKeysOf(s)).sort((a, b) => a - b);
    expect(all).toEqual([...Array(FACT_KEY_COUNT).keys()]);
    expect(factKeysOf('verified')).toEqual([keyOfFacts(verified)]);
  });
});

describe('evidence figures', () => {
  it('when a share is computed, then it is exact integers rounded half up to 4 places, null over 0', () => {
    expect(shareDecimal(1n, 3n)).toBe('0.3333');
    expect(shareDecimal(2n, 3n)).toBe('0.6667');
    expect(shareDecimal(1n, 8n)).toBe('0.1250');
    expect(shareDecimal(1n, 20000n)).toBe('0.0001');
    expect(shareDecimal(5n, 5n)).toBe('1.0000');
    expect(shareDecimal(0n, 0n)).toBeNull();
    // Past 2^53, where a float quotient of floats would not be exact.
    expect(shareDecimal(9_007_199_254_740_993n, 18_014_398_509_481_986n)).toBe('0.5000');
  });
  it('when an instant is at a month boundary, then its month is the UTC one', () => {
    expect(monthOf(new Date('2026-01-31T23:59:59.999Z'))).toBe('2026-01');
    expect(monthOf(new Date('2026-02-01T00:00:00.000Z'))).toBe('2026-02');
    expect(monthOf(new Date('2026-02-01T00:30:00.000+01:00'))).toBe('2026-01');
  });
  it('when a preparation is unconfirmed, then its age is whole hours', () => {
    expect(ageHours(new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T02:59:59Z'))).toBe(2);
  });
  it('when fact groups are summarized, then each state sums its keys and the share is verified over all net volume', () => {
    const base = { integrationId: 'i1', provider: 'gwc' as const, month: '2026-01', currency: 'usd' };
    const rows = summarize([
      { ...base, factKey: keyOfFacts(verified), count: 2, netMinor: 9_007_199_254_740_993n },
      { ...base, factKey: keyOfFacts({ ...verified, verifiedCapture: false }), count: 1, netMinor: 300n },
      { ...base, factKey: keyOfFacts({ ...verified, enhanced: false }), count: 1, netMinor: 700n },
      { ...base, factKey: keyOfFacts({ ...verified, exception: true }), count: 1, netMinor: 0n },
      { ...base, factKey: keyOfFacts({ ...verified, amountMatches: false }), count: 1, netMinor: 5n },
      { ...base, currency: 'eur', factKey: keyOfFacts({ ...verified, captured: false, verifiedCapture: false }), count: 4, netMinor: 0n },
    ]);
    expect(rows).toEqual([
      {
        ...base,
        currency: 'eur',
        count: 4,
        netMinor: '0',
        states: {
          verified: { count: 0, netMinor: '0' },
          reported_only: { count: 0, netMinor: '0' },
          unconfirmed: { count: 4, netMinor: '0' },
          exception: { count: 0, netMinor: '0' },
          ordinary: { count: 0, netMinor: '0' },
        },
        verifiedShare: { numerator: '0', denominator: '0', decimal: null },
      },
      {
        ...base,
        count: 6,
        netMinor: '9007199254741998',
        states: {
          verified: { count: 2, netMinor: '9007199254740993' },
          reported_only: { count: 1, netMinor: '300' },
          unconfirmed: { count: 0, netMinor: '0' },
          exception: { count: 2, netMinor: '5' },
          ordinary: { count: 1, netMinor: '700' },
        },
        verifiedShare: { numerator: '9007199254740993', denominator: '9007199254741998', decimal: '1.0000' },
      },
    ]);
  });
  it('when a record is written as CSV, then fields with a comma, quote or line break are quoted and quotes doubled', () => {
    expect(csvRecord(['a', 'b,c', 'say "hi"', 'x\r\ny', null, 12])).toBe('a,"b,c","say ""hi""","x\r\ny",,12\r\n');
  });
});
