import type {
  GwaTransactionEnrichmentData,
  GwaTransactionEnrichmentRequest,
  GwbOrderEnrichmentData,
  GwbOrderEnrichmentRequest,
  GwcPaymentIntentEnrichmentData,
  GwcPaymentIntentEnrichmentRequest,
} from '../../../contract/enrichment.js';
import { enrichGwa } from './gwa/enrich-gwa.js';
import { enrichGwb } from './gwb/enrich-gwb.js';
import { enrichGwc } from './gwc/enrich-gwc.js';
import type { Provider } from './issue-codes.js';
import type { EnrichmentResult } from './result.js';

/**
 * One shape for every provider, so callers never branch on the provider name.
 * Wire shapes and envelope names stay in the contract.
 */
export interface EnrichmentAdapter<Request, Data> {
  readonly provider: Provider;
  /** Pure: no I/O. Returns the provider fields, or every issue that prevents them (422). */
  enrich(request: Request): EnrichmentResult<Data>;
}

/** Request and data types of each provider's inline enrichment. */
export interface EnrichmentTypes {
  gwa: { request: GwaTransactionEnrichmentRequest; data: GwaTransactionEnrichmentData };
  gwb: { request: GwbOrderEnrichmentRequest; data: GwbOrderEnrichmentData };
  gwc: { request: GwcPaymentIntentEnrichmentRequest; data: GwcPaymentIntentEnrichmentData };
}

export type EnrichmentRequest<P extends Provider> = EnrichmentTypes[P]['request'];
export type EnrichmentData<P extends Provider> = EnrichmentTypes[P]['data'];

export const enrichmentAdapters: { readonly [P in Provider]: EnrichmentAdapter<EnrichmentRequest<P>, EnrichmentData<P>> } = {
  gwa: {
    provider: 'gwa',
    enrich: enrichGwa,
  },
  gwb: {
    provider: 'gwb',
    enrich: enrichGwb,
  },
  gwc: {
    provider: 'gwc',
    enrich: enrichGwc,
  },
};

/**
 * Inline enrichment for any provider: the request has passed the contract
 * (400 otherwise); `ok: false` carries the issues of a 422.
 */
export function enrichInline<P extends Provider>(provider: P, request: EnrichmentRequest<P>): EnrichmentResult<EnrichmentData<P>> {
  const adapter: EnrichmentAdapter<EnrichmentRequest<P>, EnrichmentData<P>> = enrichmentAdapters[provider];
  const { currency } = request.invoice;
  const canonical = canonicalCurrency(currency);
  return adapter.enrich(canonical === currency ? request : { ...request, invoice: { ...request.invoice, currency: canonical } });
}

/**
 * The one form of a currency code inside the service: lowercase, as reports, preparations and stored invoices write it.
 * A CanonicalInvoice may carry any case (spec: "three-letter currency code"); each provider's output then writes its own
 * case (gwb money in uppercase; gwa and gwc fields carry no currency).
 */
export function canonicalCurrency(code: string): string {
  return code.toLowerCase();
}
