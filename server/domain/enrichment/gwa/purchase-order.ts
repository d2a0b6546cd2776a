import type { CanonicalInvoice } from '../../../../contract/canonical-invoice.js';
import type { Issue } from '../../../../contract/common/index.js';
import { issue } from '../issue-codes.js';
import { codePointsOver, isPrintableAscii, presentText } from '../text.js';
import { GWA_MAX_PURCHASE_ORDER_NUMBER } from './limits.js';

export type PurchaseOrderNumberSource = 'purchase_order' | 'invoice_number';

/**
 * The buyer's PO, or the invoice number when the caller attests buyers use it as
 * their reference (spec: endpoint 2, options.purchaseOrderNumberSource). Never
 * invented, never truncated: a missing or unfit one is an issue.
 */
export function resolvePurchaseOrderNumber(
  invoice: CanonicalInvoice,
  source: PurchaseOrderNumberSource,
): { value: string | null; issues: Issue[] } {
  const [raw, path] =
    source === 'invoice_number'
      ? [invoice.invoiceNumber, 'invoice.invoiceNumber']
      : [invoice.purchaseOrderReference, 'invoice.purchaseOrderReference'];
  const value = presentText(raw);
  if (value === null) return { value, issues: [issue('missing_purchase_order_number', path)] };
  const issues: Issue[] = [];
  if (codePointsOver(value, GWA_MAX_PURCHASE_ORDER_NUMBER) !== null) issues.push(issue('purchase_order_number_too_long', path));
  if (!isPrintableAscii(value)) issues.push(issue('purchase_order_number_invalid', path));
  return { value, issues };
}
