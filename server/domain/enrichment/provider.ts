import type { z } from 'zod';
import {
  GwaTransactionEnrichmentDataSchema,
  GwaTransactionEnrichmentRequestSchema,
  GwbOrderEnrichmentDataSchema,
  GwbOrderEnrichmentRequestSchema,
  GwcPaymentIntentEnrichmentDataSchema,
  GwcPaymentIntentEnrichmentRequestSchema,
  type GwaTransactionEnrichmentData,
  type GwaTransactionEnrichmentRequest,
  type GwbOrderEnrichmentData,
  type GwbOrderEnrichmentRequest,
  type GwcPaymentIntentEnrichmentData,
  type GwcPaymentIntentEnrichmentRequest,
} from '../../../contract/enrichment.js';
import { enrichGwa } from './gwa/enrich-gwa.js';
import { enrichGwb } from './gwb/enrich-gwb.js';
import { enrichGwc } from './gwc/enrich-gwc.js';
import type { Provider } from './issue-codes.js';
import type { EnrichmentResult } from './result.js';

/** One shape for every provider, so callers never branch on the provider name (style §5). */
export interface EnrichmentAdapter<Request, Data> {
  readonly provider: Provider;
  /** `object` of the success envelope, for example `gwa.transaction_enrichment`. */
  readonly object: string;
  readonly requestSchema: z.ZodType<Request, z.ZodTypeDef, unknown>;
  readonly dataSchema: z.ZodType<Data, z.ZodTypeDef, unknown>;
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
    object: 'gwa.transaction_enrichment',
    requestSchema: GwaTransactionEnrichmentRequestSchema,
    dataSchema: GwaTransactionEnrichmentDataSchema,
    enrich: enrichGwa,
  },
  gwb: {
    provider: 'gwb',
    object: 'gwb.order_enrichment',
    requestSchema: GwbOrderEnrichmentRequestSchema,
    dataSchema: GwbOrderEnrichmentDataSchema,
    enrich: enrichGwb,
  },
  gwc: {
    provider: 'gwc',
    object: 'gwc.payment_intent_enrichment',
    requestSchema: GwcPaymentIntentEnrichmentRequestSchema,
    dataSchema: GwcPaymentIntentEnrichmentDataSchema,
    enrich: enrichGwc,
  },
};

/**
 * Inline enrichment for any provider: the request has passed the contract
 * (400 otherwise); `ok: false` carries the issues of a 422.
 */
export function enrichInline<P extends Provider>(
  provider: P,
  request: EnrichmentRequest<P>,
): EnrichmentResult<EnrichmentData<P>> {
  const adapter: EnrichmentAdapter<EnrichmentRequest<P>, EnrichmentData<P>> = enrichmentAdapters[provider];
  return adapter.enrich(request);
}
