import type { Provider } from '../enrichment/index.js';
import type { StoredInvoice } from '../../../contract/invoices.js';
import type { LineField, Product3Field, RiskFinding, TransactionField } from './fields.js';

/**
 * Which Product 3 field each invoice-backed output sends, and under which output key
 * (docs/network-qualification.md, "What each output carries"). `null`: the output has no
 * place for it. gwb sends no field the card networks receive as enhanced data
 * (docs/provider-facts.md §2.1), so it carries none.
 */
export const CARRIED: { readonly [P in Provider]: { readonly [F in Product3Field]: string | null } } = {
  gwa: {
    tax: 'taxAmount',
    discount: 'discountAmount',
    freight: 'shippingAmount',
    duty: null,
    // Accepted by the provider, but the invoice-backed output has no value for them (the mapper reads no address).
    ship_from_postal_code: null,
    destination_postal_code: null,
    customer_code: 'purchaseOrderNumber',
    order_reference: 'orderId',
    descriptor: 'lineItems[].name',
    product_code: 'lineItems[].productCode',
    commodity_code: 'lineItems[].commodityCode',
    quantity: 'lineItems[].quantity',
    unit_of_measure: 'lineItems[].unitOfMeasure',
    unit_cost: 'lineItems[].unitAmount',
    line_discount: 'lineItems[].discountAmount',
    line_total: 'lineItems[].totalAmount',
  },
  gwb: {
    tax: null,
    discount: null,
    freight: null,
    duty: null,
    ship_from_postal_code: null,
    destination_postal_code: null,
    customer_code: null,
    order_reference: null,
    descriptor: null,
    product_code: null,
    commodity_code: null,
    quantity: null,
    unit_of_measure: null,
    unit_cost: null,
    line_discount: null,
    line_total: null,
  },
  gwc: {
    tax: 'amount_details.tax.total_tax_amount',
    discount: 'amount_details.discount_amount',
    freight: 'amount_details.shipping.amount',
    duty: null,
    ship_from_postal_code: null,
    destination_postal_code: null,
    // gwc's one reference for enhanced rates (docs/provider-facts.md §3.3) carries the invoice number.
    customer_code: 'payment_details.order_reference',
    order_reference: 'payment_details.order_reference',
    descriptor: 'amount_details.line_items[].product_name',
    product_code: 'amount_details.line_items[].product_code',
    commodity_code: 'amount_details.line_items[].payment_method_options.card.commodity_code',
    quantity: 'amount_details.line_items[].quantity',
    unit_of_measure: 'amount_details.line_items[].unit_of_measure',
    unit_cost: 'amount_details.line_items[].unit_cost',
    line_discount: 'amount_details.line_items[].discount_amount',
    // gwc takes no line total: it derives it from unit_cost × quantity − discount (docs/provider-facts.md §3.4).
    line_total: 'amount_details.line_items[].unit_cost',
  },
};

/**
 * Line fields without which the output sends no line items at all (the enrichment core
 * refuses the invoice: missing_product_code, missing_unit_of_measure, and the required
 * name, quantity and unit amount), so a line lacking one leaves the output at `none`.
 */
export const ESSENTIAL_LINE_FIELDS: readonly LineField[] = ['descriptor', 'product_code', 'quantity', 'unit_of_measure', 'unit_cost'];

/**
 * Transaction fields the output cannot go without: gwa refuses an invoice without the buyer's
 * PO (missing_purchase_order_number); every output refuses an unknown tax (fact_unavailable).
 */
export const ESSENTIAL_TRANSACTION_FIELDS: { readonly [P in Provider]: readonly TransactionField[] } = {
  gwa: ['tax', 'customer_code', 'order_reference'],
  gwb: [],
  gwc: ['tax', 'order_reference'],
};

/**
 * Stored values an output sends in place of the usual one (docs/network-qualification.md):
 * gwc's invoice-backed reference is the invoice number (spec: Enrichment outputs, gwc).
 */
export const VALUE_OVERRIDES: { readonly [P in Provider]?: Partial<Record<TransactionField, keyof StoredInvoice>> } = {
  gwc: { customer_code: 'invoiceNumber' },
};

/** Per provider, only findings on fields that output carries are shown. */
export function carriedRisks(provider: Provider, risks: readonly RiskFinding[]): RiskFinding[] {
  const carried = CARRIED[provider];
  return risks.filter((r) => carried[r.field] !== null);
}
