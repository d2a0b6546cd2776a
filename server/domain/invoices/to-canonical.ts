import { fastSafeParse } from '../../validation/compile-schema.js';
import { CanonicalInvoiceSchema, type CanonicalInvoice, type CanonicalLine } from '../../../contract/canonical-invoice.js';
import type { CategorizedIssue } from '../../../contract/common/index.js';
import type { StoredInvoice, StoredLine } from '../../../contract/invoices.js';
import { checkCanonicalInvoice, issue } from '../enrichment/index.js';
import { categorize, invoiceIssue } from './issue-categories.js';

export type CanonicalResult = { ok: true; invoice: CanonicalInvoice } | { ok: false; issues: CategorizedIssue[] };

type Amount =
  'subtotalAmountMinor' | 'taxAmountMinor' | 'shippingAmountMinor' | 'discountAmountMinor' | 'totalAmountMinor' | 'balanceAmountMinor';
const AMOUNTS: readonly Amount[] = [
  'subtotalAmountMinor',
  'taxAmountMinor',
  'shippingAmountMinor',
  'discountAmountMinor',
  'totalAmountMinor',
  'balanceAmountMinor',
];

/**
 * The CanonicalInvoice that the unchanged enrichment core takes for a stored
 * invoice, so invoice-backed preparation and the inline endpoints share every
 * rule (docs/decisions.md, "Stored invoices: mapping and readiness").
 *
 * Transaction-level tax and discount: stored lines hold `null` (not allocated);
 * the canonical line carries 0 for both and total = subtotal. The core reads
 * all-zero line amounts as "held at transaction level", exactly as for an
 * inline invoice that puts its tax only on the invoice, so the outputs match.
 * For gwa this is the explicit statement "no line-level tax": gwa then sends the
 * transaction `taxAmount` only. `missing_line_tax` is raised only when some
 * lines carry tax and others hold `null`, which no single level explains.
 *
 * Unavailable facts are never filled in: each one is an issue and no invoice is returned.
 */
export function toCanonicalInvoice(stored: StoredInvoice): CanonicalResult {
  const candidate = canonicalCandidate(stored);
  return candidate.ok ? validated(candidate.invoice) : candidate;
}

/** The canonical shape of a stored invoice with every fact available, not yet checked against the schema. */
function canonicalCandidate(stored: StoredInvoice): { ok: true; invoice: CanonicalInvoice } | { ok: false; issues: CategorizedIssue[] } {
  const issues: CategorizedIssue[] = [];
  if (stored.invoiceNumber === null) issues.push(invoiceIssue('missing_invoice_number', 'invoice.invoiceNumber'));
  if (stored.currency === null) issues.push(invoiceIssue('missing_currency', 'invoice.currency'));
  for (const field of AMOUNTS) if (stored[field] === null) issues.push(unavailable(`invoice.${field}`));
  if (stored.lineItems.length === 0) issues.push(unavailable('invoice.lineItems', 'The invoice has no item lines.'));
  const taxAllocated = stored.lineItems.some((l) => l.taxAmountMinor !== null);
  const discountAllocated = stored.lineItems.some((l) => l.discountAmountMinor !== null);
  const lines = stored.lineItems.map((line, index) => canonicalLine(line, index, taxAllocated, discountAllocated, issues));
  if (issues.length > 0) return { ok: false, issues };
  const invoice = {
    invoiceNumber: stored.invoiceNumber,
    purchaseOrderReference: stored.purchaseOrderReference,
    status: stored.status,
    currency: stored.currency,
    ...Object.fromEntries(AMOUNTS.map((field) => [field, stored[field]])),
    issuedAt: stored.issuedAt,
    dueAt: stored.dueAt,
    voidedAt: stored.voidedAt,
    lineItems: lines,
  };
  return { ok: true, invoice: invoice as CanonicalInvoice };
}

