import { describe, expect, it } from 'vitest';
import {
  effectOf,
  eventIdOf,
  identityOf,
  normalizeGwaStatus,
  providerEventIdOf,
  toMinorUnits,
} from '../../../server/domain/webhooks/gwa/effects.js';
import type { Notification } from '../../../server/domain/webhooks/gwa/notification.js';

const at = new Date('2026-01-10T10:00:00Z');
const txn = (fields: Partial<NonNullable<Notification['subject']['transaction']>> = {}, kind = 'transaction_settled'): Notification => ({
  kind,
  timestamp: at,
  sourceMerchantId: null,
  subject: {
    type: 'transaction',
    id: fields.id ?? 'abc123',
    transaction: {
      id: 'abc123',
      status: 'settled',
      type: 'sale',
      amount: '100',
      currencyIsoCode: 'USD',
      merchantAccountId: 'acct',
      refundedTransactionId: null,
      ...fields,
    },
  },
});

describe('gwa notification effects', () => {
  it.each([
    ['authorized', 'authorized'],
    ['submitted_for_settlement', 'captured'],
    ['settling', 'captured'],
    ['settlement_pending', 'captured'],
    ['settled', 'captured'],
    ['settlement_confirmed', 'captured'],
    ['voided', 'canceled'],
    ['authorization_expired', 'canceled'],
    ['processor_declined', 'failed'],
    ['gateway_rejected', 'failed'],
    ['settlement_declined', 'failed'],
    ['failed', 'failed'],
    ['authorizing', 'unknown'],
    ['something_new', 'unknown'],
  ])('when the provider status is %s, then the report status is %s', (provider, report) => {
    expect(normalizeGwaStatus(provider)).toBe(report);
  });

  it('when amounts are decimal strings, then minor units are exact and excess precision is refused', () => {
    expect(toMinorUnits('100', 2)).toBe(10000);
    expect(toMinorUnits('250.0', 2)).toBe(25000);
    expect(toMinorUnits('10.50', 2)).toBe(1050);
    expect(toMinorUnits('0.29', 2)).toBe(29);
    expect(toMinorUnits('1.10000', 2)).toBe(110);
    expect(toMinorUnits('90071992547409.91', 2)).toBe(9007199254740991);
    expect(toMinorUnits('90071992547409.92', 2)).toBeUndefined();
    for (const bad of ['10.001', '-1', '1e3', '01', '', '1.', ' 1']) expect(toMinorUnits(bad, 2)).toBeUndefined();
    expect(toMinorUnits('100', 0)).toBe(100);
  });

  it('when a notification is identified, then endpoint, kind, timestamp and subject id name it and the eventId ignores the endpoint', () => {
    const n = txn();
    expect(identityOf('e1', n)).toEqual({ endpointId: 'e1', kind: 'transaction_settled', timestamp: at, subjectId: 'abc123' });
    expect(providerEventIdOf(n)).toBe('transaction_settled:abc123:2026-01-10T10:00:00.000Z');
    expect(eventIdOf(n)).toMatch(/^gwa_webhook_[0-9a-f]{40}$/);
    expect(eventIdOf(n)).toBe(eventIdOf(txn()));
    expect(eventIdOf(n)).not.toBe(eventIdOf({ ...n, timestamp: new Date(at.getTime() + 1000) }));
  });

  it('when a settled sale has no tracked payment, then a captured observation under the transaction attempt is built', () => {
    expect(effectOf(txn(), undefined)).toEqual({
      kind: 'observation',
      report: {
        eventId: eventIdOf(txn()),
        attemptId: 'gwa_transaction_abc123',
        status: 'captured',
        currency: 'usd',
        amountMinor: 10000,
        capturedAmountMinor: 10000,
        refundedAmountMinor: 0,
        occurredAt: '2026-01-10T10:00:00.000Z',
        providerEventId: 'transaction_settled:abc123:2026-01-10T10:00:00.000Z',
        source: 'merchant_webhook',
        transactionId: 'abc123',
        merchantAccountId: 'acct',
      },
    });
  });

  it('when the payment is tracked with refunds, then its attempt is used and the refunds are kept', () => {
    const link = { attemptId: 'att_1', currency: 'usd', capturedAmountMinor: 10000, refundedAmountMinor: 10000 };
    const effect = effectOf(txn(), link);
    expect(effect).toMatchObject({ kind: 'observation', report: { attemptId: 'att_1', status: 'refunded', refundedAmountMinor: 10000 } });
    const partial = effectOf(txn(), { ...link, refundedAmountMinor: 100 });
    expect(partial).toMatchObject({ report: { status: 'partially_refunded', capturedAmountMinor: 10000, refundedAmountMinor: 100 } });
  });

  it('when the kind or the transaction has no payment effect, then none', () => {
    expect(effectOf(txn({}, 'refund_failed'), undefined)).toEqual({ kind: 'none' });
    expect(effectOf(txn({ type: 'credit' }), undefined)).toEqual({ kind: 'none' });
    expect(
      effectOf(
        { kind: 'check', timestamp: at, sourceMerchantId: null, subject: { type: 'check', id: null, transaction: null } },
        undefined,
      ),
    ).toEqual({
      kind: 'none',
    });
  });

  it('when a disbursed notification has no status or currency, then it is a settled USD capture', () => {
    const n = txn({ status: null, type: null, currencyIsoCode: null }, 'transaction_disbursed');
    expect(effectOf(n, undefined)).toMatchObject({
      kind: 'observation',
      report: { status: 'captured', currency: 'usd', capturedAmountMinor: 10000 },
    });
    const declined = txn({ status: null }, 'transaction_settlement_declined');
    expect(effectOf(declined, undefined)).toMatchObject({ report: { status: 'failed', capturedAmountMinor: 0 } });
  });

  it('when the amount or the transaction id is unusable, then the notification is invalid', () => {
    expect(effectOf(txn({ amount: '1.005' }), undefined)).toMatchObject({ kind: 'invalid' });
    expect(effectOf(txn({ amount: null }), undefined)).toMatchObject({ kind: 'invalid' });
    expect(effectOf(txn({ amount: '0' }), undefined)).toMatchObject({ kind: 'invalid' });
    expect(effectOf(txn({ id: 'ABC-1' }), undefined)).toMatchObject({ kind: 'invalid' });
  });
});
