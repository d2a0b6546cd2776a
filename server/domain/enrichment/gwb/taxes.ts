import type { CanonicalInvoice } from '../../../../contract/canonical-invoice.js';
import type { Issue } from '../../../../contract/common/index.js';
import type { GwbTax } from '../../../../contract/enrichment.js';
import { linePath, type InvoiceFacts } from '../canonical-checks.js';
import { issue } from '../issue-codes.js';
import { sum } from '../decimal.js';
import type { DiscountPlan, GwbRepresentation, TaxableBase } from './discounts.js';
import { findPercentage, taxOn, type TaxConstraint } from './percentage.js';

export interface TaxPlan {
  readonly taxes: GwbTax[];
  /** Tax uid per ordered line (same order as `facts.lines`), or `null`. */
  readonly appliedUids: (string | null)[];
  readonly issues: Issue[];
}

/**
 * The invoice tax as gwb ADDITIVE percentage taxes whose computed amounts equal
 * the invoice's exactly, or `tax_not_representable` (providers.md §0.5).
 * `order`: one ORDER-scoped tax reproducing the invoice tax total.
 * `line_item`: one LINE_ITEM-scoped tax per taxed line reproducing that line's tax.
 * gwb taxes the amount after discounts; every percentage must hold for both
 * roundings of an apportioned discount and for per-line or whole-order rounding.
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
    const percentage = findPercentage([
      { taxAt: (units, scale) => taxOn(discounts.taxableTotal, units, scale), target: tax },
      { taxAt: perLineTax(discounts.bases, discounts.ceilingCount, 'least'), target: tax },
      { taxAt: perLineTax(discounts.bases, discounts.ceilingCount, 'most'), target: tax },
    ]);
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

/**
 * The least (or most) tax gwb can reach when it rounds each line's tax and
 * `ceilingCount` lines take the rounded-up discount share: those lines lose
 * the largest (or smallest) rounding differences. Non-decreasing in the percentage.
 */
function perLineTax(bases: readonly TaxableBase[], ceilingCount: number, bound: 'least' | 'most') {
  return (units: bigint, scale: number): bigint => {
    let total = 0n;
    const differences: bigint[] = [];
    for (const { low, high } of bases) {
      const taxHigh = taxOn(high, units, scale);
      total += taxHigh;
      if (low < high) differences.push(taxHigh - taxOn(low, units, scale));
    }
    differences.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const lost = bound === 'most' ? differences.slice(0, ceilingCount) : differences.slice(differences.length - ceilingCount);
    return total - sum(lost);
  };
}
