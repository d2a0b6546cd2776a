import type { CategorizedIssue } from '../../../contract/common/index.js';
import { invoiceIssue } from './issue-categories.js';
import { record, records, text, type SourceRecord } from './source-record.js';

const LABEL_NAME = /^SalesFormsPrefs\.SalesCustomName([1-3])$/;

/**
 * The buyer's PO from the invoice custom field an operator configured for the
 * connection (by its label), never from a memo or the invoice number (spec:
 * "never invents a purchase-order number"). The company Preferences map a label to
 * its DefinitionId (`SalesCustomNameN` ↔ DefinitionId `N`); the invoice's
 * CustomField[] carries DefinitionId and usually Name. Matching by DefinitionId
 * survives a renamed label on old invoices; matching by Name is the fallback when
 * the Preferences do not name the label (docs/decisions.md).
 */
export function purchaseOrderOf(
  invoice: SourceRecord,
  preferences: SourceRecord | null,
  label: string | null,
): { value: string | null; issues: CategorizedIssue[] } {
  const wanted = normalize(label);
  if (wanted === null) return { value: null, issues: [] };
  const fields = records(invoice.CustomField);
  const definitions = definitionIdsFor(preferences, wanted);
  if (definitions.length > 1) {
    return {
      value: null,
      issues: [invoiceIssue('purchase_order_field_ambiguous', 'source.CustomField', `DefinitionIds ${definitions.join(', ')}.`)],
    };
  }
  const matches =
    definitions.length === 1
      ? fields.filter((f) => String(f.DefinitionId ?? '') === definitions[0])
      : fields.filter((f) => normalize(text(f.Name)) === wanted);
  if (matches.length > 1) {
    return { value: null, issues: [invoiceIssue('purchase_order_field_ambiguous', 'source.CustomField')] };
  }
  const value = text(matches[0]?.StringValue);
  return { value: value === null ? null : value.trim(), issues: [] };
}

/** Labels compare trimmed and case-insensitively: operators type them by hand. */
function normalize(label: string | null): string | null {
  const trimmed = label?.trim().toLowerCase() ?? '';
  return trimmed === '' ? null : trimmed;
}

/**
 * DefinitionIds whose label equals the wanted one. Preferences JSON nests the
 * definitions as `SalesFormsPrefs.CustomField[].CustomField[]` of `{Name, StringValue}`.
 */
function definitionIdsFor(preferences: SourceRecord | null, wanted: string): string[] {
  const groups = records(record(preferences?.SalesFormsPrefs)?.CustomField);
  const ids = new Set<string>();
  for (const group of groups) {
    for (const definition of records(group.CustomField)) {
      const match = LABEL_NAME.exec(text(definition.Name) ?? '');
      if (match?.[1] && normalize(text(definition.StringValue)) === wanted) ids.add(match[1]);
    }
  }
  return [...ids].sort();
}
