import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conflictIssues, establishedAliases, projectCurrent, type Fact } from '../../../server/domain/payment-reports/payment-rules.js';

let n = 0;
const fact = (overrides: Partial<Fact>): Fact => ({
  id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  status: 'captured',
  currency: 'usd',
  amountMinor: 1000,
  capturedAmountMinor: 1000,
  refundedAmountMinor: 0,
  occurredAt: new Date('2026-01-10T10:00:00Z'),
  receivedAt: new Date('2026-01-10T10:00:01Z'),
  providerPaymentId: null,
  accountId: null,
  chargeId: null,
  orderId: null,
  ...overrides,
});
const at = (minute: number) => new Date(Date.UTC(2026, 0, 10, 10, minute));
const codes = (issues: { code: string; path: string }[]) => issues.map((i) => `${i.code}@${i.path}`);

describe('conflicts (docs/payment-reports.md)', () => {
  it('C1: when the currency differs from the attempt, then currency_conflict (every provider)', () => {
    for (const provider of ['gwa', 'gwb', 'gwc'] as const) {
      expect(codes(conflictIssues(provider, fact({ currency: 'eur', occurredAt: at(5) }), [fact({})]))).toContain(
        'currency_conflict@currency',
      );
    }
  });

  it('C2: when the provider payment identity differs, then identity_conflict on the provider field', () => {
    const existing = [fact({ providerPaymentId: 'p1' })];
    expect(codes(conflictIssues('gwa', fact({ providerPaymentId: 'p2', occurredAt: at(5) }), existing))).toEqual([
      'identity_conflict@transactionId',
    ]);
    expect(codes(conflictIssues('gwb', fact({ providerPaymentId: 'p2', occurredAt: at(5) }), existing))).toEqual([
      'identity_conflict@paymentId',
    ]);
    expect(codes(conflictIssues('gwc', fact({ providerPaymentId: 'pi_2', occurredAt: at(5) }), existing))).toEqual([
      'identity_conflict@paymentIntentId',
    ]);
  });

  it('C4: when the account differs, then account_conflict on the provider field', () => {
    const existing = [fact({ accountId: 'acct_1' })];
    expect(codes(conflictIssues('gwc', fact({ accountId: 'acct_2', occurredAt: at(5) }), existing))).toEqual([
      'account_conflict@gwcAccountId',
    ]);
    expect(codes(conflictIssues('gwb', fact({ accountId: 'L2', occurredAt: at(5) }), existing))).toEqual(['account_conflict@locationId']);
    expect(codes(conflictIssues('gwa', fact({ accountId: 'm2', occurredAt: at(5) }), existing))).toEqual([
      'account_conflict@merchantAccountId',
    ]);
  });

  it('C5: when a gwc report lowers a cumulative amount, then cumulative_amount_decreased', () => {
    const existing = [fact({ status: 'partially_refunded', refundedAmountMinor: 300, occurredAt: at(1) })];
    expect(codes(conflictIssues('gwc', fact({ occurredAt: at(5) }), existing))).toEqual([
      'cumulative_amount_decreased@refundedAmountMinor',
    ]);
    expect(
      codes(
        conflictIssues('gwc', fact({ status: 'authorized', capturedAmountMinor: 0, occurredAt: at(5) }), [fact({ occurredAt: at(1) })]),
      ),
    ).toEqual(['cumulative_amount_decreased@capturedAmountMinor']);
  });

  it('C6: when a gwc report is observed before the current state, then observation_time_backward', () => {
    expect(codes(conflictIssues('gwc', fact({ occurredAt: at(0) }), [fact({ occurredAt: at(1) })]))).toEqual([
      'observation_time_backward@occurredAt',
    ]);
    expect(conflictIssues('gwc', fact({ occurredAt: at(1) }), [fact({ occurredAt: at(1) })])).toEqual([]);
  });

  it('C7: when a gwa report changes the attempt amount, then amount_conflict', () => {
    expect(codes(conflictIssues('gwa', fact({ amountMinor: 900, capturedAmountMinor: 900, occurredAt: at(5) }), [fact({})]))).toEqual([
      'amount_conflict@amountMinor',
      'cumulative_amount_conflict@capturedAmountMinor',
    ]);
  });

  it('C8: when gwa cumulative amounts contradict earlier or later reports, then cumulative_amount_conflict', () => {
    const captured = fact({ occurredAt: at(5) });
    // lower than a report observed earlier
    expect(codes(conflictIssues('gwa', fact({ status: 'unknown', capturedAmountMinor: 0, occurredAt: at(9) }), [captured]))).toEqual([
      'cumulative_amount_conflict@capturedAmountMinor',
    ]);
    // higher than a report observed later
    const refundedLater = fact({ status: 'partially_refunded', refundedAmountMinor: 200, occurredAt: at(9) });
    expect(
      codes(
        conflictIssues('gwa', fact({ status: 'partially_refunded', refundedAmountMinor: 500, occurredAt: at(7) }), [
          captured,
          refundedLater,
        ]),
      ),
    ).toEqual(['cumulative_amount_conflict@capturedAmountMinor']);
    // P5: an earlier consistent report is not a conflict
    expect(conflictIssues('gwa', fact({ status: 'authorized', capturedAmountMinor: 0, occurredAt: at(1) }), [captured])).toEqual([]);
  });

  it("C8: when a gwa notification and the merchant's reports differ in refunds, then neither is a conflict for the other", () => {
    const provider = (overrides: Partial<Fact>) => fact({ evidence: 'provider_verified', ...overrides });
    const partly = fact({ status: 'partially_refunded', refundedAmountMinor: 250, occurredAt: at(20) });
    // a settlement stamped before the refund, carrying the full refund known when it arrived
    const settled = provider({ status: 'refunded', refundedAmountMinor: 1000, occurredAt: at(10) });
    expect(conflictIssues('gwa', settled, [fact({ occurredAt: at(0) }), partly])).toEqual([]);
    // a merchant's refund observed before a disbursement that knew of no refund
    const disbursed = provider({ occurredAt: at(40) });
    expect(conflictIssues('gwa', fact({ status: 'refunded', refundedAmountMinor: 1000, occurredAt: at(30) }), [disbursed])).toEqual([]);
    // the merchant's own reports still bind each other, and C7 binds everyone
    expect(codes(conflictIssues('gwa', fact({ status: 'captured', occurredAt: at(30) }), [partly, disbursed]))).toEqual([
      'cumulative_amount_conflict@capturedAmountMinor',
    ]);
    expect(codes(conflictIssues('gwa', provider({ amountMinor: 900, capturedAmountMinor: 900 }), [partly]))).toEqual([
      'amount_conflict@amountMinor',
    ]);
  });

  it('P3/P4: when a gwb report is older or lower, then it is no conflict (kept as history)', () => {
    const current = fact({ status: 'partially_refunded', refundedAmountMinor: 300, occurredAt: at(5) });
    expect(conflictIssues('gwb', fact({ occurredAt: at(1) }), [current])).toEqual([]);
    expect(conflictIssues('gwb', fact({ occurredAt: at(9) }), [current])).toEqual([]);
  });
});

