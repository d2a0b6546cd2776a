import { PaymentProviderSchema, type Issue, type PaymentProvider } from '../../../contract/common/index.js';

export type Provider = PaymentProvider;

interface IssueCodeEntry {
  /** Sentence shown to the caller; a call site may append a specific detail. */
  readonly message: string;
  /** Providers whose inline enrichment can produce the code; empty when only invoice-backed preparation can. */
  readonly producedBy: readonly Provider[];
}

const ALL: readonly Provider[] = PaymentProviderSchema.options;

/**
 * Every issue code of the enrichment core, one vocabulary for all providers:
 * the spec's gwa codes keep their meaning wherever the same fault arises.
 * docs/issue-codes.md documents each; a unit test keeps the two in step.
 */
export const ISSUE_CODES = {
  // Invoice readiness and arithmetic, shared by every provider.
  invoice_not_open: { message: 'The invoice is not open or has been voided.', producedBy: ALL },
  invoice_balance_not_full: {
    message: 'Part of the invoice is already paid: the balance is below the total.',
    producedBy: ALL,
  },
  arithmetic_mismatch: {
    message: 'Line, tax, shipping, discount or total amounts do not reconcile.',
    producedBy: ALL,
  },
  zero_amount_invoice: { message: 'The invoice total is zero; there is nothing to pay.', producedBy: ALL },
  duplicate_sequence: { message: 'Another line of the invoice has the same sequence.', producedBy: ALL },
  invalid_quantity: { message: 'The quantity is not valid for this provider.', producedBy: ALL },
  // Provider limits.
  unsupported_currency: { message: 'The provider does not accept the invoice currency.', producedBy: ['gwa', 'gwb'] },
  too_many_line_items: { message: 'The invoice has more lines than the provider accepts.', producedBy: ['gwa', 'gwc'] },
  missing_purchase_order_number: { message: 'The invoice has no buyer purchase-order number.', producedBy: ['gwa'] },
  purchase_order_number_too_long: {
    message: 'The purchase-order number is longer than 17 characters.',
    producedBy: ['gwa'],
  },
  purchase_order_number_invalid: {
    message: 'The purchase-order number is not printable ASCII.',
    producedBy: ['gwa'],
  },
  missing_product_code: {
    message: 'The line has no SKU or merchant-confirmed product code.',
    producedBy: ['gwa', 'gwc'],
  },
  missing_unit_of_measure: { message: 'The line has no merchant-confirmed unit of measure.', producedBy: ['gwa', 'gwc'] },
  identifier_too_long: {
    message: 'The product code, commodity code or unit is longer than 12 characters; it is never truncated.',
    producedBy: ['gwa', 'gwc'],
  },
  identifier_invalid: {
    message: 'The product code, commodity code or unit is not printable ASCII.',
    producedBy: ['gwa'],
  },
  zero_amount_line: { message: 'The provider rejects lines with a zero unit amount.', producedBy: ['gwa'] },
  product_name_too_long: { message: 'The product name is longer than the provider accepts.', producedBy: ['gwb', 'gwc'] },
  order_reference_too_long: { message: 'The order reference is longer than 40 characters.', producedBy: ['gwb'] },
  line_tax_not_allocated: {
    message: 'Line-level tax was requested but the invoice holds its tax only at transaction level.',
    producedBy: ['gwb', 'gwc'],
  },
  line_discount_not_allocated: {
    message: 'Line-level discounts were requested but the invoice holds its discount only at transaction level.',
    producedBy: ['gwb', 'gwc'],
  },
  tax_not_representable: {
    message: 'No tax percentage makes the provider compute exactly this tax amount under its half-to-even rounding.',
    producedBy: ['gwb'],
  },
  discount_not_representable: {
    message: 'The discount is larger than the amount it applies to; the provider would cap it.',
    producedBy: ['gwb'],
  },
  tax_shipping_discount_exceed_amount: {
    message: 'Tax, shipping and discount together exceed the payment amount, which the provider rejects.',
    producedBy: ['gwc'],
  },
  // Invoice-backed preparation only (spec: gwa preparation issue codes); no inline invoice can cause them.
  missing_item_reference: { message: 'A source line has no item reference.', producedBy: [] },
  missing_line_tax: { message: 'Line-level tax is missing on a line.', producedBy: [] },
  payment_amount_mismatch: { message: 'amountMinor differs from the invoice total.', producedBy: [] },
} as const satisfies Record<string, IssueCodeEntry>;

export type IssueCode = keyof typeof ISSUE_CODES;

/** Builds an Issue with the registry's message, plus a specific detail when one helps the caller. */
export function issue(code: IssueCode, path: string, detail?: string): Issue {
  const { message } = ISSUE_CODES[code];
  return { code, path, message: detail ? `${message} ${detail}` : message };
}
