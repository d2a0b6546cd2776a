import { describe, expect, it } from 'vitest';
import { ENRICHMENT_OBJECTS, inlineEnrichmentRoutes } from '../../../contract/inline-enrichment.js';
import {
  enrichGwa,
  enrichGwb,
  enrichGwc,
  enrichInline,
  enrichmentAdapters,
  type Provider,
} from '../../../server/domain/enrichment/index.js';
import { happyInvoice, makeInvoice } from './support/invoices.js';

const PROVIDERS: Provider[] = ['gwa', 'gwb', 'gwc'];

/** What an HTTP handler does, written once for every provider: parse by the contract, enrich, wrap. */
function handle(provider: Provider, body: unknown) {
  const parsed = inlineEnrichmentRoutes[provider].body.safeParse(body);
  if (!parsed.success) return { status: 400 as const };
  const result = enrichInline(provider, parsed.data as never);
  if (!result.ok) return { status: 422 as const, issues: result.issues };
  return { status: 200 as const, body: { object: ENRICHMENT_OBJECTS[provider], api_version: 'v1' as const, data: result.data } };
}

describe('provider registry', () => {
  it('when the registry is listed, then it holds one adapter per provider with the spec envelope names', () => {
    expect(Object.fromEntries(PROVIDERS.map((p) => [p, [enrichmentAdapters[p].provider, ENRICHMENT_OBJECTS[p]]]))).toStrictEqual({
      gwa: ['gwa', 'gwa.transaction_enrichment'],
      gwb: ['gwb', 'gwb.order_enrichment'],
      gwc: ['gwc', 'gwc.payment_intent_enrichment'],
    });
  });

  it('when enrichInline is called, then it returns what the provider function returns', () => {
    const invoice = happyInvoice();
    expect(enrichInline('gwa', { invoice })).toStrictEqual(enrichGwa({ invoice }));
    expect(enrichInline('gwb', { invoice })).toStrictEqual(enrichGwb({ invoice }));
    expect(enrichInline('gwc', { invoice })).toStrictEqual(enrichGwc({ invoice }));
  });

  it.each(PROVIDERS)('when a %s body is valid, then one generic handler yields a 200 envelope the contract accepts', (provider) => {
    const outcome = handle(provider, JSON.parse(JSON.stringify({ invoice: happyInvoice() })));
    expect(outcome.status).toBe(200);
    expect(inlineEnrichmentRoutes[provider].responses[200].safeParse(outcome.body).success).toBe(true);
  });

  it.each(PROVIDERS)('when a %s body breaks the contract, then the generic handler yields 400 before the core runs', (provider) => {
    expect(handle(provider, { invoice: happyInvoice(), extra: true }).status).toBe(400);
  });

  it.each(PROVIDERS)('when a %s invoice cannot produce fields, then the generic handler yields 422 with issues', (provider) => {
    const outcome = handle(provider, { invoice: makeInvoice({ status: 'void' }) });
    expect(outcome).toStrictEqual({ status: 422, issues: [expect.objectContaining({ code: 'invoice_not_open' })] });
  });
});
