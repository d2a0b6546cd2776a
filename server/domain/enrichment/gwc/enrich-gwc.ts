import type { Issue } from '../../../../contract/common/index.js';
import type { GwcLineItem, GwcPaymentIntentEnrichmentData, GwcPaymentIntentEnrichmentRequest } from '../../../../contract/enrichment.js';
import { checkCanonicalInvoice, type InvoiceFacts, type OrderedLine } from '../canonical-checks.js';
import { issue } from '../issue-codes.js';
import {
  checkIdentifier,
  checkLineCount,
  checkNameLength,
  checkWholeQuantity,
  type IdentifierRule,
  type WholeQuantityLimit,
} from '../line-rules.js';
import type { EnrichmentResult } from '../result.js';
import { presentText } from '../text.js';
import { sameAmount } from '../decimal.js';
import { amountDetailsTotal } from './arithmetic.js';
import * as limits from './limits.js';

type Representation = 'transaction' | 'line_item';
const identifier = { maxLength: limits.GWC_MAX_IDENTIFIER, printableAscii: false } as const;
const productCodeRule: IdentifierRule = { ...identifier, field: 'productCode', missingCode: 'missing_product_code' };
const commodityCodeRule: IdentifierRule = { ...identifier, field: 'commodityCode' };
const unitRule: IdentifierRule = { ...identifier, field: 'unitOfMeasure', missingCode: 'missing_unit_of_measure' };
const quantityLimit: WholeQuantityLimit = { maxValue: limits.GWC_MAX_QUANTITY };

/**
 * PaymentIntent `payment_details` and `amount_details` for gwc (spec: endpoint 10)
 * that pass gwc's arithmetic validation against the invoice total.
 */
export function enrichGwc(request: GwcPaymentIntentEnrichmentRequest): EnrichmentResult<GwcPaymentIntentEnrichmentData> {
  const { invoice } = request;
  const options = request.options ?? {};
  const taxAt: Representation = options.taxRepresentation ?? 'transaction';
  const discountAt: Representation = options.discountRepresentation ?? 'transaction';
  const { issues, facts } = checkCanonicalInvoice(invoice);
  issues.push(...checkLineCount(invoice.lineItems.length, limits.GWC_MAX_LINE_ITEMS));
  issues.push(...checkRepresentations(invoice, facts, taxAt, discountAt));
  const lineItems: GwcLineItem[] = [];
  for (const ordered of facts.lines) {
    const item = mapLine(ordered, taxAt, discountAt, issues);
    if (item) lineItems.push(item);
  }
  if (issues.length > 0) return { ok: false, issues };

  const orderReference = presentText(options.orderReference) ?? presentText(invoice.purchaseOrderReference) ?? invoice.invoiceNumber;
  const customerReference = presentText(options.customerReference);
  const { fromPostalCode = null, toPostalCode = null } = options.shipping ?? {};
  const shipping = {
    ...(invoice.shippingAmountMinor > 0 ? { amount: invoice.shippingAmountMinor } : {}),
    ...(fromPostalCode !== null ? { from_postal_code: fromPostalCode } : {}),
    ...(toPostalCode !== null ? { to_postal_code: toPostalCode } : {}),
  };
  const data: GwcPaymentIntentEnrichmentData = {
    payment_details: {
      order_reference: orderReference,
      ...(customerReference !== null ? { customer_reference: customerReference } : {}),
    },
    amount_details: {
      enforce_arithmetic_validation: true,
      line_items: lineItems,
      ...(taxAt === 'transaction' ? { tax: { total_tax_amount: invoice.taxAmountMinor } } : {}),
      ...(discountAt === 'transaction' && invoice.discountAmountMinor > 0 ? { discount_amount: invoice.discountAmountMinor } : {}),
      ...(Object.keys(shipping).length > 0 ? { shipping } : {}),
    },
  };
  // gwc refuses the payment when its arithmetic fails (enforce_arithmetic_validation), so re-check what we emit.
  const computed = amountDetailsTotal(data.amount_details);
  return sameAmount(computed, invoice.totalAmountMinor)
    ? { ok: true, data }
    : { ok: false, issues: [issue('arithmetic_mismatch', 'invoice.totalAmountMinor', `gwc would compute ${computed}.`)] };
}

/**
 * Line-level representation needs the invoice to hold the amount on its lines
 * (spec: endpoint 10, "line tax must reconcile to the invoice tax"); gwc also
 * rejects tax, shipping and discount that together exceed the amount
 * (docs/provider-facts.md §3.4, amount_details_tax_shipping_discount_greater_than_amount).
 */
function checkRepresentations(
  invoice: GwcPaymentIntentEnrichmentRequest['invoice'],
  facts: InvoiceFacts,
  taxAt: Representation,
  discountAt: Representation,
): Issue[] {
  const issues: Issue[] = [];
  if (taxAt === 'line_item' && invoice.taxAmountMinor > 0 && facts.taxLevel === 'transaction') {
    issues.push(issue('line_tax_not_allocated', 'options.taxRepresentation'));
  }
  if (discountAt === 'line_item' && invoice.discountAmountMinor > 0 && facts.discountLevel === 'transaction') {
    issues.push(issue('line_discount_not_allocated', 'options.discountRepresentation'));
  }
  const adjustments = BigInt(invoice.taxAmountMinor) + BigInt(invoice.shippingAmountMinor) + BigInt(invoice.discountAmountMinor);
  if (adjustments > BigInt(invoice.totalAmountMinor)) {
    issues.push(issue('tax_shipping_discount_exceed_amount', 'invoice.totalAmountMinor'));
  }
  return issues;
}

/** The line as gwc takes it, or `null` when it raises an issue (added to `issues`). */
function mapLine(ordered: OrderedLine, taxAt: Representation, discountAt: Representation, issues: Issue[]): GwcLineItem | null {
  const before = issues.length;
  checkNameLength(ordered, limits.GWC_MAX_PRODUCT_NAME, issues);
  const qty = checkWholeQuantity(ordered, quantityLimit, issues);
  const productCode = checkIdentifier(ordered, productCodeRule, issues);
  const commodityCode = checkIdentifier(ordered, commodityCodeRule, issues);
  const unit = checkIdentifier(ordered, unitRule, issues);
  if (issues.length > before || qty === null || productCode === null || unit === null) return null;
  const { line } = ordered;
  // Optional fields are assigned, not spread from temporary objects, in the wire order.
  const item: GwcLineItem = {
    product_name: line.productName,
    product_code: productCode,
    unit_cost: line.unitAmountMinor,
    quantity: Number(qty),
    unit_of_measure: unit,
  };
  if (taxAt === 'line_item') item.tax = { total_tax_amount: line.taxAmountMinor };
  // gwc requires discount_amount > 0 (docs/provider-facts.md §3.2): a zero discount is omitted.
  if (discountAt === 'line_item' && line.discountAmountMinor > 0) item.discount_amount = line.discountAmountMinor;
  if (commodityCode !== null) item.payment_method_options = { card: { commodity_code: commodityCode } };
  return item;
}
