import type { StoredInvoice, StoredLine } from '../../../contract/invoices.js';
import type { Provider } from '../enrichment/index.js';
import { CARRIED, UNSENT_VALUES } from './carriage.js';
import { levelOfMissing } from './level-rule.js';
import {
  LINE_FIELDS,
  TRANSACTION_FIELDS,
  type LineField,
  type MissingField,
  type QualificationLevel,
  type TransactionField,
} from './fields.js';
import type { SourceFields, SourceLineDiscount } from './source-fields.js';

/**
 * The stored value behind each field. Duty and the two postal codes have none: the source
 * holds no duty, and the mapper reads no address, so an output with a place for a postal
 * code does not fill it from an invoice (reason `not_mapped`; docs/network-qualification.md).
 */
const INVOICE_VALUE: { readonly [F in TransactionField]: keyof StoredInvoice | null } = {
  tax: 'taxAmountMinor',
  discount: 'discountAmountMinor',
  freight: 'shippingAmountMinor',
  duty: null,
  ship_from_postal_code: null,
  destination_postal_code: null,
  customer_code: 'purchaseOrderReference',
  order_reference: 'invoiceNumber',
};

const INVOICE_PATH: { readonly [F in TransactionField]: string } = {
  tax: 'invoice.taxAmountMinor',
  discount: 'invoice.discountAmountMinor',
  freight: 'invoice.shippingAmountMinor',
  duty: 'invoice.dutyAmountMinor',
  ship_from_postal_code: 'invoice.shipFromPostalCode',
  destination_postal_code: 'invoice.destinationPostalCode',
  customer_code: 'invoice.purchaseOrderReference',
  order_reference: 'invoice.invoiceNumber',
};

export const LINE_VALUE: { readonly [F in LineField]: keyof StoredLine } = {
  descriptor: 'productName',
  product_code: 'productCode',
  commodity_code: 'commodityCode',
  quantity: 'quantity',
  unit_of_measure: 'unitOfMeasure',
  unit_cost: 'unitAmountMinor',
  line_discount: 'discountAmountMinor',
  line_total: 'subtotalAmountMinor',
};

/**
 * Line values the mapper never takes from the source: it leaves a line's discount empty, as the invoices it maps hold
 * their discounts on the invoice (map-lines.ts), so a discount the source line holds is not sent (reason `not_mapped`).
 */
const UNMAPPED_LINE_FIELDS: readonly LineField[] = ['line_discount'];

export function linePath(index: number, field: LineField): string {
  return `invoice.lineItems[${index}].${LINE_VALUE[field]}`;
}

/**
 * Whether a transaction field applies to the invoice. Amounts that are zero do not (nothing to
 * send); an unknown amount (`null`) does, conservatively. Postal codes apply when the goods were
 * shipped, read as "the invoice charges shipping". Duty never does: the source has no duty field,
 * so this service cannot know one was charged (docs/network-qualification.md, "The fields", column "Applies when").
 */
function applies(field: TransactionField, invoice: StoredInvoice): boolean {
  switch (field) {
    case 'discount':
      return invoice.discountAmountMinor !== 0;
    case 'freight':
    case 'ship_from_postal_code':
    case 'destination_postal_code':
      return invoice.shippingAmountMinor !== 0;
    case 'duty':
      return false;
    default:
      return true;
  }
}

/** A line discount applies only to a line that holds one: at the source, or on the stored line. */
function lineApplies(field: LineField, line: StoredLine, discount: SourceLineDiscount | undefined): boolean {
  return field !== 'line_discount' || discount?.held === true || (line.discountAmountMinor !== null && line.discountAmountMinor > 0);
}

function present(value: unknown): boolean {
  return typeof value === 'string' ? value.trim() !== '' : value !== null && value !== undefined;
}

/**
 * An applicable field an output will not send, as decided when the invoice is mapped: a transaction field, or a field of
 * the line at `line` (its index in the stored invoice). Why, its path and its source follow from the output and the
 * stored invoice (`missingFieldOf`).
 */
export type MissingAt =
  { readonly field: TransactionField; readonly line?: undefined } | { readonly field: LineField; readonly line: number };

/**
 * The level one provider's invoice-backed output reaches with this invoice, and every applicable field it will not send
 * (`discounts`: each line's discount at the source, `sourceLineDiscountsOf`).
 */
export function missingAtOf(
  provider: Provider,
  invoice: StoredInvoice,
  discounts: readonly SourceLineDiscount[],
): { level: QualificationLevel; missing: MissingAt[] } {
  const carried = CARRIED[provider];
  if (invoice.lineItems.length === 0 || Object.values(carried).every((key) => key === null)) return { level: 'none', missing: [] };
  const missing: MissingAt[] = [];
  for (const field of TRANSACTION_FIELDS) {
    if (!applies(field, invoice)) continue;
    const value = transactionValue(provider, field);
    if (carried[field] === null || value === null || !present(invoice[value])) missing.push({ field });
  }
  invoice.lineItems.forEach((line, index) => {
    for (const field of LINE_FIELDS) {
      if (!lineApplies(field, line, discounts[index])) continue;
      if (carried[field] === null || !present(line[LINE_VALUE[field]])) missing.push({ field, line: index });
    }
  });
  const level = levelOfMissing(provider, missing);
  return { level, missing };
}

/** A missing field as shown: why the output does not send it, the stored invoice's path and where to fix it at the source. */
export function missingFieldOf(provider: Provider, invoice: StoredInvoice, sources: SourceFields, at: MissingAt): MissingField {
  const carried = CARRIED[provider];
  if (at.line !== undefined) {
    const unmapped = UNMAPPED_LINE_FIELDS.includes(at.field);
    const reason = carried[at.field] === null ? 'not_carried' : unmapped ? 'not_mapped' : 'not_in_source';
    return { field: at.field, reason, path: linePath(at.line, at.field), source: sources.line(at.line, at.field) };
  }
  const { field } = at;
  const value = transactionValue(provider, field);
  const reason = carried[field] === null ? 'not_carried' : value === null ? 'not_mapped' : 'not_in_source';
  return { field, reason, path: INVOICE_PATH[field], source: sources.transaction(field) };
}

/** The stored value the output sends for a transaction field; `null` when it sends none from an invoice. */
function transactionValue(provider: Provider, field: TransactionField): keyof StoredInvoice | null {
  return UNSENT_VALUES[provider].includes(field) ? null : INVOICE_VALUE[field];
}
