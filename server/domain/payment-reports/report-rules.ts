import type { Issue } from '../../../contract/common/index.js';
import type { PaymentReport, ReportStatus } from '../../../contract/payment-reports.js';

/** How far in the future `occurredAt` may be (spec: Limits). */
export const MAX_FUTURE_SKEW_MS = 5 * 60 * 1000;

type Amounts = Pick<PaymentReport, 'amountMinor' | 'capturedAmountMinor' | 'refundedAmountMinor'>;

const issue = (code: string, path: string, message: string): Issue => ({ code, path, message });

/** The capture/refund constraint of each status (spec: Report statuses). */
function statusIssues(status: ReportStatus, a: Amounts): Issue[] {
  const captured = a.capturedAmountMinor;
  const refunded = a.refundedAmountMinor;
  switch (status) {
    case 'requires_action':
    case 'authorized':
    case 'failed':
    case 'canceled': {
      const out: Issue[] = [];
      if (captured !== 0) out.push(issue('status_amount_mismatch', 'capturedAmountMinor', `A ${status} report has no captured amount (0)`));
      if (refunded !== 0) out.push(issue('status_amount_mismatch', 'refundedAmountMinor', `A ${status} report has no refunded amount (0)`));
      return out;
    }
    case 'captured': {
      const out: Issue[] = [];
      if (captured <= 0)
        out.push(issue('status_amount_mismatch', 'capturedAmountMinor', 'A captured report needs a captured amount above 0'));
      if (refunded !== 0)
        out.push(
          issue(
            'status_amount_mismatch',
            'refundedAmountMinor',
            'A captured report has no refunded amount (0); use partially_refunded or refunded',
          ),
        );
      return out;
    }
    case 'partially_refunded':
      return refunded > 0 && refunded < captured
        ? []
        : [
            issue(
              'status_amount_mismatch',
              'refundedAmountMinor',
              'A partially_refunded report needs a refunded amount above 0 and below the captured amount',
            ),
          ];
    case 'refunded':
      return captured > 0 && refunded === captured
        ? []
        : [
            issue(
              'status_amount_mismatch',
              'refundedAmountMinor',
              'A refunded report needs a captured amount above 0 and a refunded amount equal to it',
            ),
          ];
    case 'unknown':
      return [];
  }
}

/**
 * Rules of a single report that the schema cannot express, all answered with
 * 400: amount invariants, the per-status amounts, and `occurredAt` at most five
 * minutes ahead of the server clock.
 */
export function reportRuleIssues(report: PaymentReport, now: Date): Issue[] {
  const issues: Issue[] = [];
  if (report.capturedAmountMinor > report.amountMinor) {
    issues.push(issue('amount_invariant', 'capturedAmountMinor', 'The captured amount cannot exceed amountMinor'));
  }
  if (report.refundedAmountMinor > report.capturedAmountMinor) {
    issues.push(issue('amount_invariant', 'refundedAmountMinor', 'The refunded amount cannot exceed the captured amount'));
  }
  issues.push(...statusIssues(report.status, report));
  if (Date.parse(report.occurredAt) - now.getTime() > MAX_FUTURE_SKEW_MS) {
    issues.push(issue('occurred_at_in_future', 'occurredAt', 'occurredAt is more than 5 minutes in the future'));
  }
  return issues;
}
