import {
  PaymentProviderSchema,
  type CategorizedIssue,
  type Issue,
  type IssueCategory,
  type PaymentProvider,
} from '../../../contract/common/index.js';
import type { IssueCode } from '../enrichment/index.js';
import { CARD_NUMBER_REDACTED } from '../guard/redact-card-numbers.js';

const ALL: readonly PaymentProvider[] = PaymentProviderSchema.options;
/** Providers whose output carries a line's product code, unit or commodity code (gwb lines have no such fields). */
const FIELDS: readonly PaymentProvider[] = ['gwa', 'gwc'];
/**
 * Providers whose invoice-backed output carries the buyer's PO: gwa's `purchaseOrderNumber`, gwb's `reference_id`
 * (the PO, else the invoice number). Invoice-backed gwc sends the invoice number as its order reference.
 */
const PURCHASE_ORDER: readonly PaymentProvider[] = ['gwa', 'gwb'];

interface InvoiceIssueCodeEntry {
  readonly message: string;
  readonly category: IssueCategory;
  /**
   * Providers whose readiness (and invoice-backed preparation) report the code: exactly those whose output uses the
   * fact it concerns (docs/issue-codes.md); for the others the code neither blocks nor shows.
   */
  readonly providers: readonly PaymentProvider[];
}

/**
 * Codes that only stored invoices can raise (mapping, source state, freshness,
 * access). The enrichment core's codes keep their meaning and are reused wherever
 * the same fault arises (docs/issue-codes.md, "Stored invoice codes").
 */
export const INVOICE_ISSUE_CODES = {
  invoice_deleted_at_source: {
    message: 'The invoice was deleted at the accounting source; this is its last imported snapshot.',
    category: 'source',
    providers: ALL,
  },
  card_data_in_source: {
    message: `A text field of the source record held a card number; it was not imported and the field is stored as ${CARD_NUMBER_REDACTED}. Remove the number at the source.`,
    category: 'source',
    providers: ALL,
  },
  ambiguous_invoice_number: {
    message: 'Several visible invoices carry this invoice number; select one by its id or ledgerInvoiceId.',
    category: 'source',
    providers: ALL,
  },
  missing_dependency: {
    message: 'A source record the invoice needs (an Item or the company Preferences) is not imported.',
    category: 'source',
    providers: ALL,
  },
  item_mapping_revoked: {
    message: "The merchant revoked the item's confirmed mapping; no product code or unit is taken from it.",
    category: 'mapping',
    providers: FIELDS,
  },
  purchase_order_field_ambiguous: {
    message: 'Several custom fields of the company carry the configured purchase-order label.',
    category: 'mapping',
    providers: PURCHASE_ORDER,
  },
  amount_not_exact: {
    message: 'A source amount is not an exact nonnegative whole number of minor units; it is never rounded.',
    category: 'validation',
    providers: ALL,
  },
  tax_inclusive_invoice: {
    message: 'The invoice amounts include tax (GlobalTaxCalculation TaxInclusive); they cannot be separated exactly.',
    category: 'validation',
    providers: ALL,
  },
  tax_unknown: {
    message: 'The invoice has no tax detail and the company may charge tax; the tax amount is never invented.',
    category: 'validation',
    providers: ALL,
  },
  group_line_unsupported: {
    message: 'The invoice has a group line (bundle), which is not mapped.',
    category: 'validation',
    providers: ALL,
  },
  unsupported_line_type: {
    message: 'The invoice has a line of a detail type the mapper does not know.',
    category: 'validation',
    providers: ALL,
  },
  ambiguous_shipping: {
    message: 'The invoice has several shipping lines; which amount is the shipping charge is ambiguous.',
    category: 'validation',
    providers: ALL,
  },
  missing_invoice_number: { message: 'The source invoice has no number (DocNumber).', category: 'validation', providers: ALL },
  missing_currency: {
    message: 'Neither the invoice nor the company preferences name a currency.',
    category: 'validation',
    providers: ALL,
  },
  fact_unavailable: {
    message: 'A fact the preparation needs is unavailable in the stored invoice.',
    category: 'validation',
    providers: ALL,
  },
  currency_mismatch: {
    message: 'The requested currency differs from the invoice currency.',
    category: 'payment',
    providers: ALL,
  },
  revision_mismatch: {
    message: 'The invoice changed since the reviewed (or the prepared) revision; look it up again.',
    category: 'source',
    providers: ALL,
  },
  source_stale: {
    message: 'No completed source checkpoint within the last 4 hours.',
    category: 'freshness',
    providers: ALL,
  },
  sync_in_progress: { message: 'A source sync is queued or running.', category: 'freshness', providers: ALL },
  connection_paused: { message: 'The accounting-source connection is paused.', category: 'access', providers: ALL },
  connection_disconnected: {
    message: 'The accounting-source connection is disconnected.',
    category: 'access',
    providers: ALL,
  },
  reauthorization_required: {
    message: 'The accounting-source connection needs reauthorization.',
    category: 'access',
    providers: ALL,
  },
} as const satisfies Record<string, InvoiceIssueCodeEntry>;

