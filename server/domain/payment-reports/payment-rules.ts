import type { Issue, PaymentProvider } from '../../../contract/common/index.js';
import type { ReportStatus } from '../../../contract/payment-reports.js';

/** What one observation says about its payment; the unit the rules and the projection work on. */
export interface Fact {
  id: string;
  status: ReportStatus;
  currency: string;
  amountMinor: number;
  capturedAmountMinor: number;
  refundedAmountMinor: number;
  occurredAt: Date;
  receivedAt: Date;
  providerPaymentId: string | null;
  accountId: string | null;
  chargeId: string | null;
  orderId: string | null;
  /** A merchant's report, or a verified provider delivery; absent in facts built by unit tests (a merchant report). */
  evidence?: 'merchant_report' | 'provider_verified';
}

const conflict = (code: string, path: string, message: string): Issue => ({ code, path, message });

const PAYMENT_ID_PATH: Record<PaymentProvider, string> = { gwa: 'transactionId', gwb: 'paymentId', gwc: 'paymentIntentId' };
const ACCOUNT_PATH: Record<PaymentProvider, string> = { gwa: 'merchantAccountId', gwb: 'locationId', gwc: 'gwcAccountId' };

/** Order in which facts are replayed: observed time, then arrival, then id (total and stable). */
export function compareFacts(a: Fact, b: Fact): number {
  return (
    a.occurredAt.getTime() - b.occurredAt.getTime() ||
    a.receivedAt.getTime() - b.receivedAt.getTime() ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** True when `next` may become the current financial state after `current`: not older, no cumulative amount lower. */
export function supersedes(next: Fact, current: Fact): boolean {
  return (
    next.occurredAt.getTime() >= current.occurredAt.getTime() &&
    next.capturedAmountMinor >= current.capturedAmountMinor &&
    next.refundedAmountMinor >= current.refundedAmountMinor
  );
}

/**
 * The current state of a payment from all its facts: replayed in `compareFacts`
 * order, a fact replaces the state only when it `supersedes` it. Older or lower
 * reports stay history. Depends only on the set of facts, not delivery order.
 */
export function projectCurrent(facts: readonly Fact[]): Fact | undefined {
  const ordered = [...facts].sort(compareFacts);
  let current: Fact | undefined;
  for (const fact of ordered) if (!current || supersedes(fact, current)) current = fact;
  return current;
}

/** The first value each alias took, across all facts (conflicting later values are refused before storing). */
export function establishedAliases(facts: readonly Fact[]) {
  const ordered = [...facts].sort(compareFacts);
  const first = (pick: (f: Fact) => string | null) => ordered.map(pick).find((v) => v !== null) ?? null;
  return {
    providerPaymentId: first((f) => f.providerPaymentId),
    accountId: first((f) => f.accountId),
    chargeId:
      [...ordered]
        .reverse()
        .map((f) => f.chargeId)
        .find((v) => v !== null) ?? null,
    orderId: first((f) => f.orderId),
  };
}

/**
 * Why a new report cannot join its payment's history (409), per provider
 * (docs/payment-reports.md): conflicting stable aliases for all; for gwc any
 * cumulative amount lower than, or an observed time earlier than, the current
 * state; for gwa an attempt amount that differs, or cumulative amounts that
 * contradict any earlier or later report. The order rules (gwc C5, C6; gwa C8)
 * hold a merchant's reports to the merchant's own reports: provider evidence
 * arrives asynchronously and in any order, so it is never refused for order and
 * never makes a merchant's report of another moment a conflict; the projection
 * keeps the latest state (docs/gwc-events.md, docs/payment-reports.md).
 */
export function conflictIssues(provider: PaymentProvider, incoming: Fact, existing: readonly Fact[]): Issue[] {
  if (existing.length === 0) return [];
  const issues: Issue[] = [];
  const aliases = establishedAliases(existing);
  const currency = [...existing].sort(compareFacts)[0]!.currency;
  if (incoming.currency !== currency) {
    issues.push(conflict('currency_conflict', 'currency', `This attempt was reported in ${currency}`));
  }
  if (
    incoming.providerPaymentId !== null &&
    aliases.providerPaymentId !== null &&
    incoming.providerPaymentId !== aliases.providerPaymentId
  ) {
    issues.push(conflict('identity_conflict', PAYMENT_ID_PATH[provider], 'This attempt is already linked to another provider payment'));
  }
  if (incoming.accountId !== null && aliases.accountId !== null && incoming.accountId !== aliases.accountId) {
    issues.push(conflict('account_conflict', ACCOUNT_PATH[provider], 'This attempt was reported under another account'));
  }

  const merchantOnly = existing.filter((f) => (f.evidence ?? 'merchant_report') === 'merchant_report');
  if (provider === 'gwc' && (incoming.evidence ?? 'merchant_report') === 'merchant_report' && merchantOnly.length > 0) {
    const current = projectCurrent(merchantOnly)!;
    if (incoming.capturedAmountMinor < current.capturedAmountMinor) {
      issues.push(conflict('cumulative_amount_decreased', 'capturedAmountMinor', 'The cumulative captured amount cannot go down'));
    }
    if (incoming.refundedAmountMinor < current.refundedAmountMinor) {
      issues.push(conflict('cumulative_amount_decreased', 'refundedAmountMinor', 'The cumulative refunded amount cannot go down'));
    }
    if (incoming.occurredAt.getTime() < current.occurredAt.getTime()) {
      issues.push(conflict('observation_time_backward', 'occurredAt', 'occurredAt is earlier than the current state of this payment'));
    }
  }

  if (provider === 'gwa') {
    if (existing.some((f) => f.amountMinor !== incoming.amountMinor)) {
      issues.push(conflict('amount_conflict', 'amountMinor', 'The attempt amount differs from earlier reports of this attempt'));
    }
  }
  // C8 holds a merchant's report to the merchant's own: a notification carries no refund (a refund is its own
  // transaction), so its amounts are the refunds known when it arrived, and holding either to the other would make the
  // outcome depend on arrival order.
  if (provider === 'gwa' && (incoming.evidence ?? 'merchant_report') === 'merchant_report') {
    const t = incoming.occurredAt.getTime();
    const contradicts = merchantOnly.some((f) => {
      const ft = f.occurredAt.getTime();
      const lowerThanEarlier =
        ft <= t && (f.capturedAmountMinor > incoming.capturedAmountMinor || f.refundedAmountMinor > incoming.refundedAmountMinor);
      const higherThanLater =
        ft >= t && (f.capturedAmountMinor < incoming.capturedAmountMinor || f.refundedAmountMinor < incoming.refundedAmountMinor);
      return lowerThanEarlier || higherThanLater;
    });
    if (contradicts) {
      issues.push(
        conflict(
          'cumulative_amount_conflict',
          'capturedAmountMinor',
          'The cumulative amounts contradict earlier or later reports of this attempt',
        ),
      );
    }
  }
  return issues;
}
