import type { CategorizedIssue } from '../../../contract/common/index.js';
import type { InvoiceStatus } from '../../../contract/canonical-invoice.js';
import type { StoredInvoice } from '../../../contract/invoices.js';
import { redactedPaths } from '../guard/redact-card-numbers.js';
import { invoiceIssue } from './issue-categories.js';
import { chooseMapping, mapLines, money, type LineContext } from './map-lines.js';
import { purchaseOrderOf } from './purchase-order.js';
import { revisionOf } from './revision.js';
import { currencyExponent } from './source-money.js';
import { dateAsTimestamp, dateTimeAsTimestamp, record, refValue, text, type SourceRecord } from './source-record.js';
import { arithmeticIssues } from './to-canonical.js';
import type { MappedInvoice, MapperInput, UsedDependency } from './types.js';

/** Bumped whenever a mapping rule changes; part of every revision (spec: Versioning). */
export const MAPPER_VERSION = '1';

/**
 * One source Invoice (with the Items it references, the company Preferences,
 * the connection's settings and confirmed item mappings) → the StoredInvoice
 * fields, the dependencies used and every issue found. Pure: no I/O, no clock.
 * Rules: docs/decisions.md, "Stored invoices: mapping and readiness".
 */
export function mapInvoice(input: MapperInput): MappedInvoice {
  const { invoice: source, preferences } = input;
  const issues: CategorizedIssue[] = [];
  if (input.deleted) issues.push(invoiceIssue('invoice_deleted_at_source', 'source'));
  if (preferences === null) issues.push(invoiceIssue('missing_dependency', 'source.Preferences', 'Preferences are not imported.'));
  issues.push(...cardDataIssues(source, input.items));

  const currency = currencyOf(source, preferences);
  if (currency === null) issues.push(invoiceIssue('missing_currency', 'invoice.currency'));
  const items = new Map<string, SourceRecord>();
  for (const item of input.items) {
    const id = text(item.Id);
    if (id !== null) items.set(id, item);
  }
  const context: LineContext = { exponent: currency === null ? null : currencyExponent(currency), items, mappings: input.mappings };
  const lines = mapLines(source.Line, context);
  issues.push(...lines.issues);

  const totalAmountMinor = money(source.TotalAmt, context, 'invoice.totalAmountMinor', issues);
  const balanceAmountMinor = money(source.Balance, context, 'invoice.balanceAmountMinor', issues);
  const taxAmountMinor = taxOf(source, preferences, context, issues);
  const invoiceNumber = text(source.DocNumber);
  if (invoiceNumber === null) issues.push(invoiceIssue('missing_invoice_number', 'invoice.invoiceNumber'));
  const purchaseOrder = purchaseOrderOf(source, preferences, input.settings.purchaseOrderField);
  issues.push(...purchaseOrder.issues);
  const status = statusOf(source, totalAmountMinor, balanceAmountMinor);

  const invoice: StoredInvoice = {
    invoiceNumber,
    purchaseOrderReference: purchaseOrder.value,
    status,
    currency,
    subtotalAmountMinor: subtotalOf(
      lines.lines.map((l) => l.subtotalAmountMinor),
      context,
    ),
    taxAmountMinor,
    shippingAmountMinor: lines.shippingMinor,
    discountAmountMinor: lines.discountMinor,
    totalAmountMinor,
    balanceAmountMinor,
    taxRepresentation: 'transaction',
    discountRepresentation: 'transaction',
    issuedAt: dateAsTimestamp(source.TxnDate),
    dueAt: dateAsTimestamp(source.DueDate),
    // The provider keeps no void time; the update that voided it is the last one we saw (docs/decisions.md).
    voidedAt: status === 'void' ? dateTimeAsTimestamp(record(source.MetaData)?.LastUpdatedTime) : null,
    lineItems: lines.lines,
  };
  issues.push(...arithmeticIssues(invoice));

  const ledgerInvoiceId = text(source.Id) ?? '';
  const sourceVersion = text(source.SyncToken);
  const dependencies: UsedDependency[] = [
    { objectType: 'Invoice', externalId: ledgerInvoiceId, version: sourceVersion },
    ...(preferences !== null
      ? [{ objectType: 'Preferences' as const, externalId: text(preferences.Id) ?? '', version: text(preferences.SyncToken) }]
      : []),
    ...lines.itemIds.map((id) => ({ objectType: 'Item' as const, externalId: id, version: text(items.get(id)?.SyncToken) })),
  ];
  const mappingVersions = lines.itemIds.flatMap((id) => {
    const { latest } = chooseMapping(input.mappings, id);
    return latest ? [{ id: latest.id, version: latest.version, revoked: latest.revoked }] : [];
  });
  const revision = revisionOf({
    sourceVersion,
    mapperVersion: MAPPER_VERSION,
    settingsVersion: input.settings.version,
    mappingVersions,
    dependencyVersions: dependencies.filter((d) => d.objectType !== 'Invoice'),
  });
  const mappings = lines.mappingsUsed.map(
    ({ id, sourceItemId, productCode, unitOfMeasure, version, evidence, approvedBy, approvedAt }) => ({
      id,
      sourceItemId,
      productCode,
      unitOfMeasure,
      version,
      evidence,
      approvedBy,
      approvedAt,
    }),
  );
  return {
    mapperVersion: MAPPER_VERSION,
    ledgerInvoiceId,
    sourceVersion,
    revision,
    deleted: input.deleted,
    invoice,
    dependencies,
    mappings,
    issues,
  };
}

