import type { StoredInvoice, StoredLine } from '../../../contract/invoices.js';
import { subtotalMismatch, totalMismatch } from '../enrichment/canonical-checks.js';
import { isPositive, minus, multiplyToMinor, parseDecimal, sameAmount, type Decimal } from '../enrichment/decimal.js';
import type { LineField, RiskFinding } from './fields.js';
import { linePath } from './levels.js';
import type { QualificationInput, SourceFields, SourceLineDiscount } from './source-fields.js';

/*
 * Placeholder-risk rules over one invoice (docs/network-qualification.md, "Placeholder risks").
 * Pure and deterministic: the same invoice always gives the same findings in the same order
 * (by rule, then by line). A finding never changes what an output sends.
 */

/** Codes people type when a field is required and no real value is at hand (compared without punctuation or case). */
const GENERIC_CODES: ReadonlySet<string> = new Set([
  'NA',
  'NONE',
  'NULL',
  'NIL',
  'ITEM',
  'ITEMS',
  'SKU',
  'PRODUCT',
  'PART',
  'SERVICE',
  'SERVICES',
  'MISC',
  'OTHER',
  'GENERIC',
  'DEFAULT',
  'TBD',
  'TEST',
  'UNKNOWN',
  'CODE',
]);

/** Upper case, letters and digits only: `n/a`, `N.A.` and `NA` are one code. */
export function normalizeCode(value: string): string {
  return value.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** A code that identifies nothing: a known filler word, no letter or digit at all, or one character repeated (`1`, `0000`, `XXX`). */
export function isGenericCode(value: string): boolean {
  const code = normalizeCode(value);
  return code === '' || GENERIC_CODES.has(code) || /^(.)\1*$/.test(code);
}

const COMMODITY_CODE = /^[0-9]{2,12}$/;

/**
 * Commodity code systems the providers name (UNSPSC 8 digits, NAICS 2-6, NIGP, HS) are digits
 * only; the providers' field holds 12 characters. A single repeated digit or an ascending run
 * of 4 or more (`00000000`, `12345678`) is filler, not a classification.
 */
export function isValidCommodityCode(value: string): boolean {
  if (!COMMODITY_CODE.test(value) || /^(.)\1*$/.test(value)) return false;
  // Short runs are real codes (NAICS sector 23 is construction); from 4 digits on, a run is typed filler.
  return value.length < 4 || (!'0123456789'.includes(value) && !'1234567890'.includes(value));
}

/** Texts compared the way a reader compares them: trimmed, spaces collapsed, any case. */
export function normalizeText(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toUpperCase();
}

/** `discounts`: each line's discount at the source (`sourceLineDiscountsOf`), which the stored line does not hold. */
export function invoiceRisks(input: QualificationInput, sources: SourceFields, discounts: readonly SourceLineDiscount[]): RiskFinding[] {
  const { invoice } = input;
  const at = (code: RiskFinding['code'], field: LineField, index: number, message: string): RiskFinding => ({
    code,
    field,
    ledgerInvoiceId: input.ledgerInvoiceId,
    path: linePath(index, field),
    source: sources.line(index, field),
    message,
  });
  const findings: RiskFinding[] = [];
  invoice.lineItems.forEach((line, index) => {
    if (line.productCode !== null && isGenericCode(line.productCode)) {
      findings.push(
        at('generic_product_code', 'product_code', index, `The product code ${JSON.stringify(line.productCode)} identifies no product.`),
      );
    }
  });
  findings.push(
    ...repeatedCodes(invoice).map(({ index, others }) =>
      at('repeated_product_code', 'product_code', index, `The same product code is on other items (${others.join(', ')}).`),
    ),
  );
  invoice.lineItems.forEach((line, index) => {
    if (line.productName !== null && line.productCode !== null && normalizeText(line.productName) === normalizeText(line.productCode)) {
      findings.push(
        at(
          'descriptor_equals_product_code',
          'descriptor',
          index,
          'The descriptor repeats the product code instead of describing the item.',
        ),
      );
    }
  });
  invoice.lineItems.forEach((line, index) => {
    if (line.commodityCode !== null && !isValidCommodityCode(line.commodityCode.trim())) {
      const message = `The commodity code ${JSON.stringify(line.commodityCode)} is not 2-12 digits of a classification (UNSPSC, NAICS, ...).`;
      findings.push(at('commodity_code_format', 'commodity_code', index, message));
    }
  });
  invoice.lineItems.forEach((line, index) => {
    if (sources.taxable(index) === true && taxOf(line, invoice) === 0) {
      const message =
        'The source marks the line taxable (TaxCodeRef TAX) but its tax is 0: record the tax, or mark the line NON if it is exempt.';
      findings.push({
        code: 'zero_tax_on_taxable_line',
        field: 'tax',
        ledgerInvoiceId: input.ledgerInvoiceId,
        path: line.taxAmountMinor === null ? 'invoice.taxAmountMinor' : `invoice.lineItems[${index}].taxAmountMinor`,
        source: sources.taxCode(index),
        message,
      });
    }
  });
  invoice.lineItems.forEach((line, index) => {
    const mismatch = lineTotalMismatch(line, discounts[index]);
    if (mismatch !== null) findings.push(at('line_total_mismatch', 'line_total', index, `The line total does not add up: ${mismatch}`));
  });
  return findings;
}

/** The line's own tax, else the invoice's when the invoice holds tax for all its lines; `null` when unknown. */
function taxOf(line: StoredLine, invoice: StoredInvoice): number | null {
  return line.taxAmountMinor ?? (invoice.taxRepresentation === 'transaction' ? invoice.taxAmountMinor : null);
}

/**
 * Lines whose product code is also on a different item (one code for unrelated products);
 * the same item on several lines is not a finding.
 */
function repeatedCodes(invoice: StoredInvoice): { index: number; others: string[] }[] {
  const itemsByCode = new Map<string, Set<string>>();
  const keyOf = (line: StoredLine, index: number) => line.sourceItemId ?? `line ${index}`;
  invoice.lineItems.forEach((line, index) => {
    if (line.productCode === null) return;
    const code = normalizeCode(line.productCode);
    if (code === '') return;
    const items = itemsByCode.get(code) ?? new Set<string>();
    items.add(keyOf(line, index));
    itemsByCode.set(code, items);
  });
  const out: { index: number; others: string[] }[] = [];
  invoice.lineItems.forEach((line, index) => {
    if (line.productCode === null) return;
    const items = itemsByCode.get(normalizeCode(line.productCode));
    if (items === undefined || items.size < 2) return;
    const own = keyOf(line, index);
    out.push({ index, others: [...items].filter((i) => i !== own).map((i) => (i.startsWith('line ') ? i : `Item ${i}`)) });
  });
  return out;
}

/**
 * "Line total = quantity × unit cost − discount" on a stored line ([P1]; gwc derives its line total so, §3.4), in the
 * enrichment core's exact arithmetic. The discount is the source line's `DiscountAmt` when it holds one (the mapper
 * leaves the stored line's empty), else the stored line's, else 0. A line that holds its own total keeps the core's
 * canonical rules (canonical-checks.ts): quantity × unit cost = amount, and amount + tax − discount = total.
 * Unknown values are not compared (the mapper reports them), nor is a discount held only as a rate, or not exact.
 */
function lineTotalMismatch(line: StoredLine, source: SourceLineDiscount | undefined): string | null {
  const { quantity, unitAmountMinor, subtotalAmountMinor } = line;
  if (quantity === null || unitAmountMinor === null || subtotalAmountMinor === null) return null;
  const parsed = parseDecimal(quantity);
  if (parsed === null || !isPositive(parsed)) return null;
  const discountAmountMinor = source?.held ? source.amountMinor : (line.discountAmountMinor ?? 0);
  if (discountAmountMinor === null) return null;
  if (line.totalAmountMinor === null) return netAmountMismatch(parsed, unitAmountMinor, discountAmountMinor, subtotalAmountMinor);
  const subtotal = subtotalMismatch(parsed, unitAmountMinor, subtotalAmountMinor);
  if (subtotal !== null) return subtotal;
  return totalMismatch({
    subtotalAmountMinor,
    taxAmountMinor: line.taxAmountMinor ?? 0,
    discountAmountMinor,
    totalAmountMinor: line.totalAmountMinor,
  });
}

/** quantity × unit cost − discount = amount, exactly (a product that is not whole minor units fails as the core's rule does). */
function netAmountMismatch(quantity: Decimal, unitAmountMinor: number, discountAmountMinor: number, amountMinor: number): string | null {
  const product = multiplyToMinor(quantity, unitAmountMinor);
  if (product === null || discountAmountMinor === 0) return subtotalMismatch(quantity, unitAmountMinor, amountMinor);
  const net = minus(product, discountAmountMinor);
  return sameAmount(net, amountMinor) ? null : `quantity × unitAmountMinor − discount is ${net}.`;
}
