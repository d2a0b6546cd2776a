import type { CanonicalInvoice } from '../../../../contract/canonical-invoice.js';
import type { Issue } from '../../../../contract/common/index.js';
import type { GwbTax } from '../../../../contract/enrichment.js';
import { linePath, type InvoiceFacts } from '../canonical-checks.js';
import { issue } from '../issue-codes.js';
import type { DiscountPlan, GwbRepresentation } from './discounts.js';
import { findPercentage, taxOn, type TaxConstraint } from './percentage.js';

export interface TaxPlan {
  readonly taxes: GwbTax[];
  /** Tax uid per ordered line (same order as `facts.lines`), or `null`. */
  readonly appliedUids: (string | null)[];
  readonly issues: Issue[];
}

/**
 * The invoice tax as gwb ADDITIVE percentage taxes whose computed amounts equal
 * the invoice's exactly, or `tax_not_representable` (docs/provider-facts.md §2.2).
 * gwb taxes the amount after discounts and rounds once per tax on the amount it
 * covers: an order tax on the order's discounted total (gwb forum threads in
 * docs/provider-facts.md §2.2: 8.875 % of 6.95 + 6.95 + 8 + 15 gives 3.27, not the 3.28 of
 * per-line rounding). Hence:
 * `order`: one ORDER-scoped tax on Σ subtotals − discount, however the discount is spread.
 * `line_item`: one LINE_ITEM-scoped tax per taxed line, which must hold for
 * either rounding of the line's share of an order discount.
 */
export function planTaxes(
  invoice: CanonicalInvoice,
  facts: InvoiceFacts,
  representation: GwbRepresentation,
  discounts: DiscountPlan,
): TaxPlan {
  const plan: TaxPlan = { taxes: [], appliedUids: facts.lines.map(() => null), issues: [] };
  const tax = BigInt(invoice.taxAmountMinor);
  if (tax === 0n) return plan;

  if (representation === 'order') {
    const percentage = findPercentage([{ taxAt: (units, scale) => taxOn(discounts.taxableTotal, units, scale), target: tax }]);
    if (percentage === null) plan.issues.push(issue('tax_not_representable', 'invoice.taxAmountMinor'));
    else plan.taxes.push({ uid: 'tax-order', name: 'Sales tax', type: 'ADDITIVE', percentage, scope: 'ORDER' });
    return plan;
  }

  if (facts.taxLevel === 'transaction') plan.issues.push(issue('line_tax_not_allocated', 'taxRepresentation'));
  facts.lines.forEach(({ line, index }, position) => {
    const target = BigInt(line.taxAmountMinor);
    const base = discounts.bases[position];
    if (target === 0n || base === undefined) return;
    const constraints: TaxConstraint[] = [
      { taxAt: (units, scale) => taxOn(base.low, units, scale), target },
      { taxAt: (units, scale) => taxOn(base.high, units, scale), target },
    ];
    const percentage = findPercentage(constraints);
    if (percentage === null) {
      plan.issues.push(issue('tax_not_representable', linePath(index, 'taxAmountMinor')));
      return;
    }
    const uid = `tax-line-${line.sequence}`;
    plan.taxes.push({ uid, name: `Tax on line ${line.sequence}`, type: 'ADDITIVE', percentage, scope: 'LINE_ITEM' });
    plan.appliedUids[position] = uid;
  });
  return plan;
}
