import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import type { PaymentProvider } from '../../../contract/common/index.js';
import { contract } from '../../../contract/index.js';
import { ENRICHMENT_OBJECTS } from '../../../contract/inline-enrichment.js';
import type { EnrichmentRequest } from '../../domain/enrichment/index.js';
import { enrichInlineInvoice, type EnrichmentRecordWriter } from '../../domain/inline-enrichment/enrich-inline-invoice.js';
import { authOf } from '../auth-of.js';

const s = initServer();

const enrichHandler =
  <P extends PaymentProvider>(provider: P, records: EnrichmentRecordWriter) =>
  async ({ body, req }: { body: EnrichmentRequest<P>; req: Request }) => {
    const result = await enrichInlineInvoice(records, { ctx: authOf(req), provider, request: body, requestId: req.id });
    if (!result.ok) {
      return {
        status: 422 as const,
        body: {
          error: {
            type: 'validation_error' as const,
            message: `The invoice cannot produce valid ${provider} fields`,
            issues: result.issues,
          },
        },
      };
    }
    return { status: 200 as const, body: { object: ENRICHMENT_OBJECTS[provider], api_version: 'v1' as const, data: result.data } };
  };

/** Endpoints 2, 5 and 10: inline enrichment. */
export const inlineEnrichmentHandlers = (records: EnrichmentRecordWriter) => ({
  gwa: s.route(contract.gwa.enrichTransaction, enrichHandler('gwa', records)),
  gwb: s.route(contract.gwb.enrichOrder, enrichHandler('gwb', records)),
  gwc: s.route(contract.gwc.enrichPaymentIntent, enrichHandler('gwc', records)),
});
