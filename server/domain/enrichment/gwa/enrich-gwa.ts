import type { GwaLineItem, GwaTransactionEnrichmentData, GwaTransactionEnrichmentRequest } from '../../../../contract/enrichment.js';
import type { Issue } from '../../../../contract/common/index.js';
import { checkCanonicalInvoice, linePath, type OrderedLine } from '../canonical-checks.js';
import { formatMinor, parseMinor, sum } from '../decimal.js';
import { issue } from '../issue-codes.js';
import { checkFractionDigits, checkIdentifier, checkLineCount, type IdentifierRule } from '../line-rules.js';
import type { EnrichmentResult } from '../result.js';
import { presentText, shortenText } from '../text.js';
import * as limits from './limits.js';
import { resolvePurchaseOrderNumber } from './purchase-order.js';

const identifier = { maxLength: limits.GWA_MAX_IDENTIFIER, printableAscii: true } as const;
const productCodeRule: IdentifierRule = { ...identifier, field: 'productCode', missingCode: 'missing_product_code' };
const commodityCodeRule: IdentifierRule = { ...identifier, field: 'commodityCode' };
const unitRule: IdentifierRule = { ...identifier, field: 'unitOfMeasure', missingCode: 'missing_unit_of_measure' };

/**
 * Transaction fields for gwa's sale and submit-for-settlement calls (spec:
 * Enrichment outputs, gwa). Returns every issue found, or the fields.
 */
export function enrichGwa(request: GwaTransactionEnrichmentRequest): EnrichmentResult<GwaTransactionEnrichmentData> {
  const { invoice } = request;
  const { issues, facts } = checkCanonicalInvoice(invoice);
  if (invoice.currency !== limits.GWA_CURRENCY) {
    issues.push(issue('unsupported_currency', 'invoice.currency', 'gwa accepts only usd.'));
  }
  issues.push(...checkLineCount(invoice.lineItems.length, limits.GWA_MAX_LINE_ITEMS));
  const purchaseOrder = resolvePurchaseOrderNumber(invoice, request.options?.purchaseOrderNumberSource ?? 'purchase_order');
  issues.push(...purchaseOrder.issues);
  const lineItems: GwaLineItem[] = [];
  for (const ordered of facts.lines) {
    const item = mapLine(ordered, issues);
    if (item) lineItems.push(item);
  }
  if (issues.length > 0 || purchaseOrder.value === null) return { ok: false, issues };

  const shipsFromPostalCode = request.options?.shipsFromPostalCode;
  const data: GwaTransactionEnrichmentData = {
    amount: money(invoice.totalAmountMinor),
    orderId: invoice.invoiceNumber,
    purchaseOrderNumber: purchaseOrder.value,
    taxAmount: money(invoice.taxAmountMinor),
    shippingAmount: money(invoice.shippingAmountMinor),
    discountAmount: money(invoice.discountAmountMinor),
    ...(shipsFromPostalCode !== undefined ? { shipsFromPostalCode } : {}),
    lineItems,
  };
  const guard = checkOutputReconciles(data);
  return guard.length > 0 ? { ok: false, issues: guard } : { ok: true, data };
}

/** The line as gwa takes it, or `null` when it raises an issue (added to `issues`). */
function mapLine(ordered: OrderedLine, issues: Issue[]): GwaLineItem | null {
  const { line, index } = ordered;
  const before = issues.length;
  const qty = checkFractionDigits(ordered, limits.GWA_MAX_QUANTITY_FRACTION_DIGITS, issues);
  const productCode = checkIdentifier(ordered, productCodeRule, issues);
  const commodityCode = checkIdentifier(ordered, commodityCodeRule, issues);
  const unit = checkIdentifier(ordered, unitRule, issues);
  // gwa rejects unitAmount and totalAmount of zero (docs/provider-facts.md §1.2, codes 95817-95820, 95813-95816).
  if (line.unitAmountMinor === 0) issues.push(issue('zero_amount_line', linePath(index, 'unitAmountMinor')));
  if (issues.length > before || qty === null || productCode === null || unit === null) return null;
  const description = presentText(line.description);
  const item: GwaLineItem = {
    kind: 'debit',
    name: shortenText(line.productName, limits.GWA_MAX_LINE_NAME),
    ...(description !== null ? { description: shortenText(description, limits.GWA_MAX_LINE_DESCRIPTION) } : {}),
    productCode,
    ...(commodityCode !== null ? { commodityCode } : {}),
    quantity: qty,
    unitOfMeasure: unit,
    unitAmount: money(line.unitAmountMinor),
    totalAmount: money(line.subtotalAmountMinor),
    // Zero line tax or discount is omitted: gwa's references disagree on whether zero is allowed (docs/provider-facts.md §1.2).
    ...(line.taxAmountMinor > 0 ? { taxAmount: money(line.taxAmountMinor) } : {}),
    ...(line.discountAmountMinor > 0 ? { discountAmount: money(line.discountAmountMinor) } : {}),
  };
  return item;
}

function money(minor: number): string {
  return formatMinor(minor, limits.GWA_AMOUNT_FRACTION_DIGITS);
}

/**
 * gwa's gateway does not reconcile amounts (docs/provider-facts.md §1.2), so the service
 * re-checks the strings it emits: line totals + tax + shipping − discount = amount.
 */
function checkOutputReconciles(data: GwaTransactionEnrichmentData): Issue[] {
  const read = (text: string) => parseMinor(text, limits.GWA_AMOUNT_FRACTION_DIGITS) ?? -1n;
  const computed =
    sum(data.lineItems.map((l) => read(l.totalAmount))) + read(data.taxAmount) + read(data.shippingAmount) - read(data.discountAmount);
  return computed === read(data.amount)
    ? []
    : [issue('arithmetic_mismatch', 'invoice.totalAmountMinor', `The gwa fields add up to ${computed}.`)];
}
