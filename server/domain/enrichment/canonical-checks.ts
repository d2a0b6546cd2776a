import type { CanonicalInvoice, CanonicalLine } from '../../../contract/canonical-invoice.js';
import type { Issue } from '../../../contract/common/index.js';
import { isPositive, minus, multiplyToMinor, parseDecimal, plus, sameAmount, type Decimal, type ExactAmount } from './decimal.js';
import { issue } from './issue-codes.js';

/** A line in output order, remembering where it sat in the request. */
export interface OrderedLine {
  readonly line: CanonicalLine;
  /** Index in the request array; issue paths use it, never the sequence. */
  readonly index: number;
  /** The quantity when it is a positive decimal, else `null` (already reported). */
  readonly quantity: Decimal | null;
}

/** Where the invoice holds an amount: on its lines (their sum equals the invoice's) or only on the invoice. */
export type AmountLevel = 'line' | 'transaction';

export interface InvoiceFacts {
  /** Lines ordered by sequence (spec: CanonicalLine, "output is ordered by it"). */
  readonly lines: readonly OrderedLine[];
  readonly taxLevel: AmountLevel;
  readonly discountLevel: AmountLevel;
}

export function linePath(index: number, field?: keyof CanonicalLine): string {
  return `invoice.lineItems[${index}]${field ? `.${field}` : ''}`;
}

/**
 * Checks shared by every provider: the invoice can be paid in full now, and its
 * amounts reconcile exactly. Collects every issue; never stops at the first.
 */
export function checkCanonicalInvoice(invoice: CanonicalInvoice): { issues: Issue[]; facts: InvoiceFacts } {
  const issues = checkPaymentState(invoice);
  checkSequences(invoice.lineItems, issues);
  const lines: OrderedLine[] = [];
  for (let index = 0; index < invoice.lineItems.length; index++) {
    const line = invoice.lineItems[index]!;
    lines.push({ line, index, quantity: checkLine(line, index, issues) });
  }
  const { taxLevel, discountLevel } = checkTotals(invoice, issues);
  lines.sort(bySequence);
  return { issues, facts: { lines, taxLevel, discountLevel } };
}

const bySequence = (a: OrderedLine, b: OrderedLine) => a.line.sequence - b.line.sequence || a.index - b.index;

/** What the full-invoice rule reads: status and amounts, each `null` when a stored invoice could not establish it. */
export interface PaymentState {
  readonly status: CanonicalInvoice['status'];
  readonly voidedAt: string | null;
  readonly totalAmountMinor: number | null;
  readonly balanceAmountMinor: number | null;
}

/**
 * Inline enrichment charges the full invoice total, so only an open, unvoided,
 * fully unpaid invoice qualifies (spec: "Full-invoice rule"; gwa codes
 * invoice_not_open, invoice_balance_not_full). Refusing is the conservative choice:
 * charging the total of a part-paid invoice would charge the buyer twice.
 * Stored invoices run the same checks even when another fact is unavailable, so
 * that a paid or voided invoice is never prepared in ordinary mode; an amount
 * that is `null` is not compared (its own issue says why it is unknown).
 */
export function checkPaymentState(invoice: PaymentState): Issue[] {
  const issues: Issue[] = [];
  const { totalAmountMinor: total, balanceAmountMinor: balance } = invoice;
  if (invoice.status !== 'open') issues.push(issue('invoice_not_open', 'invoice.status', `Status is ${invoice.status}.`));
  if (invoice.voidedAt !== null) issues.push(issue('invoice_not_open', 'invoice.voidedAt', 'The invoice is voided.'));
  if (total !== null && balance !== null && balance < total) issues.push(issue('invoice_balance_not_full', 'invoice.balanceAmountMinor'));
  if (total === 0) issues.push(issue('zero_amount_invoice', 'invoice.totalAmountMinor'));
  return issues;
}

function checkSequences(lines: readonly CanonicalLine[], issues: Issue[]): void {
  const seen = new Map<number, number>();
  for (let index = 0; index < lines.length; index++) {
    const { sequence } = lines[index]!;
    const first = seen.get(sequence);
    if (first === undefined) seen.set(sequence, index);
    else issues.push(issue('duplicate_sequence', linePath(index, 'sequence'), `Same as invoice.lineItems[${first}].`));
  }
}