export type InvoiceIssueCode = keyof typeof INVOICE_ISSUE_CODES;

/**
 * Category of every enrichment-core code; the Record type makes a code added to
 * the core a compile error here until it is categorized.
 */
export const ENRICHMENT_CODE_CATEGORIES: Readonly<Record<IssueCode, IssueCategory>> = {
  invoice_not_open: 'payment',
  invoice_balance_not_full: 'payment',
  zero_amount_invoice: 'payment',
  payment_amount_mismatch: 'payment',
  arithmetic_mismatch: 'validation',
  duplicate_sequence: 'validation',
  invalid_quantity: 'validation',
  unsupported_currency: 'validation',
  too_many_line_items: 'validation',
  purchase_order_number_too_long: 'validation',
  purchase_order_number_invalid: 'validation',
  identifier_too_long: 'validation',
  identifier_invalid: 'validation',
  zero_amount_line: 'validation',
  product_name_too_long: 'validation',
  order_reference_too_long: 'validation',
  line_tax_not_allocated: 'validation',
  line_discount_not_allocated: 'validation',
  tax_not_representable: 'validation',
  discount_not_representable: 'validation',
  tax_shipping_discount_exceed_amount: 'validation',
  missing_line_tax: 'validation',
  missing_purchase_order_number: 'mapping',
  missing_product_code: 'mapping',
  missing_unit_of_measure: 'mapping',
  missing_item_reference: 'mapping',
};

export function invoiceIssue(code: InvoiceIssueCode, path: string, detail?: string): CategorizedIssue {
  const { message, category } = INVOICE_ISSUE_CODES[code];
  return { code, path, message: detail ? `${message} ${detail}` : message, category };
}

/** The category of any code the service reports about a stored invoice. */
export function categoryOf(code: string): IssueCategory {
  if (code in INVOICE_ISSUE_CODES) return INVOICE_ISSUE_CODES[code as InvoiceIssueCode].category;
  const category = ENRICHMENT_CODE_CATEGORIES[code as IssueCode];
  if (category === undefined) throw new Error(`Issue code ${code} has no category`);
  return category;
}

/** An enrichment-core issue with its category added; message and path unchanged. */
export function categorize(found: Issue): CategorizedIssue {
  return { ...found, category: categoryOf(found.code) };
}

/** Whether a mapper code concerns this provider (enrichment-core codes apply to every provider at mapping time). */
export function appliesTo(code: string, provider: PaymentProvider): boolean {
  if (!(code in INVOICE_ISSUE_CODES)) return true;
  return (INVOICE_ISSUE_CODES[code as InvoiceIssueCode].providers as readonly PaymentProvider[]).includes(provider);
}
