import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader } from '../../support/ledger-flow.js';
import { bodyFor, preparationFlow } from '../../support/preparation-flow.js';
import { deliverGwc, gwcEvent, newPaymentIntentId, newSecret, paymentIntent, signed } from '../../support/gwc-webhooks.js';
import { gwcReport } from '../../support/reports.js';

const app = useLedgerApp({ sandbox: { invoices: 4, items: 3 } });
const { sql, post, invoiceOf } = preparationFlow(app);

/** docs/gwc-events.md, "Correlation" and "Missing confirmations". */
describe('gwc events and preparations', () => {
  it('when a preparation has no provider-verified capture, then preparations.unconfirmed lists it with the endpoint checks; a signed capture naming it in metadata correlates and confirms it', async () => {
    const reader = await invoiceReader(app, 'gwc');
    const invoice = await invoiceOf(reader, '1003');
    const prepared = await post(reader.key, 'gwcPreparation', bodyFor(invoice));
    expect(prepared.status).toBe(200);
    const preparationId = prepared.body.preparation.id as string;
    const total = invoice.totalAmountMinor;

    const secret = newSecret();
    const endpoint = (await app.admin<any>('webhookEndpoints.create', { integrationId: reader.integrationId, signingSecret: secret })).body;
    const path = new URL(endpoint.url).pathname;

    const before = await app.admin<any>('preparations.unconfirmed', { integrationId: reader.integrationId });
    expect(before.status).toBe(200);
    expect(before.body.preparations).toEqual([
      {
        kind: 'preparation',
        id: preparationId,
        organizationId: reader.ledger.organizationId,
        integrationId: reader.integrationId,
        environment: 'sandbox',
        amountMinor: total,
        currency: 'usd',
        createdAt: expect.any(String),
        payment: null,
        endpoints: [
          {
            endpointId: endpoint.id,
            url: endpoint.url,
            status: 'active',
            mode: 'test',
            recommendedEventTypesDelivered: [],
            recommendedEventTypesMissing: endpoint.recommendedEventTypes,
            lastDelivery: null,
            lastRefusal: null,
            hasSecret: true,
            secretAgeHours: 0,
          },
        ],
      },
    ]);
    const older = await app.admin<any>('preparations.unconfirmed', { integrationId: reader.integrationId, olderThanHours: 1 });
    expect(older.body.preparations).toEqual([]);

    // Authorized first: still unconfirmed, and the checks show what was delivered.
    const pi = newPaymentIntentId();
    const metadata = { svc_preparation_id: preparationId };
    const created = Math.floor(Date.now() / 1000) - 60;
    const authorized = gwcEvent(
      'payment_intent.amount_capturable_updated',
      paymentIntent({ id: pi, amount: total - 100, amount_capturable: total - 100, status: 'requires_capture', metadata }),
      { created },
    );
    expect((await deliverGwc(app, path, signed(secret, authorized))).body).toMatchObject({ status: 'authorized', duplicate: false });
    const pending = await app.admin<any>('preparations.unconfirmed', { integrationId: reader.integrationId });
    expect(pending.body.preparations[0].payment).toEqual({ id: expect.any(String), status: 'authorized', capturedAmountMinor: 0 });
    expect(pending.body.preparations[0].endpoints[0]).toMatchObject({
      recommendedEventTypesDelivered: ['payment_intent.amount_capturable_updated'],
      lastDelivery: { at: expect.any(String), kind: 'payment_intent.amount_capturable_updated', status: 'authorized' },
    });

    const succeeded = gwcEvent(
      'payment_intent.succeeded',
      paymentIntent({ id: pi, amount: total - 100, amount_received: total - 100, status: 'succeeded', metadata }),
      { created: created + 30 },
    );
    expect((await deliverGwc(app, path, signed(secret, succeeded))).body).toMatchObject({ status: 'captured', duplicate: false });
    const after = await app.admin<any>('preparations.unconfirmed', { integrationId: reader.integrationId });
    expect(after.body.preparations).toEqual([]);

    // The amount differs from the preparation's: recorded as a correlation exception, never rewritten.
    const [payment] = await sql(
      'select id, enrichment_request_id, amount_minor, status from tracked_payments where provider_payment_id = ?',
      [pi],
    );
    expect(payment).toMatchObject({ enrichment_request_id: preparationId, amount_minor: String(total - 100), status: 'captured' });
    const exceptions = await sql(
      'select kind, expected, observed from correlation_exceptions where enrichment_request_id = ? order by created_at',
      [preparationId],
    );
    expect(exceptions).toEqual([
      { kind: 'amount_mismatch', expected: String(total), observed: String(total - 100) },
      { kind: 'amount_mismatch', expected: String(total), observed: String(total - 100) },
    ]);

    // The merchant's own report of the PaymentIntent, naming the preparation, joins the same payment.
    const payments = (
      await app.admin<{ key: string }>('apiKeys.issue', { integrationId: reader.integrationId, scopes: ['payments:write'] })
    ).body.key;
    const report = gwcReport({
      paymentIntentId: pi,
      enrichmentRequestId: preparationId,
      amountMinor: total - 100,
      capturedAmountMinor: total - 100,
      occurredAt: new Date((created + 40) * 1000).toISOString(),
    });
    const merchant = await app.request('/api/v1/gwc/payment-reports', { method: 'POST', key: payments, json: report });
    expect(merchant.status).toBe(200);
    expect(await sql('select attempt_id, observation_count from tracked_payments where provider_payment_id = ?', [pi])).toEqual([
      { attempt_id: report.attemptId, observation_count: 3 },
    ]);
  });
});