/** The line's quantity when it is a positive decimal, else `null` (and an issue). */
function checkLine(line: CanonicalLine, index: number, issues: Issue[]): Decimal | null {
  const parsed = parseDecimal(line.quantity);
  const quantity = parsed && isPositive(parsed) ? parsed : null;
  if (!quantity) {
    issues.push(issue('invalid_quantity', linePath(index, 'quantity'), 'The quantity must be positive.'));
  } else {
    const subtotal = subtotalMismatch(quantity, line.unitAmountMinor, line.subtotalAmountMinor);
    if (subtotal !== null) issues.push(mismatch(index, 'subtotalAmountMinor', subtotal));
  }
  const total = totalMismatch(line);
  if (total !== null) issues.push(mismatch(index, 'totalAmountMinor', total));
  return quantity;
}

/**
 * The line rule "subtotal = quantity × unit amount", exactly: why it fails, or `null` when it holds.
 * Never rounds: a fractional product would mean inventing or dropping money.
 */
export function subtotalMismatch(quantity: Decimal, unitAmountMinor: number, subtotalAmountMinor: number): string | null {
  const product = multiplyToMinor(quantity, unitAmountMinor);
  if (product === null) return 'quantity × unitAmountMinor is not a whole number of minor units.';
  return product === BigInt(subtotalAmountMinor) ? null : `quantity × unitAmountMinor is ${product}.`;
}

/** The line rule "total = subtotal + tax − discount": why it fails, or `null` when it holds. */
export function totalMismatch(line: {
  readonly subtotalAmountMinor: number;
  readonly taxAmountMinor: number;
  readonly discountAmountMinor: number;
  readonly totalAmountMinor: number;
}): string | null {
  const total = minus(plus(line.subtotalAmountMinor, line.taxAmountMinor), line.discountAmountMinor);
  return sameAmount(total, line.totalAmountMinor) ? null : `subtotal + tax − discount is ${total}.`;
}

function mismatch(index: number, field: keyof CanonicalLine, detail: string): Issue {
  return issue('arithmetic_mismatch', linePath(index, field), detail);
}

function checkTotals(invoice: CanonicalInvoice, issues: Issue[]): { taxLevel: AmountLevel; discountLevel: AmountLevel } {
  const lines = invoice.lineItems;
  const lineSubtotals = sumOf(lines, 'subtotalAmountMinor');
  if (!sameAmount(lineSubtotals, invoice.subtotalAmountMinor)) {
    issues.push(issue('arithmetic_mismatch', 'invoice.subtotalAmountMinor', `The lines' subtotals add up to ${lineSubtotals}.`));
  }
  const total = minus(
    plus(plus(invoice.subtotalAmountMinor, invoice.taxAmountMinor), invoice.shippingAmountMinor),
    invoice.discountAmountMinor,
  );
  if (!sameAmount(total, invoice.totalAmountMinor)) {
    issues.push(issue('arithmetic_mismatch', 'invoice.totalAmountMinor', `subtotal + tax + shipping − discount is ${total}.`));
  }
  if (invoice.balanceAmountMinor > invoice.totalAmountMinor) {
    issues.push(issue('arithmetic_mismatch', 'invoice.balanceAmountMinor', 'The balance exceeds the total.'));
  }
  const taxLevel = checkLineLevel(sumOf(lines, 'taxAmountMinor'), invoice.taxAmountMinor, 'invoice.taxAmountMinor', issues);
  const discountLevel = checkLineLevel(
    sumOf(lines, 'discountAmountMinor'),
    invoice.discountAmountMinor,
    'invoice.discountAmountMinor',
    issues,
  );
  return { taxLevel, discountLevel };
}

function sumOf(lines: readonly CanonicalLine[], field: 'subtotalAmountMinor' | 'taxAmountMinor' | 'discountAmountMinor'): ExactAmount {
  let total: ExactAmount = 0;
  for (const line of lines) total = plus(total, line[field]);
  return total;
}

/**
 * Lines that all carry zero leave the amount at transaction level (not allocated).
 * Once any line carries some, the lines hold the amount and must add up to the invoice's.
 */
function checkLineLevel(lineSum: ExactAmount, invoiceAmount: number, path: string, issues: Issue[]): AmountLevel {
  if (sameAmount(lineSum, 0)) return 'transaction';
  if (!sameAmount(lineSum, invoiceAmount)) {
    issues.push(issue('arithmetic_mismatch', path, `The lines add up to ${lineSum}.`));
  }
  return 'line';
}
