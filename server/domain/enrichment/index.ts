/** Public surface of the pure enrichment core; HTTP handlers import only from here. */
export {
  canonicalCurrency,
  enrichInline,
  enrichmentAdapters,
  type EnrichmentAdapter,
  type EnrichmentData,
  type EnrichmentRequest,
} from './provider.js';
export type { EnrichmentResult } from './result.js';
export { ISSUE_CODES, issue, type IssueCode, type Provider } from './issue-codes.js';
export { checkCanonicalInvoice, checkPaymentState, type InvoiceFacts, type OrderedLine, type PaymentState } from './canonical-checks.js';
export { enrichGwa } from './gwa/enrich-gwa.js';
export { enrichGwb } from './gwb/enrich-gwb.js';
export { enrichGwc } from './gwc/enrich-gwc.js';
