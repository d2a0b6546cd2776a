import { randomUUID } from 'node:crypto';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { requestExamples } from '../../contract/examples.js';
import { useTestApp } from '../support/harness.js';
import { createTenant } from '../support/tenants.js';
import { happyInvoice, makeInvoice, makeLine } from '../unit/enrichment/support/invoices.js';
import {
  contract,
  createClient,
  enrichmentRequestIdOf,
  gwaSettlementArgs,
  mergeGwaSale,
  mergeGwbOrder,
  mergeGwcPaymentIntent,
  newEventId,
  type GwaPaymentReport,
  type GwbPaymentReport,
  type GwcPaymentReport,
} from '../../sdk/src/index.js';
import { caught } from './support/caught.js';

/** The SDK against the real app over real HTTP, with real keys, for every route of the contract. */
const app = useTestApp();

const clientFor = async (provider: 'gwa' | 'gwb' | 'gwc') => {
  const tenant = await createTenant(app, { provider, scopes: ['enrichment:write', 'payments:write'] });
  return createClient({ baseUrl: app.url, apiKey: tenant.key, retry: { baseDelayMs: 5, maxDelayMs: 20 } });
};

/** The documented example with fresh identities (examples name an enrichment that exists only in the docs). */
function exampleReport<T>(operationId: string, enrichmentRequestId: string | undefined): T {
  const { enrichmentRequestId: _drop, ...example } = requestExamples[operationId]!.value as Record<string, unknown>;
  return {
    ...example,
    eventId: newEventId(),
    attemptId: `att_${randomUUID()}`,
    ...(enrichmentRequestId ? { enrichmentRequestId } : {}),
  } as T;
}

