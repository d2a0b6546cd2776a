/** Public surface of the pure stored-invoice core (docs/decisions.md, "Stored invoices: mapping and readiness"). */
export { mapInvoice, MAPPER_VERSION } from './map-invoice.js';
export { SHIPPING_ITEM_ID, chooseMapping } from './map-lines.js';
export { toCanonicalInvoice, arithmeticIssues, type CanonicalResult } from './to-canonical.js';
export {
  readinessOf,
  preparationRequest,
  freshnessIssues,
  accessIssues,
  FRESHNESS_WINDOW_MS,
  snapshotChecksCache,
  type Readiness,
  type ReadinessInput,
  type SnapshotChecks,
  type SnapshotChecksCache,
} from './readiness.js';
export { revisionOf, type RevisionInput } from './revision.js';
export { currencyExponent, exactDecimalText, toMinorUnits } from './source-money.js';
export {
  INVOICE_ISSUE_CODES,
  ENRICHMENT_CODE_CATEGORIES,
  categoryOf,
  categorize,
  invoiceIssue,
  type InvoiceIssueCode,
} from './issue-categories.js';
export type { ConnectionSettings, InvoiceState, ItemMapping, MappedInvoice, MapperInput, UsedDependency } from './types.js';
