import { describe, expect, it } from 'vitest';
import type { PaymentReport } from '../../../contract/payment-reports.js';
import { reportRuleIssues } from '../../../server/domain/payment-reports/report-rules.js';

const NOW = new Date('2026-01-10T12:00:00.000Z');
const report = (overrides: Partial<PaymentReport>): PaymentReport =>
  ({
    eventId: 'e',
    attemptId: 'a',
    status: 'captured',
    currency: 'usd',
    amountMinor: 1000,
    capturedAmountMinor: 1000,
    refundedAmountMinor: 0,
    occurredAt: '2026-01-10T11:00:00.000Z',
    source: 'api',
    ...overrides,
  }) as PaymentReport;
const codes = (r: PaymentReport) => reportRuleIssues(r, NOW).map((i) => `${i.code}@${i.path}`);

describe('report rules (docs/payment-reports.md)', () => {
  it('V1: when captured exceeds the amount, then amount_invariant on capturedAmountMinor', () => {
    expect(codes(report({ capturedAmountMinor: 1001 }))).toEqual(['amount_invariant@capturedAmountMinor']);
  });

  it('V2: when refunded exceeds captured, then amount_invariant on refundedAmountMinor', () => {
    expect(codes(report({ status: 'unknown', capturedAmountMinor: 500, refundedAmountMinor: 600 }))).toEqual([
      'amount_invariant@refundedAmountMinor',
    ]);
  });

  it.each(['requires_action', 'authorized', 'failed', 'canceled'] as const)(
    'V3: when %s carries amounts, then status_amount_mismatch on each',
    (status) => {
      expect(codes(report({ status, capturedAmountMinor: 0, refundedAmountMinor: 0 }))).toEqual([]);
      expect(codes(report({ status, capturedAmountMinor: 500, refundedAmountMinor: 100 }))).toEqual([
        'status_amount_mismatch@capturedAmountMinor',
        'status_amount_mismatch@refundedAmountMinor',
      ]);
    },
  );

  it('V4: when captured has no capture or has a refund, then status_amount_mismatch', () => {
    expect(codes(report({ capturedAmountMinor: 0 }))).toEqual(['status_amount_mismatch@capturedAmountMinor']);
    expect(codes(report({ refundedAmountMinor: 10 }))).toEqual(['status_amount_mismatch@refundedAmountMinor']);
    expect(codes(report({ capturedAmountMinor: 400 }))).toEqual([]);
  });

  it('V5: when partially_refunded is not strictly between 0 and captured, then status_amount_mismatch', () => {
    expect(codes(report({ status: 'partially_refunded', refundedAmountMinor: 0 }))).toEqual(['status_amount_mismatch@refundedAmountMinor']);
    expect(codes(report({ status: 'partially_refunded', refundedAmountMinor: 1000 }))).toEqual([
      'status_amount_mismatch@refundedAmountMinor',
    ]);
    expect(codes(report({ status: 'partially_refunded', refundedAmountMinor: 999 }))).toEqual([]);
  });

  it('V6: when refunded does not refund the whole capture, then status_amount_mismatch', () => {
    expect(codes(report({ status: 'refunded', refundedAmountMinor: 999 }))).toEqual(['status_amount_mismatch@refundedAmountMinor']);
    expect(codes(report({ status: 'refunded', capturedAmountMinor: 0, refundedAmountMinor: 0 }))).toEqual([
      'status_amount_mismatch@refundedAmountMinor',
    ]);
    expect(codes(report({ status: 'refunded', refundedAmountMinor: 1000 }))).toEqual([]);
  });

  it('V7: when unknown keeps reconciling amounts, then it passes', () => {
    expect(codes(report({ status: 'unknown', capturedAmountMinor: 1000, refundedAmountMinor: 300 }))).toEqual([]);
    expect(codes(report({ status: 'unknown', capturedAmountMinor: 0, refundedAmountMinor: 0 }))).toEqual([]);
  });

  it('V8: when occurredAt is more than 5 minutes ahead, then occurred_at_in_future; exactly 5 minutes passes', () => {
    expect(codes(report({ occurredAt: '2026-01-10T12:05:00.000Z' }))).toEqual([]);
    expect(codes(report({ occurredAt: '2026-01-10T12:05:00.001Z' }))).toEqual(['occurred_at_in_future@occurredAt']);
    expect(codes(report({ occurredAt: '2026-01-10T14:05:01+02:00' }))).toEqual(['occurred_at_in_future@occurredAt']);
  });
});
