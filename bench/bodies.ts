import { randomUUID } from 'node:crypto';

/** Letters only: a random hex id can hold a Luhn-valid digit run, which the card-data guard refuses. */
const letters = (id: string) => id.replace(/[^A-Za-z0-9]/g, '').replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]!);

function gwcReport(eventId: string): string {
  return JSON.stringify({
    eventId,
    attemptId: `att_${eventId}`,
    status: 'captured',
    currency: 'usd',
    amountMinor: 12500,
    capturedAmountMinor: 12500,
    refundedAmountMinor: 0,
    occurredAt: '2026-01-10T10:00:00.000Z',
    source: 'api',
    paymentIntentId: `pi_${letters(eventId)}`,
  });
}

/** Request bodies the load generator can send, by name (it runs in its own process). */
export const bodyGenerators: Record<string, () => string> = {
  'report:unique': () => gwcReport(randomUUID()),
  'report:retry': () => gwcReport('evt_retry'),
};