describe('projection (docs/payment-reports.md)', () => {
  it('P2: when captured, partially_refunded and refunded arrive in order, then each becomes current', () => {
    const captured = fact({ occurredAt: at(1) });
    const partial = fact({ status: 'partially_refunded', refundedAmountMinor: 400, occurredAt: at(2) });
    const refunded = fact({ status: 'refunded', refundedAmountMinor: 1000, occurredAt: at(3) });
    expect(projectCurrent([captured])).toBe(captured);
    expect(projectCurrent([captured, partial])).toBe(partial);
    expect(projectCurrent([captured, partial, refunded])).toBe(refunded);
  });

  it('P3/P4: when an older or lower report joins, then the current state does not change', () => {
    const current = fact({ status: 'partially_refunded', refundedAmountMinor: 300, occurredAt: at(5) });
    expect(projectCurrent([current, fact({ occurredAt: at(1) })])).toBe(current);
    expect(projectCurrent([current, fact({ occurredAt: at(9) })])).toBe(current);
  });

  it('P6: when the identity arrives in a later report, then the payment carries it', () => {
    expect(
      establishedAliases([fact({ occurredAt: at(1) }), fact({ providerPaymentId: 'pay_1', occurredAt: at(2) })]).providerPaymentId,
    ).toBe('pay_1');
  });

  it('P8: when the same facts arrive in any order, then the projection is the same', () => {
    const history = [
      fact({ status: 'authorized', capturedAmountMinor: 0, occurredAt: at(1) }),
      fact({ status: 'captured', occurredAt: at(2) }),
      fact({ status: 'unknown', occurredAt: at(3) }),
      fact({ status: 'partially_refunded', refundedAmountMinor: 100, occurredAt: at(4) }),
      fact({ status: 'partially_refunded', refundedAmountMinor: 600, occurredAt: at(6) }),
      fact({ status: 'refunded', refundedAmountMinor: 1000, occurredAt: at(8) }),
      fact({ status: 'captured', occurredAt: at(9) }),
    ];
    const expected = projectCurrent(history);
    expect(expected?.status).toBe('refunded');
    fc.assert(
      fc.property(fc.shuffledSubarray(history, { minLength: history.length, maxLength: history.length }), (shuffled) => {
        expect(projectCurrent(shuffled)).toBe(expected);
      }),
    );
  });
});
