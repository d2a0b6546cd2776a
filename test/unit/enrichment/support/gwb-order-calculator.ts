import type { GwbOrderEnrichmentData } from '../../../../contract/enrichment.js';

/**
 * An independent model of how gwb totals an order (docs/provider-facts.md §2.1-2.2),
 * written from the provider's rules rather than from the code under test:
 * gross = base price × quantity; LINE_ITEM fixed discounts come off their line;
 * an ORDER fixed discount is spread over the lines in proportion to what is left,
 * shares rounded down with the remainder handed out per `allocation` (gwb does
 * not document it); each tax is a percentage of the discounted amount of the
 * lines it covers (all lines for an ORDER tax), rounded half to even once;
 * total-phase service charges are added last.
 */
export type Allocation = 'first' | 'last' | 'largest-remainder';
export const ALLOCATIONS: Allocation[] = ['first', 'last', 'largest-remainder'];

export function gwbOrderTotal(order: GwbOrderEnrichmentData, allocation: Allocation): bigint {
  const lines = order.line_items.map((line) => ({
    uid: line.uid,
    gross: BigInt(line.base_price_money.amount) * BigInt(line.quantity),
    discounted: 0n,
    discountUids: (line.applied_discounts ?? []).map((d) => d.discount_uid),
    taxUids: (line.applied_taxes ?? []).map((t) => t.tax_uid),
  }));
  let discountTotal = 0n;
  for (const discount of order.discounts ?? []) {
    const amount = BigInt(discount.amount_money.amount);
    if (discount.scope === 'LINE_ITEM') {
      const applied = lines.filter((l) => l.discountUids.includes(discount.uid));
      if (applied.length !== 1) throw new Error('a line-item discount must apply to exactly one line here');
      const [target] = applied;
      const taken = amount < target!.gross ? amount : target!.gross;
      target!.discounted += taken;
      discountTotal += taken;
    } else {
      const shares = spread(
        amount,
        lines.map((l) => l.gross - l.discounted),
        allocation,
      );
      lines.forEach((l, i) => {
        l.discounted += shares[i]!;
      });
      discountTotal += amount;
    }
  }
  let taxTotal = 0n;
  for (const tax of order.taxes ?? []) {
    const [units, scale] = percentage(tax.percentage);
    const applied = tax.scope === 'ORDER' ? lines : lines.filter((l) => l.taxUids.includes(tax.uid));
    const base = applied.reduce((total, l) => total + l.gross - l.discounted, 0n);
    taxTotal += halfEven(base * units, 100n * 10n ** BigInt(scale));
  }
  const charges = (order.service_charges ?? []).reduce((total, c) => total + BigInt(c.amount_money.amount), 0n);
  const gross = lines.reduce((total, l) => total + l.gross, 0n);
  return gross - discountTotal + taxTotal + charges;
}

function spread(amount: bigint, weights: bigint[], allocation: Allocation): bigint[] {
  const total = weights.reduce((a, b) => a + b, 0n);
  const shares = weights.map((w) => (amount * w) / total);
  const remainders = weights.map((w, i) => ({ i, rest: (amount * w) % total }));
  let left = amount - shares.reduce((a, b) => a + b, 0n);
  const fractional = remainders.filter((r) => r.rest > 0n);
  if (allocation === 'last') fractional.reverse();
  if (allocation === 'largest-remainder') fractional.sort((a, b) => (a.rest > b.rest ? -1 : a.rest < b.rest ? 1 : 0));
  for (const { i } of fractional) {
    if (left === 0n) break;
    shares[i]! += 1n;
    left -= 1n;
  }
  return shares;
}

function percentage(text: string): [bigint, number] {
  const [whole = '0', fraction = ''] = text.split('.');
  return [BigInt(whole + fraction), fraction.length];
}

function halfEven(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const twice = (numerator % denominator) * 2n;
  if (twice !== denominator) return twice > denominator ? quotient + 1n : quotient;
  return quotient % 2n === 0n ? quotient : quotient + 1n;
}

/** gwb's total under every discount allocation modelled. */
export function gwbTotalsUnderEveryModel(order: GwbOrderEnrichmentData): bigint[] {
  return ALLOCATIONS.map((allocation) => gwbOrderTotal(order, allocation));
}
