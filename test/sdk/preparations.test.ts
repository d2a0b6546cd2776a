import { describe, expect, expectTypeOf, it } from 'vitest';
import { createClient } from '../../sdk/src/index.js';
import { caught } from './support/caught.js';
import { useLedgerApp } from '../support/ledger-app.js';
import { invoiceReader } from '../support/ledger-flow.js';

/** The SDK's invoice-backed preparation calls against the real app and a synced ledger sandbox. */
const app = useLedgerApp({ sandbox: { invoices: 4, items: 2 } });

const key = (name: string) => `sdk-${name}-${crypto.randomUUID().replace(/[0-9]/g, 'x')}`;

describe('SDK invoice-backed preparation against a running server', () => {
  it('when each provider prepares an imported invoice, then typed envelopes with a preparation; refusals are SvcErrors', async () => {
    const gwb = await invoiceReader(app, 'gwb');
    const svcB = createClient({ baseUrl: app.url, apiKey: gwb.key });
    const [invoice] = (await svcB.invoices.list({ query: { ledgerInvoiceId: '1001' } })).body.data.invoices;
    const body = { invoiceId: invoice!.id, amountMinor: invoice!.totalAmountMinor!, currency: 'usd', idempotencyKey: key('gwb') };
    const order = await svcB.gwb.enrichOrderFromInvoice({ body });
    expect(order.status).toBe(200);
    expectTypeOf(order.body.preparation.id).toEqualTypeOf<string>();
    expect(order.body).toMatchObject({ object: 'gwb.order_enrichment', preparation: { invoiceId: invoice!.id } });

    const detail = await svcB.invoices.get({ params: { invoiceId: invoice!.id } });
    expect(detail.body.data.revision).toBe(order.body.preparation.revision);

    // Another integration's source is invisible to this key: 404, not retried.
    const gwa = await invoiceReader(app, 'gwa');
    const svcA = createClient({ baseUrl: app.url, apiKey: gwa.key });
    const refusedA = await caught(
      svcA.gwa.enrichTransactionFromInvoice({ body: { ...body, currency: 'usd', idempotencyKey: key('gwa') } }),
    );
    expect(refusedA).toMatchObject({ status: 404, attempts: 1 });

    // gwc needs merchant-confirmed units: endpoint 11 refuses (422), endpoint 12 prepares an ordinary payment.

    const gwc = await invoiceReader(app, 'gwc');
    const svcC = createClient({ baseUrl: app.url, apiKey: gwc.key });
    const [forC] = (await svcC.invoices.list({ query: { ledgerInvoiceId: '1001' } })).body.data.invoices;
    const cBody = { invoiceId: forC!.id, amountMinor: forC!.totalAmountMinor!, currency: 'usd', idempotencyKey: key('gwc') };
    const refusedC = await caught(svcC.gwc.enrichPaymentIntentFromInvoice({ body: cBody }));
    expect(refusedC).toMatchObject({ status: 422, type: 'validation_error', attempts: 1 });
    const prepared = await svcC.gwc.preparePaymentFromInvoice({ body: { ...cBody, idempotencyKey: key('gwc12') } });
    expect(prepared.body).toMatchObject({ object: 'gwc.payment_preparation', data: { mode: 'ordinary', enrichment: null } });
  });
});
