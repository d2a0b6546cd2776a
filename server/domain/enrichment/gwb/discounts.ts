import type { CanonicalInvoice } from '../../../../contract/canonical-invoice.js';
import type { Issue } from '../../../../contract/common/index.js';
import type { GwbDiscount } from '../../../../contract/enrichment.js';
import { linePath, type InvoiceFacts } from '../canonical-checks.js';
import { sum } from '../decimal.js';
import { issue } from '../issue-codes.js';

export type GwbRepresentation = 'order' | 'line_item';

/**
 * A line's taxable amount after discounts as gwb may compute it: `low` when its
 * share of an order discount is rounded up, `high` when rounded down; equal when exact.
 */
export interface TaxableBase {
  readonly low: bigint;
  readonly high: bigint;
}

export interface DiscountPlan {
  readonly discounts: GwbDiscount[];
  /** Discount uid per ordered line (same order as `facts.lines`), or `null`. */
  readonly appliedUids: (string | null)[];
  readonly bases: TaxableBase[];
  /** Σ line subtotals − discount: the taxable total, however gwb spreads the discount. */
  readonly taxableTotal: bigint;
  readonly issues: Issue[];
}

/**
 * The invoice discount as gwb FIXED_AMOUNT discounts (docs/provider-facts.md §2.1).
 * `order`: one ORDER-scoped discount, which gwb spreads over the lines in
 * proportion to their subtotals; its rounding is undocumented, so each line's
 * share is taken to be the floor or the ceiling of its exact share, the shares
 * adding up to the discount (an assumption, unconfirmed: docs/provider-facts.md §2.1).
 * `line_item`: one LINE_ITEM-scoped discount per discounted line.
 */
export function planDiscounts(
  invoice: CanonicalInvoice,
  facts: InvoiceFacts,
  representation: GwbRepresentation,
  currency: string,
): DiscountPlan {
  const grosses = facts.lines.map(({ line }) => BigInt(line.subtotalAmountMinor));
  const grossTotal = sum(grosses);
  const discount = BigInt(invoice.discountAmountMinor);
  const discounts: GwbDiscount[] = [];
  const appliedUids: (string | null)[] = facts.lines.map(() => null);
  const issues: Issue[] = [];
  let bases: TaxableBase[] = grosses.map((gross) => ({ low: gross, high: gross }));
  const plan = () => ({ discounts, appliedUids, bases, taxableTotal: grossTotal - discount, issues });
  if (discount === 0n) return plan();

  if (representation === 'line_item') {
    if (facts.discountLevel === 'transaction') issues.push(issue('line_discount_not_allocated', 'discountRepresentation'));
    facts.lines.forEach(({ line, index }, position) => {
      const lineDiscount = BigInt(line.discountAmountMinor);
      const gross = grosses[position] ?? 0n;
      if (lineDiscount === 0n) return;
      // gwb caps a discount at the amount it applies to, which would change the total.
      if (lineDiscount > gross) issues.push(issue('discount_not_representable', linePath(index, 'discountAmountMinor')));
      const uid = `discount-line-${line.sequence}`;
      discounts.push(fixedAmount(uid, `Discount on line ${line.sequence}`, lineDiscount, 'LINE_ITEM', currency));
      appliedUids[position] = uid;
      bases[position] = { low: gross - lineDiscount, high: gross - lineDiscount };
    });
    return plan();
  }

  if (discount > grossTotal) {
    issues.push(issue('discount_not_representable', 'invoice.discountAmountMinor', 'It exceeds the lines subtotal.'));
    return plan();
  }
  discounts.push(fixedAmount('discount-order', 'Invoice discount', discount, 'ORDER', currency));
  bases = grosses.map((gross) => {
    const scaled = discount * gross; // the exact share is scaled / grossTotal
    const floor = scaled / grossTotal;
    const ceiling = scaled % grossTotal === 0n ? floor : floor + 1n;
    return { low: gross - ceiling, high: gross - floor };
  });
  return plan();
}

function fixedAmount(uid: string, name: string, amount: bigint, scope: GwbDiscount['scope'], currency: string): GwbDiscount {
  return { uid, name, type: 'FIXED_AMOUNT', amount_money: { amount: Number(amount), currency }, scope };
}
