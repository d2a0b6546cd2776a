import type { GwcPaymentIntentEnrichmentData } from '../../../../contract/enrichment.js';
import { minus, plus, times, type ExactAmount } from '../decimal.js';

/**
 * The amount gwc derives from `amount_details` (docs/provider-facts.md §3.4):
 * Σ(unit_cost × quantity − line discount + line tax) − discount + tax + shipping.
 */
export function amountDetailsTotal(details: GwcPaymentIntentEnrichmentData['amount_details']): ExactAmount {
  let lines: ExactAmount = 0;
  for (const line of details.line_items) {
    const amount = plus(minus(times(line.unit_cost, line.quantity), line.discount_amount ?? 0), line.tax?.total_tax_amount ?? 0);
    lines = plus(lines, amount);
  }
  return plus(plus(minus(lines, details.discount_amount ?? 0), details.tax?.total_tax_amount ?? 0), details.shipping?.amount ?? 0);
}
