/** Public surface of network qualification (docs/network-qualification.md): pure, no I/O. */
export { ledgerInvoiceIdOf, qualifyInvoice, qualificationInputOf, withCrossInvoiceRisks } from './qualify.js';
export {
  crossInvoiceFactsOf,
  crossInvoiceInputOf,
  crossInvoiceRisks,
  MIN_INVOICES_FOR_PATTERNS,
  type CrossInvoiceFacts,
} from './cross-invoice-risks.js';
export { CARRIED } from './carriage.js';
export { qualificationOfStored, storedQualificationOf, type EarlierStoredQualification, type StoredQualification } from './stored-form.js';
export type { QualificationInput } from './source-fields.js';
export {
  LINE_FIELDS,
  RISK_CODES,
  TRANSACTION_FIELDS,
  type LineField,
  type MissingField,
  type MissingReason,
  type Product3Field,
  type ProviderQualification,
  type Qualification,
  type QualificationLevel,
  type RiskCode,
  type RiskFinding,
  type SourceField,
  type TransactionField,
} from './fields.js';
