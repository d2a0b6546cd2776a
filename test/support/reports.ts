import { randomUUID } from 'node:crypto';

/** A valid gwc report; override any field. Amounts default to a captured 10.00 usd. */
export function gwcReport(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    eventId: `evt_${randomUUID()}`,
    attemptId: `att_${randomUUID()}`,
    status: 'captured',
    currency: 'usd',
    amountMinor: 1000,
    capturedAmountMinor: 1000,
    refundedAmountMinor: 0,
    occurredAt: '2026-01-10T10:00:00.000Z',
    source: 'api',
    ...overrides,
  };
}

export const gwbReport = gwcReport;

export function gwaReport(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return gwcReport({ source: 'merchant_webhook', ...overrides });
}

export const reportFor = { gwa: gwaReport, gwb: gwbReport, gwc: gwcReport } as const;
