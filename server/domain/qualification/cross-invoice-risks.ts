import type { ConfirmedMapping, StoredInvoice, StoredLine } from '../../../contract/invoices.js';
import type { RiskFinding } from './fields.js';
import { normalizeCode, normalizeText } from './invoice-risks.js';
import { linePath } from './levels.js';
import { itemSourceField, productCodeSourceField } from './source-fields.js';

/** What the cross-invoice rules read of a line: its descriptor, unit, product code and Item (a stored line has them all). */
export type CrossInvoiceLine = Pick<StoredLine, 'productName' | 'unitOfMeasure' | 'productCode' | 'sourceItemId' | 'sourceLineId'>;

/** Of a confirmed mapping, what names the source of a product code: its Item and code. */
export type CodeMapping = Pick<ConfirmedMapping, 'sourceItemId' | 'productCode'>;

/** What they read of an invoice (a `QualificationInput` and a stored invoice of the window both have it). */
export interface CrossInvoiceInput {
  readonly ledgerInvoiceId: string | null;
  readonly invoice: { readonly lineItems: readonly CrossInvoiceLine[] };
  /** The confirmed mappings the snapshot applied: a line's product code is its mapping's, else its Item's SKU. */
  readonly mappings: readonly CodeMapping[];
}

/** A stored invoice of the cross-invoice window: what the rules read of its current snapshot. */
export interface WindowInvoice extends CrossInvoiceInput {
  readonly ledgerInvoiceId: string;
}

/** A line as a snapshot keeps it for the rules: descriptor, unit of measure, Item, line Id and product code. */
export type CrossInvoiceLineFacts = readonly [string | null, string | null, string | null, string, string | null];

/**
 * What a snapshot keeps for the cross-invoice rules beside its mapped invoice (`invoice_snapshots.cross_invoice_facts`):
 * the invoice's date, which places it in the window, each line's five fields, and the Item and code of each confirmed
 * mapping that gives a line its product code. The pass after a sync reads these instead of every window invoice's whole
 * mapped invoice, which took 0.5 s of each 10,000 (docs/performance.md).
 */
export interface CrossInvoiceFacts {
  readonly issuedAt: string | null;
  readonly lines: readonly CrossInvoiceLineFacts[];
  /** Absent in facts kept before product codes were (their lines have four fields): the window reads the mapped invoice. */
  readonly codeMappings?: readonly (readonly [string, string])[];
}

export function crossInvoiceFactsOf(invoice: StoredInvoice, mappings: readonly CodeMapping[]): CrossInvoiceFacts {
  const items = new Set(invoice.lineItems.map((l) => l.sourceItemId));
  return {
    issuedAt: invoice.issuedAt,
    lines: invoice.lineItems.map((l): CrossInvoiceLineFacts => [
      l.productName,
      l.unitOfMeasure,
      l.sourceItemId,
      l.sourceLineId,
      l.productCode,
    ]),
    codeMappings: mappings.flatMap((m) => (m.productCode && items.has(m.sourceItemId) ? [[m.sourceItemId, m.productCode] as const] : [])),
  };
}

/** The rules' input from a snapshot's stored facts; `null` for facts kept before they held product codes. */
export function crossInvoiceInputOf(ledgerInvoiceId: string, facts: CrossInvoiceFacts): WindowInvoice | null {
  if (facts.codeMappings === undefined) return null;
  return {
    ledgerInvoiceId,
    invoice: {
      lineItems: facts.lines.map(([productName, unitOfMeasure, sourceItemId, sourceLineId, productCode]) => ({
        productName,
        unitOfMeasure,
        productCode,
        sourceItemId,
        sourceLineId,
      })),
    },
    mappings: facts.codeMappings.map(([sourceItemId, productCode]) => ({ sourceItemId, productCode })),
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
 * "Placeholder risks"): one product code on different items of different invoices, one
 * descriptor standing for different items on every invoice, and one unit of measure on every
 * line of every invoice. Takes a plain list (for example a connection's invoices of the last
 * months); findings come by rule, then in list and line order, so each invoice's view can pick
 * its own by `ledgerInvoiceId`.
 */
export function crossInvoiceRisks(inputs: readonly CrossInvoiceInput[]): RiskFinding[] {
  const repeated = repeatedCodesAcrossInvoices(inputs);
  if (inputs.length < MIN_INVOICES_FOR_PATTERNS) return repeated;
  const occurrences = inputs.flatMap((input, invoice) =>
    input.invoice.lineItems.map((line, index): Occurrence => ({
      input,
      invoice,
      index,
      item: line.sourceItemId ?? `line ${line.sourceLineId}`,
    })),
  );
  return [...repeated, ...staticDescriptors(inputs, occurrences), ...singleUnit(inputs, occurrences)];
}

/**
 * `repeated_product_code` across invoices: a line whose code (normalized as within one invoice) is on a different item
 * of another invoice. Two invoices are enough: unlike a pattern, one code on two products is wrong wherever it is. A
 * line whose code is on another item of its own invoice already has the one-invoice finding (invoice-risks.ts), so it
 * gets no second one; the same item under one code on many invoices is not a finding.
 */
function repeatedCodesAcrossInvoices(inputs: readonly CrossInvoiceInput[]): RiskFinding[] {
  // Lines without an Item are each an item of their own, as within one invoice.
  const itemOf = (invoice: number, line: CrossInvoiceLine, index: number) => line.sourceItemId ?? `\u0000${invoice}:${index}`;
  const byCode = new Map<string, Map<string, Set<number>>>();
  // Each line's code normalized once (a window holds every line of three months of invoices).
  const codes = inputs.map((input) =>
    input.invoice.lineItems.map((line) => (line.productCode === null ? '' : normalizeCode(line.productCode))),
  );
  inputs.forEach((input, invoice) =>
    input.invoice.lineItems.forEach((line, index) => {
      const code = codes[invoice]![index]!;
      if (code === '') return;
      const items = byCode.get(code) ?? new Map<string, Set<number>>();
      byCode.set(code, items);
      const invoices = items.get(itemOf(invoice, line, index)) ?? new Set<number>();
      items.set(itemOf(invoice, line, index), invoices.add(invoice));
    }),
  );
  const findings: RiskFinding[] = [];
  inputs.forEach((input, invoice) =>
    input.invoice.lineItems.forEach((line, index) => {
      const items = byCode.get(codes[invoice]![index]!);
      if (items === undefined || items.size < 2) return;
      const own = itemOf(invoice, line, index);
      const others = [...items].filter(([item]) => item !== own);
      if (others.some(([, invoices]) => invoices.has(invoice))) return;
      const named = others.map(([item, on]) => {
        const invoices = listed([...on].map((i) => inputs[i]!.ledgerInvoiceId ?? `invoice ${i + 1} of the list`));
        return `${item.startsWith('\u0000') ? 'a line without Item' : `Item ${item}`} on ${invoices}`;
      });
      findings.push({
        code: 'repeated_product_code',
        field: 'product_code',
        ledgerInvoiceId: input.ledgerInvoiceId,
        path: linePath(index, 'product_code'),
        source: productCodeSourceField(line.sourceItemId, input.mappings),
        message: `The same product code is on other items of other invoices (${listed(named, '; ')}).`,
      });
    }),
  );
  return findings;
}

/** The first few of a list and how many more: a code shared over a whole window would make a message of every invoice. */
function listed(values: readonly string[], separator = ', ', shown = 3): string {
  const more = values.length - shown;
  return values.slice(0, shown).join(separator) + (more > 0 ? `${separator}${more} more` : '');
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
