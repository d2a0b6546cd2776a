import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../../support/harness.js';
import { createTenant, type Tenant } from '../../support/tenants.js';
import { reportFor } from '../../support/reports.js';
import { happyInvoice, makeInvoice, makeLine } from '../../unit/enrichment/support/invoices.js';
import { enrichGwa, enrichGwb, enrichGwc } from '../../../server/domain/enrichment/index.js';

const ROUTES = {
  gwa: { path: '/api/v1/gwa/transaction-enrichment', object: 'gwa.transaction_enrichment', enrich: enrichGwa },
  gwb: { path: '/api/v1/gwb/order-enrichment', object: 'gwb.order_enrichment', enrich: enrichGwb },
  gwc: { path: '/api/v1/gwc/payment-intent-enrichment', object: 'gwc.payment_intent_enrichment', enrich: enrichGwc },
} as const;

const post = (app: TestApp, t: Tenant, json: unknown) =>
  app.request(ROUTES[t.provider as 'gwa'].path, { method: 'POST', json, key: t.key });

describe.each(['gwa', 'gwb', 'gwc'] as const)('inline enrichment over HTTP: %s', (provider) => {
  const app = useTestApp();
  const route = ROUTES[provider];

  it("when the invoice is valid, then 200 with the envelope, the core's exact data and a stored enrichment record", async () => {
    const t = await createTenant(app, { provider, scopes: ['enrichment:write'] });
    const invoice = happyInvoice();
    const res = await post(app, t, { invoice });
    expect(res.status).toBe(200);
    const expected = (route.enrich as (r: unknown) => { ok: boolean; data?: unknown })({ invoice });
    expect(expected.ok).toBe(true);
    expect(res.body).toEqual({ object: route.object, api_version: 'v1', data: expected.data });
    const requestId = res.headers.get('x-svc-request-id');
    expect(requestId).toMatch(/^req_[0-9a-f]{32}$/);
    const rows = await app.orm.em
      .getConnection()
      .execute(
        `select organization_id, integration_id, environment, provider, amount_minor::int as amount, currency, invoice_number from enrichment_records where request_id = '${requestId}'`,
      );
    expect(rows).toEqual([
      {
        organization_id: t.organizationId,
        integration_id: t.integrationId,
        environment: 'sandbox',
        provider,
        amount: invoice.totalAmountMinor,
        currency: 'usd',
        invoice_number: invoice.invoiceNumber,
      },
    ]);
  });

  it('when the body breaks the contract, then 400 with every structural problem and nothing stored', async () => {
    const t = await createTenant(app, { provider, scopes: ['enrichment:write'] });
    const invoice: any = happyInvoice();
    invoice.lineItems[1].quantity = 2;
    invoice.lineItems[0].colour = 'blue';
    delete invoice.dueAt;
    const res = await post(app, t, { invoice, extra: 1 });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('validation_error');
    expect(res.body.error.issues.map((i: any) => `${i.code}@${i.path}`).sort()).toEqual(
      [
        'invalid_type@invoice.lineItems[1].quantity',
        'unknown_property@invoice.lineItems[0].colour',
        'required@invoice.dueAt',
        'unknown_property@extra',
      ].sort(),
    );
    const count = await app.orm.em
      .getConnection()
      .execute(`select count(*)::int as n from enrichment_records where integration_id = '${t.integrationId}'`);
    expect(count).toEqual([{ n: 0 }]);
  });

  it('when the invoice is well-formed but cannot reconcile, then 422 listing every issue and nothing stored', async () => {
    const t = await createTenant(app, { provider, scopes: ['enrichment:write'] });
    const invoice = makeInvoice({
      lineItems: [makeLine({ sequence: 1, productCode: null }), makeLine({ sequence: 1, totalAmountMinor: 999 })],
      totalAmountMinor: 5,
    });
    const res = await post(app, t, { invoice });
    expect(res.status).toBe(422);
    expect(res.body.error.type).toBe('validation_error');
    expect(res.body.error.message).toBe(`The invoice cannot produce valid ${provider} fields`);
    const codes = res.body.error.issues.map((i: any) => i.code);
    expect(codes).toContain('arithmetic_mismatch');
    expect(codes).toContain('duplicate_sequence');
    if (provider !== 'gwb') expect(codes).toContain('missing_product_code');
    expect(res.headers.get('x-svc-request-id')).toMatch(/^req_/);
    const count = await app.orm.em
      .getConnection()
      .execute(`select count(*)::int as n from enrichment_records where integration_id = '${t.integrationId}'`);
    expect(count).toEqual([{ n: 0 }]);
  });

  it('when the payment is reported with the enrichment request id and a different amount, then a correlation exception is recorded', async () => {
    const enrichKey = await createTenant(app, { provider, scopes: ['enrichment:write', 'payments:write'] });
    const invoice = happyInvoice();
    const enriched = await post(app, enrichKey, { invoice });
    expect(enriched.status).toBe(200);
    const enrichmentRequestId = enriched.headers.get('x-svc-request-id');
    const report = await app.request(`/api/v1/${provider}/payment-reports`, {
      method: 'POST',
      key: enrichKey.key,
      json: reportFor[provider]({
        enrichmentRequestId,
        amountMinor: invoice.totalAmountMinor + 1,
        capturedAmountMinor: invoice.totalAmountMinor + 1,
      }),
    });
    expect(report.status).toBe(200);
    const rows = await app.orm.em
      .getConnection()
      .execute(`select kind, expected, observed from correlation_exceptions where enrichment_request_id = '${enrichmentRequestId}'`);
    expect(rows).toEqual([
      { kind: 'amount_mismatch', expected: String(invoice.totalAmountMinor), observed: String(invoice.totalAmountMinor + 1) },
    ]);
  });

  it.each(['USD', 'Usd'])(
    'when the currency is written %s, then 200 with the data of usd in the provider’s own case, a lowercase record, and a usd report matches it',
    async (currency) => {
      const t = await createTenant(app, { provider, scopes: ['enrichment:write', 'payments:write'] });
      const invoice = { ...happyInvoice(), currency };
      const res = await post(app, t, { invoice });
      expect(res.status).toBe(200);
      const expected = (route.enrich as (r: unknown) => { ok: boolean; data?: unknown })({ invoice: happyInvoice() });
      expect(res.body).toEqual({ object: route.object, api_version: 'v1', data: expected.data });
      // gwb writes money in uppercase codes; gwa and gwc outputs carry no currency.
      if (provider === 'gwb') expect(JSON.stringify(res.body.data)).toContain('"currency":"USD"');
      else expect(JSON.stringify(res.body.data)).not.toMatch(/currency/i);
      const requestId = res.headers.get('x-svc-request-id');
      const sql = (q: string) => app.orm.em.getConnection().execute(q);
      expect(await sql(`select currency from enrichment_records where request_id = '${requestId}'`)).toEqual([{ currency: 'usd' }]);
      const report = await app.request(`/api/v1/${provider}/payment-reports`, {
        method: 'POST',
        key: t.key,
        json: reportFor[provider]({
          enrichmentRequestId: requestId,
          amountMinor: invoice.totalAmountMinor,
          capturedAmountMinor: invoice.totalAmountMinor,
        }),
      });
      expect(report.status).toBe(200);
      expect(await sql(`select kind from correlation_exceptions where enrichment_request_id = '${requestId}'`)).toEqual([]);
    },
  );

  it('when the currency is not three letters, then 400 naming invoice.currency and nothing stored', async () => {
    const t = await createTenant(app, { provider, scopes: ['enrichment:write'] });
    const res = await post(app, t, { invoice: { ...happyInvoice(), currency: 'US$' } });
    expect(res.status).toBe(400);
    expect(res.body.error.issues).toEqual([
      { code: 'invalid_string', path: 'invoice.currency', message: 'Expected a three-letter currency code, for example USD or usd' },
    ]);
    const count = await app.orm.em
      .getConnection()
      .execute(`select count(*)::int as n from enrichment_records where integration_id = '${t.integrationId}'`);
    expect(count).toEqual([{ n: 0 }]);
  });

  it('when the same invoice is enriched twice, then each response has its own request id and record', async () => {
    const t = await createTenant(app, { provider, scopes: ['enrichment:write'] });
    const a = await post(app, t, { invoice: happyInvoice() });
    const b = await post(app, t, { invoice: happyInvoice() });
    expect(a.headers.get('x-svc-request-id')).not.toBe(b.headers.get('x-svc-request-id'));
    const count = await app.orm.em
      .getConnection()
      .execute(`select count(*)::int as n from enrichment_records where integration_id = '${t.integrationId}'`);
    expect(count).toEqual([{ n: 2 }]);
  });
});
