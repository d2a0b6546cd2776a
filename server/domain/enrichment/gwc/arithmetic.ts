import type { GwcPaymentIntentEnrichmentData } from '../../../../contract/enrichment.js';
import { sum } from '../decimal.js';

/**
 * The amount gwc derives from `amount_details` (docs/provider-facts.md §3.4):
 * Σ(unit_cost × quantity − line discount + line tax) − discount + tax + shipping.
 */
export function amountDetailsTotal(details: GwcPaymentIntentEnrichmentData['amount_details']): bigint {
  const lines = sum(
    details.line_items.map(
      (line) =>
        BigInt(line.unit_cost) * BigInt(line.quantity) - BigInt(line.discount_amount ?? 0) + BigInt(line.tax?.total_tax_amount ?? 0),
    ),
  );
  return lines - BigInt(details.discount_amount ?? 0) + BigInt(details.tax?.total_tax_amount ?? 0) + BigInt(details.shipping?.amount ?? 0);
}
