import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { GwaPaymentReport, ReportStatus } from '../../../../contract/payment-reports.js';
import type { WebhookEventStatusSchema } from '../../../../contract/webhooks.js';
import type { Notification, TransactionFields } from './notification.js';
import type { TrackedLink } from '../record-delivery.js';

/**
 * What a verified gwa notification does (docs/decisions.md, "gwa webhook"):
 * its identity, whether it becomes a payment observation, and the observation
 * itself. Pure; the intake (server/domain/webhooks/gwa/intake.ts) does the I/O.
 */

/** The `status` of a webhook acknowledgment, defined once in the contract (docs/decisions.md, "gwa webhook"). */
export type WebhookEventStatus = z.infer<typeof WebhookEventStatusSchema>;

/** Kinds whose subject is a sale transaction whose state they report; only these become payment observations. */
export const PAYMENT_KINDS: Readonly<Record<string, string>> = {
  transaction_settled: 'settled',
  transaction_settlement_declined: 'settlement_declined',
  // Deprecated by the provider, still delivered; a disbursed transaction is settled (docs/provider-facts.md §1.4).
  transaction_disbursed: 'settled',
};

/**
 * The identity of one notification: endpoint, kind, provider timestamp and
 * subject id. The provider re-sends a notification unchanged, so these four
 * name it; two different notifications never share all four.
 */
export interface NotificationIdentity {
  endpointId: string;
  kind: string;
  timestamp: Date;
  /** Empty when the subject has no id (`check`). */
  subjectId: string;
}

export const identityOf = (endpointId: string, n: Notification): NotificationIdentity => ({
  endpointId,
  kind: n.kind,
  timestamp: n.timestamp,
  subjectId: n.subject.id ?? '',
});

/** `providerEventId` of the observation: readable, stable, the notification without its endpoint. */
export const providerEventIdOf = (n: Notification): string => `${n.kind}:${n.subject.id ?? '-'}:${n.timestamp.toISOString()}`;

/**
 * `eventId` of the observation: a hash of kind, subject and timestamp, without the
 * endpoint, so one notification delivered to two endpoints of one integration is
 * one observation (the second is an identical retry of the first).
 */
export const eventIdOf = (n: Notification): string =>
  `gwa_webhook_${createHash('sha256').update(providerEventIdOf(n), 'utf8').digest('hex').slice(0, 40)}`;

/** gwa provider status → report status (spec: Provider state normalization; docs/provider-facts.md §1.3). */
export function normalizeGwaStatus(providerStatus: string): ReportStatus {
  switch (providerStatus) {
    case 'authorized':
      return 'authorized';
    case 'submitted_for_settlement':
    case 'settling':
    case 'settlement_pending':
    case 'settled':
    case 'settlement_confirmed':
      return 'captured';
    case 'voided':
    case 'authorization_expired':
      return 'canceled';
    case 'processor_declined':
    case 'gateway_rejected':
    case 'settlement_declined':
    case 'failed':
      return 'failed';
    default:
      // `authorizing` and any status the provider adds later: neither success nor failure.
      return 'unknown';
  }
}

/** Fraction digits of a currency's minor unit (ISO 4217); gwa settles USD (spec: Limits), the rest is defensive. */
const ZERO_DECIMAL = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'isk',
  'jpy',
  'kmf',
  'krw',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
]);
const THREE_DECIMAL = new Set(['bhd', 'iqd', 'jod', 'kwd', 'lyd', 'omr', 'tnd']);
export const minorDigits = (currency: string): number => (ZERO_DECIMAL.has(currency) ? 0 : THREE_DECIMAL.has(currency) ? 3 : 2);

/**
 * A decimal amount in major units (`"100"`, `"250.0"`, `"10.50"`) as an exact
 * integer of minor units, with string arithmetic only (never floats). Undefined
 * when it is not a plain non-negative decimal, has more significant fraction
 * digits than the currency allows, or exceeds the safe integer range.
 */
export function toMinorUnits(amount: string, digits: number): number | undefined {
  const match = /^(0|[1-9][0-9]{0,17})(?:\.([0-9]{1,12}))?$/.exec(amount);
  if (!match) return undefined;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > digits) return undefined;
  const minor = BigInt(match[1]!) * 10n ** BigInt(digits) + BigInt(fraction.padEnd(digits, '0') || '0');
  return minor <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(minor) : undefined;
}

export type Effect = { kind: 'observation'; report: GwaPaymentReport } | { kind: 'none' } | { kind: 'invalid'; reason: string };

/** The attempt id of a transaction nobody reported yet (docs/decisions.md, "gwa webhook": attempt linking). */
export const attemptIdForTransaction = (transactionId: string): string => `gwa_transaction_${transactionId}`;

/**
 * The payment observation a notification carries, if any. Only sale
 * transactions of the payment kinds have one; a credit (a refund is its own
 * transaction, docs/provider-facts.md §1.3) and every other kind have none. A
 * captured state keeps the refunds already known for the payment, so the
 * status becomes partially_refunded or refunded as the spec's gwa table says.
 */
export function effectOf(n: Notification, link: TrackedLink | undefined): Effect {
  const impliedStatus = PAYMENT_KINDS[n.kind];
  const t: TransactionFields | null = n.subject.transaction;
  if (impliedStatus === undefined || t === null) return { kind: 'none' };
  if (t.type !== null && t.type !== 'sale') return { kind: 'none' };

  const currency = t.currencyIsoCode?.toLowerCase() ?? link?.currency ?? 'usd';
  if (!/^[a-z]{3}$/.test(currency)) return { kind: 'invalid', reason: 'The transaction has an invalid <currency-iso-code>' };
  if (t.amount === null) return { kind: 'invalid', reason: 'The transaction has no <amount>' };
  const amountMinor = toMinorUnits(t.amount, minorDigits(currency));
  if (amountMinor === undefined || amountMinor === 0) return { kind: 'invalid', reason: 'The transaction <amount> is not a valid amount' };
  if (!/^[a-z0-9]+$/.test(t.id) || t.id.length > 160)
    return { kind: 'invalid', reason: 'The transaction <id> is not a gwa transaction id' };

  let status = normalizeGwaStatus(t.status ?? impliedStatus);
  let captured = 0;
  let refunded = 0;
  if (status === 'captured') {
    captured = amountMinor;
    refunded = Math.min(link?.refundedAmountMinor ?? 0, captured);
    if (refunded > 0) status = refunded === captured ? 'refunded' : 'partially_refunded';
  }
  const report: GwaPaymentReport = {
    eventId: eventIdOf(n),
    attemptId: link?.attemptId ?? attemptIdForTransaction(t.id),
    status: status as GwaPaymentReport['status'],
    currency,
    amountMinor,
    capturedAmountMinor: captured,
    refundedAmountMinor: refunded,
    occurredAt: n.timestamp.toISOString(),
    providerEventId: providerEventIdOf(n),
    ...(link?.enrichmentRequestId ? { enrichmentRequestId: link.enrichmentRequestId } : {}),
    source: 'merchant_webhook',
    transactionId: t.id,
    ...(t.merchantAccountId !== null && t.merchantAccountId.length <= 160 ? { merchantAccountId: t.merchantAccountId } : {}),
  };
  return { kind: 'observation', report };
}
