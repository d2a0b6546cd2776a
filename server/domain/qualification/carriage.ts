import type { Provider } from '../enrichment/index.js';
import type { LineField, Product3Field, RiskFinding, TransactionField } from './fields.js';

/**
 * Where each invoice-backed output has a place for each Product 3 field: its output key
 * (docs/network-qualification.md, "What each output carries"). `null`: the output has no
 * place for it. A place is not always filled: see `UNSENT_VALUES` and, for values the mapper
 * does not store, levels.ts. gwb sends no field the card networks receive as enhanced data
 * (docs/provider-facts.md §2.1), so it carries none.
 */
export const CARRIED: { readonly [P in Provider]: { readonly [F in Product3Field]: string | null } } = {
  gwa: {
    tax: 'taxAmount',
    discount: 'discountAmount',
    freight: 'shippingAmount',
    duty: null,
    // Filled only from an inline request's options: the mapper reads no address (levels.ts).
    ship_from_postal_code: 'shipsFromPostalCode',
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
    // Filled only from an inline request's options: the mapper reads no address (levels.ts).
    ship_from_postal_code: 'amount_details.shipping.from_postal_code',
    destination_postal_code: 'amount_details.shipping.to_postal_code',
    // A reference apart from order_reference (docs/provider-facts.md §3.3), which invoice-backed outputs never fill.
    customer_code: 'payment_details.customer_reference',
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
 * Stored values an output has a place for but does not send from an invoice, so fixing the source does not help
 * (reason `not_mapped`): gwc's invoice-backed `customer_reference` is filled only from an inline request's options,
 * and its `order_reference` is the invoice number, not the buyer's PO (spec: Enrichment outputs, gwc).
 */
export const UNSENT_VALUES: { readonly [P in Provider]: readonly TransactionField[] } = {
  gwa: [],
  gwb: [],
  gwc: ['customer_code'],
};

/** Per provider, only findings on fields that output sends are shown. */
export function carriedRisks(provider: Provider, risks: readonly RiskFinding[]): RiskFinding[] {
  const carried = CARRIED[provider];
  const unsent: readonly string[] = UNSENT_VALUES[provider];
  return risks.filter((r) => carried[r.field] !== null && !unsent.includes(r.field));
}