describe('SDK against a running server', () => {
  it('gwa: when enriching the documented example, then the typed data merges into a sale and the outcome is reported', async () => {
    const svc = await clientFor('gwa');
    const enriched = await svc.gwa.enrichTransaction({ body: requestExamples.gwaEnrichTransaction!.value as never });
    expect(enriched.status).toBe(200);
    expectTypeOf(enriched.body.data.amount).toEqualTypeOf<string>();
    expect(enriched.body).toMatchObject({
      object: 'gwa.transaction_enrichment',
      api_version: 'v1',
      data: { amount: '134.90', shipsFromPostalCode: '94107' },
    });
    expect(enriched.requestId).toMatch(/^req_[0-9a-f]{32}$/);

    const sale = mergeGwaSale({ paymentMethodNonce: 'fake-valid-nonce', options: { submitForSettlement: true } }, enriched.body.data);
    expect(sale).toMatchObject({ paymentMethodNonce: 'fake-valid-nonce', amount: '134.90', orderId: 'INV-1001' });
    const settlement = gwaSettlementArgs(enriched.body.data);
    expect(settlement.amount).toBe('134.90');
    expect(settlement.options).not.toHaveProperty('amount');

    const body = exampleReport<GwaPaymentReport>('gwaReportPayment', enrichmentRequestIdOf(enriched));
    const ack = await svc.gwa.reportPayment({ body });
    expect(ack.body).toMatchObject({ object: 'gwa.payment_report', api_version: 'v1', data: { duplicate: false } });
    expectTypeOf(ack.body.data.duplicate).toEqualTypeOf<boolean>();
  });

  it('gwb: when enriching the documented example, then the fragment merges into an order and the outcome is reported', async () => {
    const svc = await clientFor('gwb');
    const enriched = await svc.gwb.enrichOrder({ body: requestExamples.gwbEnrichOrder!.value as never });
    expect(enriched.body.object).toBe('gwb.order_enrichment');
    const order = mergeGwbOrder({ location_id: 'L1', metadata: { cart: 'c-1' } }, enriched.body.data);
    expect(order).toMatchObject({ location_id: 'L1', reference_id: 'PO-7781', metadata: { cart: 'c-1', invoice_number: 'INV-1001' } });
    const ack = await svc.gwb.reportPayment({ body: exampleReport<GwbPaymentReport>('gwbReportPayment', enrichmentRequestIdOf(enriched)) });
    expect(ack.body.data.duplicate).toBe(false);
  });

  it('gwc: when enriching the documented example, then the fields merge into a PaymentIntent and the outcome is reported', async () => {
    const svc = await clientFor('gwc');
    const enriched = await svc.gwc.enrichPaymentIntent({ body: requestExamples.gwcEnrichPaymentIntent!.value as never });
    expectTypeOf(enriched.body.data.amount_details.enforce_arithmetic_validation).toEqualTypeOf<true>();
    const params = mergeGwcPaymentIntent(
      { amount: 13490, currency: 'usd', payment_details: { customer_reference: 'mine' }, metadata: { order: '1' } },
      enriched.body.data,
    );
    expect(params).toMatchObject({ amount: 13490, payment_details: { order_reference: 'PO-7781', customer_reference: 'CUST-42' } });
    expect(params.amount_details.line_items).toHaveLength(2);
    const ack = await svc.gwc.reportPayment({ body: exampleReport<GwcPaymentReport>('gwcReportPayment', enrichmentRequestIdOf(enriched)) });
    expect(ack.body.data.duplicate).toBe(false);
  });

  it('when a report is retried identically, then duplicate: true; with a changed payload, then SvcError 409 with issues and request id', async () => {
    const svc = await clientFor('gwc');
    const body = exampleReport<GwcPaymentReport>('gwcReportPayment', undefined);
    const first = await svc.gwc.reportPayment({ body });
    const again = await svc.gwc.reportPayment({ body });
    expect(again.body.data).toEqual({ id: first.body.data.id, duplicate: true });
    const error = await caught(
      svc.gwc.reportPayment({ body: { ...body, amountMinor: body.amountMinor + 1, capturedAmountMinor: body.amountMinor + 1 } }),
    );
    expect(error).toMatchObject({ status: 409, type: 'conflict', attempts: 1 });
    expect(error.issues.length).toBeGreaterThan(0);
    expect(error.requestId).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it('when the invoice cannot produce valid fields, then SvcError 422 lists every issue', async () => {
    const svc = await clientFor('gwa');
    const invoice = makeInvoice({ lineItems: [makeLine({ productCode: null })], totalAmountMinor: 5 });
    const error = await caught(svc.gwa.enrichTransaction({ body: { invoice } }));
    expect(error).toMatchObject({ status: 422, type: 'validation_error' });
    expect(error.issues.map((i) => i.code)).toEqual(expect.arrayContaining(['missing_product_code', 'arithmetic_mismatch']));
  });

  it('when the body breaks the strict contract, then SvcError 400 (and tsc rejects it at compile time)', async () => {
    const svc = await clientFor('gwc');
    // @ts-expect-error unknown keys are not part of the request type
    const error = await caught(svc.gwc.enrichPaymentIntent({ body: { invoice: happyInvoice(), amount: 1 } }));
    expect(error).toMatchObject({ status: 400, type: 'validation_error' });
    expect(error.issues).toContainEqual(expect.objectContaining({ code: 'unknown_property', path: 'amount' }));
  });

  it('when a report is larger than the endpoint accepts, then SvcError 413, not retried', async () => {
    const svc = await clientFor('gwb');
    const body = { ...exampleReport<GwbPaymentReport>('gwbReportPayment', undefined), invoiceReference: 'x'.repeat(20_000) };
    expect(await caught(svc.gwb.reportPayment({ body }))).toMatchObject({ status: 413, type: 'payload_too_large', attempts: 1 });
  });

  it('when the key is wrong or for another provider, then SvcError 401 / 403', async () => {
    const bad = createClient({ baseUrl: app.url, apiKey: 'sk_not_a_key' });
    expect(await caught(bad.gwb.enrichOrder({ body: { invoice: happyInvoice() } }))).toMatchObject({
      status: 401,
      type: 'authentication_error',
    });
    const gwa = await clientFor('gwa');
    expect(await caught(gwa.gwb.enrichOrder({ body: { invoice: happyInvoice() } }))).toMatchObject({
      status: 403,
      type: 'permission_error',
    });
  });

  it('when the client is created, then it has a namespace per resource, invoices and ledger included', async () => {
    const svc = await clientFor('gwa');
    for (const name of ['gwa', 'gwb', 'gwc', 'invoices', 'ledger'] as const) expect(typeof svc[name]).toBe('object');
    expect(Object.keys(svc).sort()).toEqual(expect.arrayContaining(Object.keys(contract)));
  });

  it('when the client is created, then the provider-facing gwa webhook is not part of it', async () => {
    const svc = (await clientFor('gwa')) as unknown as Record<string, Record<string, unknown>>;
    expect(Object.keys(svc)).not.toContain('gwaWebhooks');
    expect(JSON.stringify(Object.keys(contract))).not.toContain('Webhook');
    for (const namespace of Object.values(svc)) expect(Object.keys(namespace).join(',')).not.toMatch(/webhook/i);
  });
});
