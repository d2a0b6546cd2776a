import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { useTestApp } from '../support/harness.js';
import { createTenant } from '../support/tenants.js';
import type { components, paths } from './generated/openapi.js';
import { GENERATED_TYPES, generateOpenApiTypes } from './generate-types.js';

/**
 * Raw HTTP from openapi.json alone: the types come from openapi-typescript run
 * on the document, the calls from openapi-fetch. Nothing here imports the
 * contract, the server or the SDK; the harness only starts the server and
 * issues a key, as an operator would.
 */
const app = useTestApp();

type CanonicalInvoice = paths['/api/v1/gwc/payment-intent-enrichment']['post']['requestBody']['content']['application/json']['invoice'];
type ErrorEnvelope = components['schemas']['ErrorEnvelope'];

const invoice: CanonicalInvoice = {
  invoiceNumber: 'INV-77',
  purchaseOrderReference: 'PO-77',
  status: 'open',
  currency: 'usd',
  subtotalAmountMinor: 5000,
  taxAmountMinor: 400,
  shippingAmountMinor: 0,
  discountAmountMinor: 0,
  totalAmountMinor: 5400,
  balanceAmountMinor: 5400,
  issuedAt: '2026-01-02T00:00:00Z',
  dueAt: null,
  voidedAt: null,
  lineItems: [
    {
      sequence: 1,
      productName: 'Widget',
      description: null,
      productCode: 'WID-1',
      commodityCode: null,
      quantity: '2',
      unitOfMeasure: 'EA',
      unitAmountMinor: 2500,
      subtotalAmountMinor: 5000,
      taxAmountMinor: 0,
      discountAmountMinor: 0,
      totalAmountMinor: 5000,
    },
  ],
};

describe('raw HTTP from openapi.json (openapi-typescript + openapi-fetch)', () => {
  it('when openapi-typescript runs on the committed openapi.json, then the committed types are up to date (npm run openapi:types)', async () => {
    expect(readFileSync(GENERATED_TYPES, 'utf8')).toBe(await generateOpenApiTypes());
  });

  it('when a merchant enriches inline and reports the outcome, then typed 200s, a typed 422 and a typed 409 come back', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['enrichment:write', 'payments:write'] });
    const api = createClient<paths>({ baseUrl: app.url, headers: { authorization: `Bearer ${tenant.key}` } });

    const enriched = await api.POST('/api/v1/gwc/payment-intent-enrichment', {
      body: { invoice, options: { customerReference: 'CUST-1' } },
    });
    expect(enriched.response.status).toBe(200);
    expect(enriched.error).toBeUndefined();
    const data = enriched.data!.data;
    expectTypeOf(data.amount_details.line_items[0]!.quantity).toEqualTypeOf<number>();
    expect(data.payment_details).toEqual({ order_reference: 'PO-77', customer_reference: 'CUST-1' });
    expect(data.amount_details.tax).toEqual({ total_tax_amount: 400 });
    const enrichmentRequestId = enriched.response.headers.get('x-svc-request-id')!;
    expect(enrichmentRequestId).toMatch(/^req_[0-9a-f]{32}$/);

    const unprocessable = await api.POST('/api/v1/gwc/payment-intent-enrichment', {
      body: { invoice: { ...invoice, lineItems: [{ ...invoice.lineItems[0]!, productCode: null }], totalAmountMinor: 1 } },
    });
    expect(unprocessable.response.status).toBe(422);
    expect(unprocessable.data).toBeUndefined();
    expectTypeOf(unprocessable.error!).toEqualTypeOf<ErrorEnvelope>();
    expect(unprocessable.error!.error.type).toBe('validation_error');
    expect(unprocessable.error!.error.issues.map((i) => i.code)).toEqual(
      expect.arrayContaining(['missing_product_code', 'arithmetic_mismatch']),
    );

    type Report = paths['/api/v1/gwc/payment-reports']['post']['requestBody']['content']['application/json'];
    const report: Report = {
      eventId: `evt_raw_${randomUUID()}`,
      attemptId: 'att_raw_1',
      status: 'captured',
      currency: 'usd',
      amountMinor: 5400,
      capturedAmountMinor: 5400,
      refundedAmountMinor: 0,
      occurredAt: new Date().toISOString(),
      source: 'api',
      enrichmentRequestId,
      paymentIntentId: 'pi_3Raw1',
    };
    const ack = await api.POST('/api/v1/gwc/payment-reports', { body: report });
    expect(ack.error).toBeUndefined();
    expect(ack.response.status).toBe(200);
    expect(ack.data!.object).toBe('gwc.payment_report');
    expect(ack.data!.data.duplicate).toBe(false);

    const conflict = await api.POST('/api/v1/gwc/payment-reports', {
      body: { ...report, refundedAmountMinor: 100, status: 'partially_refunded' },
    });
    expect(conflict.response.status).toBe(409);
    expectTypeOf(conflict.error!).toEqualTypeOf<ErrorEnvelope>();
    expect(conflict.error!.error.type).toBe('conflict');
    expect(conflict.error!.error.issues.length).toBeGreaterThan(0);
    expect(conflict.response.headers.get('x-svc-request-id')).toMatch(/^req_/);
  });

  it('when gwa and gwb are enriched and reported the same way, then their typed bodies come back', async () => {
    const gwa = await createTenant(app, { provider: 'gwa', scopes: ['enrichment:write', 'payments:write'] });
    const gwaApi = createClient<paths>({ baseUrl: app.url, headers: { authorization: `Bearer ${gwa.key}` } });
    const sale = await gwaApi.POST('/api/v1/gwa/transaction-enrichment', { body: { invoice } });
    expect(sale.data!.data).toMatchObject({ amount: '54.00', orderId: 'INV-77', purchaseOrderNumber: 'PO-77', taxAmount: '4.00' });
    const gwaAck = await gwaApi.POST('/api/v1/gwa/payment-reports', {
      body: {
        eventId: `evt_${randomUUID()}`,
        attemptId: 'att_gwa',
        status: 'authorized',
        currency: 'usd',
        amountMinor: 5400,
        capturedAmountMinor: 0,
        refundedAmountMinor: 0,
        occurredAt: new Date().toISOString(),
        source: 'api',
        transactionId: 'k7x2m9pq',
      },
    });
    expect(gwaAck.data!.object).toBe('gwa.payment_report');

    const gwb = await createTenant(app, { provider: 'gwb', scopes: ['enrichment:write', 'payments:write'] });
    const gwbApi = createClient<paths>({ baseUrl: app.url, headers: { authorization: `Bearer ${gwb.key}` } });
    const order = await gwbApi.POST('/api/v1/gwb/order-enrichment', { body: { invoice, taxRepresentation: 'order' } });
    expect(order.data!.data.reference_id).toBe('PO-77');
    const gwbAck = await gwbApi.POST('/api/v1/gwb/payment-reports', {
      body: {
        eventId: `evt_${randomUUID()}`,
        attemptId: 'att_gwb',
        status: 'captured',
        currency: 'usd',
        amountMinor: 5400,
        capturedAmountMinor: 5400,
        refundedAmountMinor: 0,
        occurredAt: new Date().toISOString(),
        source: 'sdk',
        paymentId: 'PAY1',
      },
    });
    expect(gwbAck.data!.data.duplicate).toBe(false);
    const wrongKey = await gwbApi.POST('/api/v1/gwa/transaction-enrichment', { body: { invoice } });
    expect(wrongKey.response.status).toBe(403);
    expect(wrongKey.error!.error.type).toBe('permission_error');
  });
});