// Compiled once: the stored invoice of every preparation is checked against the strict schema.
const parseCanonical = fastSafeParse(CanonicalInvoiceSchema);

function validated(candidate: CanonicalInvoice): CanonicalResult {
  const parsed = parseCanonical(candidate);
  if (parsed.success) return { ok: true, invoice: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((i) => unavailable(['invoice', ...i.path].join('.').replace(/\.(\d+)/g, '[$1]'), i.message)),
  };
}

function canonicalLine(
  line: StoredLine,
  index: number,
  taxAllocated: boolean,
  discountAllocated: boolean,
  issues: CategorizedIssue[],
): CanonicalLine | null {
  const path = `invoice.lineItems[${index}]`;
  const required = {
    productName: line.productName,
    quantity: line.quantity,
    unitAmountMinor: line.unitAmountMinor,
    subtotalAmountMinor: line.subtotalAmountMinor,
  };
  for (const [field, value] of Object.entries(required)) if (value === null) issues.push(unavailable(`${path}.${field}`));
  if (taxAllocated && line.taxAmountMinor === null) issues.push(categorize(issue('missing_line_tax', `${path}.taxAmountMinor`)));
  if (discountAllocated && line.discountAmountMinor === null) {
    issues.push(unavailable(`${path}.discountAmountMinor`, 'Other lines carry a discount; this one holds none.'));
  }
  const { productName, quantity, unitAmountMinor, subtotalAmountMinor } = required;
  if (productName === null || quantity === null || unitAmountMinor === null || subtotalAmountMinor === null) return null;
  const taxAmountMinor = line.taxAmountMinor ?? 0;
  const discountAmountMinor = line.discountAmountMinor ?? 0;
  return {
    sequence: line.sequence,
    productName,
    description: line.description,
    productCode: line.productCode,
    commodityCode: line.commodityCode,
    quantity,
    unitOfMeasure: line.unitOfMeasure,
    unitAmountMinor,
    subtotalAmountMinor,
    taxAmountMinor,
    discountAmountMinor,
    totalAmountMinor: line.totalAmountMinor ?? subtotalAmountMinor + taxAmountMinor - discountAmountMinor,
  };
}

function unavailable(path: string, detail?: string): CategorizedIssue {
  return invoiceIssue('fact_unavailable', path, detail);
}

/** Codes of the shared canonical checks that describe the mapped amounts themselves (not payment state or provider fields). */
const ARITHMETIC_CODES: ReadonlySet<string> = new Set(['arithmetic_mismatch', 'duplicate_sequence']);

/**
 * The inline endpoints' arithmetic checks (one implementation: checkCanonicalInvoice)
 * applied to a stored invoice, whatever its status; nothing is checked while an
 * amount or quantity is unavailable (that fact already has its issue).
 */
export function arithmeticIssues(stored: StoredInvoice): CategorizedIssue[] {
  // Number and currency do not enter the arithmetic; stand-ins let an invoice without them be checked.
  const candidate = canonicalCandidate({ ...stored, invoiceNumber: stored.invoiceNumber ?? '-', currency: stored.currency ?? 'xxx' });
  if (!candidate.ok) return [];
  // The schema check costs more than the arithmetic (it dominated the mapping of a sync): it decides only whether
  // mismatches are reported, so it runs only when there are some. The schema adds no defaults or transforms.
  let found: CategorizedIssue[] | undefined;
  try {
    found = arithmeticOf(candidate.invoice);
    if (found.length === 0) return [];
  } catch {
    // A value the schema would refuse (for example an unsafe integer): decided by the schema below.
  }
  const checkable = validated(candidate.invoice);
  if (!checkable.ok) return [];
  return found ?? arithmeticOf(checkable.invoice);
}

function arithmeticOf(invoice: CanonicalInvoice): CategorizedIssue[] {
  return checkCanonicalInvoice(invoice)
    .issues.filter((i) => ARITHMETIC_CODES.has(i.code))
    .map(categorize);
}
