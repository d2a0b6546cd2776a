import type { CategorizedIssue, IssueCategory, PaymentProvider } from '../../../contract/common/index.js';
import { GWA_ORDINARY_FALLBACK_CODES, type CheckoutMode, type StoredInvoice } from '../../../contract/invoices.js';

/**
 * Categories that mean "the invoice cannot produce valid fields" (422 on endpoints 1, 6 and 11, `ordinary` mode on
 * endpoint 12); every other category is a state conflict (409). docs/errors.md, "Invoice-backed preparation: 409 or 422".
 */
const FIELD_CATEGORIES: ReadonlySet<IssueCategory> = new Set(['mapping', 'validation']);

export const isFieldIssue = (i: CategorizedIssue) => FIELD_CATEGORIES.has(i.category);

const GWA_GAPS: ReadonlySet<string> = new Set(GWA_ORDINARY_FALLBACK_CODES);

/**
 * Whether the invoice's total, balance and currency are known exactly. Without them a payment amount was checked
 * against nothing, so no mode is offered: ordinary mode is for gaps in the enhanced fields only.
 */
export function paymentEstablished(invoice: StoredInvoice | null): boolean {
  return invoice !== null && invoice.totalAmountMinor !== null && invoice.balanceAmountMinor !== null && invoice.currency !== null;
}

/**
 * What a checkout of the invoice can be now (spec: Preparation mode): `enhanced` without issues; `ordinary` when every
 * issue is one the provider pays around — gwa: gaps in PO, SKU or unit ("downgrades the payment to ordinary instead of
 * blocking it"); gwc: any mapping or validation gap (endpoint 12's ordinary mode); gwb has no ordinary mode — and the
 * amount is established; `blocked` otherwise.
 */
export function checkoutModeOf(
  provider: PaymentProvider,
  issues: readonly CategorizedIssue[],
  invoice: StoredInvoice | null,
): CheckoutMode {
  if (issues.length === 0) return 'enhanced';
  if (!paymentEstablished(invoice)) return 'blocked';
  const payableAround =
    provider === 'gwa' ? (i: CategorizedIssue) => GWA_GAPS.has(i.code) : provider === 'gwc' ? isFieldIssue : () => false;
  return issues.every(payableAround) ? 'ordinary' : 'blocked';
}