/**
 * The fields of the invoice, and of the Items its lines read, that the import
 * stored as the card-number marker: the operator must clean them at the source.
 * Item fields are named by the Item's id (`source.Item(7).Name`).
 */
function cardDataIssues(source: SourceRecord, items: readonly SourceRecord[]): CategorizedIssue[] {
  const paths = [...redactedPaths(source, 'source'), ...items.flatMap(itemRedactedPaths)];
  return paths.map((path) => invoiceIssue('card_data_in_source', path));
}

/**
 * An Item's redacted paths, found once per Item record: an import maps every invoice of a page against the same Item
 * records, each read by many invoices. Records are parsed JSON, never changed after (keyed by identity, held weakly).
 */
const itemRedactions = new WeakMap<SourceRecord, string[]>();
function itemRedactedPaths(item: SourceRecord): string[] {
  let paths = itemRedactions.get(item);
  if (paths === undefined) {
    paths = redactedPaths(item, `source.Item(${text(item.Id) ?? '?'})`);
    itemRedactions.set(item, paths);
  }
  return paths;
}

/** The invoice's currency, else the company's home currency (single-currency companies omit CurrencyRef). */
function currencyOf(source: SourceRecord, preferences: SourceRecord | null): string | null {
  const code = refValue(source.CurrencyRef) ?? refValue(record(preferences?.CurrencyPrefs)?.HomeCurrency);
  const lower = code?.trim().toLowerCase() ?? null;
  return lower !== null && /^[a-z]{3}$/.test(lower) ? lower : null;
}

/**
 * Transaction tax from TxnTaxDetail.TotalTax. Without it, 0 only when the invoice
 * clearly has none (GlobalTaxCalculation NotApplicable, or the company does not use
 * sales tax); otherwise unknown: the service never invents a tax amount.
 */
function taxOf(source: SourceRecord, preferences: SourceRecord | null, context: LineContext, issues: CategorizedIssue[]): number | null {
  if (source.GlobalTaxCalculation === 'TaxInclusive') issues.push(invoiceIssue('tax_inclusive_invoice', 'source.GlobalTaxCalculation'));
  const totalTax = record(source.TxnTaxDetail)?.TotalTax;
  if (totalTax !== undefined && totalTax !== null) return money(totalTax, context, 'invoice.taxAmountMinor', issues);
  const noTax = source.GlobalTaxCalculation === 'NotApplicable' || record(preferences?.TaxPrefs)?.UsingSalesTax === false;
  if (noTax) return context.exponent === null ? null : 0;
  issues.push(invoiceIssue('tax_unknown', 'invoice.taxAmountMinor'));
  return null;
}

/**
 * §4.3 of the provider facts: a void keeps the invoice, zeroes every amount and puts
 * "Voided" at the start of PrivateNote. Otherwise the status follows total and balance.
 */
function statusOf(source: SourceRecord, total: number | null, balance: number | null): InvoiceStatus {
  const voided = (text(source.PrivateNote) ?? '').startsWith('Voided');
  if (voided && total === 0 && balance === 0) return 'void';
  if (total === null || balance === null || total === 0 || balance > total) return 'unknown';
  if (balance === total) return 'open';
  return balance === 0 ? 'paid' : 'partially_paid';
}

function subtotalOf(subtotals: readonly (number | null)[], context: LineContext): number | null {
  if (context.exponent === null || subtotals.some((s) => s === null)) return null;
  return subtotals.reduce<number>((sum, s) => sum + (s ?? 0), 0);
}
