import type { StoredInvoice, StoredLine } from '../../../contract/invoices.js';
import type { RiskFinding } from './fields.js';
import { normalizeText } from './invoice-risks.js';
import { linePath } from './levels.js';
import { itemSourceField } from './source-fields.js';

/** What the cross-invoice rules read of a line: its descriptor, unit and Item (a stored line has them all). */
export type CrossInvoiceLine = Pick<StoredLine, 'productName' | 'unitOfMeasure' | 'sourceItemId' | 'sourceLineId'>;

/** What they read of an invoice (a `QualificationInput` and a stored invoice of the window both have it). */
export interface CrossInvoiceInput {
  readonly ledgerInvoiceId: string | null;
  readonly invoice: { readonly lineItems: readonly CrossInvoiceLine[] };
}

/** A stored invoice of the cross-invoice window: what the rules read of its current snapshot. */
export interface WindowInvoice extends CrossInvoiceInput {
  readonly ledgerInvoiceId: string;
}

/** A line as a snapshot keeps it for the rules: descriptor, unit of measure, Item and line Id. */
export type CrossInvoiceLineFacts = readonly [string | null, string | null, string | null, string];

/**
 * What a snapshot keeps for the cross-invoice rules beside its mapped invoice (`invoice_snapshots.cross_invoice_facts`):
 * the invoice's date, which places it in the window, and each line's four fields. The pass after a sync reads these
 * instead of every window invoice's whole mapped invoice, which took 0.5 s of each 10,000 (docs/performance.md).
 */
export interface CrossInvoiceFacts {
  readonly issuedAt: string | null;
  readonly lines: readonly CrossInvoiceLineFacts[];
}

export function crossInvoiceFactsOf(invoice: StoredInvoice): CrossInvoiceFacts {
  return {
    issuedAt: invoice.issuedAt,
    lines: invoice.lineItems.map((l): CrossInvoiceLineFacts => [l.productName, l.unitOfMeasure, l.sourceItemId, l.sourceLineId]),
  };
}

/** The rules' input from a snapshot's stored facts. */
export function crossInvoiceInputOf(ledgerInvoiceId: string, facts: CrossInvoiceFacts): WindowInvoice {
  return {
    ledgerInvoiceId,
    invoice: {
      lineItems: facts.lines.map(([productName, unitOfMeasure, sourceItemId, sourceLineId]) => ({
        productName,
        unitOfMeasure,
        sourceItemId,
        sourceLineId,
      })),
    },
  };
}

/**
 * Fewer invoices than this cannot show that a value is "the same on every invoice": two
 * invoices for the same kind of work legitimately look alike.
 */
export const MIN_INVOICES_FOR_PATTERNS = 3;

interface Occurrence {
  readonly input: CrossInvoiceInput;
  /** Position of the invoice in the list. */
  readonly invoice: number;
  readonly index: number;
  readonly item: string;
}

/**
 * Placeholder risks that only a set of invoices shows (docs/network-qualification.md,
 * "Placeholder risks"): one descriptor standing for different items on every invoice, and one
 * unit of measure on every line of every invoice. Takes a plain list (for example a connection's
 * invoices of the last months); findings come per invoice and item, in list and line order, so
 * each invoice's view can pick its own by `ledgerInvoiceId`.
 */
export function crossInvoiceRisks(inputs: readonly CrossInvoiceInput[]): RiskFinding[] {
  if (inputs.length < MIN_INVOICES_FOR_PATTERNS) return [];
  const occurrences = inputs.flatMap((input, invoice) =>
    input.invoice.lineItems.map((line, index): Occurrence => ({
      input,
      invoice,
      index,
      item: line.sourceItemId ?? `line ${line.sourceLineId}`,
    })),
  );
  return [...staticDescriptors(inputs, occurrences), ...singleUnit(inputs, occurrences)];
}

/**
 * A descriptor on every invoice of the list that names two or more different items: a static
 * text in place of a description. One recurring item billed on every invoice is not a finding.
 */
function staticDescriptors(inputs: readonly CrossInvoiceInput[], occurrences: readonly Occurrence[]): RiskFinding[] {
  const byText = new Map<string, Occurrence[]>();
  for (const occurrence of occurrences) {
    const name = occurrence.input.invoice.lineItems[occurrence.index]!.productName;
    if (name === null) continue;
    const key = normalizeText(name);
    const list = byText.get(key);
    if (list === undefined) byText.set(key, [occurrence]);
    else list.push(occurrence);
  }
  const findings: RiskFinding[] = [];
  for (const found of byText.values()) {
    const invoices = new Set(found.map((o) => o.invoice));
    const items = new Set(found.map((o) => o.item));
    if (invoices.size < inputs.length || items.size < 2) continue;
    const message = `The same descriptor is on every one of ${inputs.length} invoices, for ${items.size} different items.`;
    findings.push(...firstPerInvoiceAndItem(found).map((o) => finding(o, 'descriptor_static_across_invoices', 'descriptor', message)));
  }
  return findings;
}

/**
 * Every line of every invoice has a unit, the same one, over two or more items: a default unit
 * rather than each item's own (a single item sold in one unit is not a finding).
 */
function singleUnit(inputs: readonly CrossInvoiceInput[], occurrences: readonly Occurrence[]): RiskFinding[] {
  const units = new Set<string>();
  for (const occurrence of occurrences) {
    const unit = occurrence.input.invoice.lineItems[occurrence.index]!.unitOfMeasure;
    if (unit === null || unit.trim() === '') return [];
    units.add(normalizeText(unit));
  }
  const items = new Set(occurrences.map((o) => o.item));
  if (units.size !== 1 || items.size < 2) return [];
  const message = `Every line of ${inputs.length} invoices has the unit ${[...units][0]}, over ${items.size} different items.`;
  return firstPerInvoiceAndItem(occurrences).map((o) => finding(o, 'single_unit_of_measure_everywhere', 'unit_of_measure', message));
}

function firstPerInvoiceAndItem(occurrences: readonly Occurrence[]): Occurrence[] {
  const seen = new Set<string>();
  return occurrences.filter((o) => {
    const key = `${o.invoice}\u0000${o.item}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function finding(o: Occurrence, code: RiskFinding['code'], field: 'descriptor' | 'unit_of_measure', message: string): RiskFinding {
  const line = o.input.invoice.lineItems[o.index]!;
  return {
    code,
    field,
    ledgerInvoiceId: o.input.ledgerInvoiceId,
    path: linePath(o.index, field),
    source: itemSourceField(line.sourceItemId, field),
    message,
  };
}
