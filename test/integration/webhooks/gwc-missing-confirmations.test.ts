import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/harness.js';
import { adminCall, createTenant } from '../../support/tenants.js';
import { deliverGwc, gwcEvent, newPaymentIntentId, newSecret, paymentIntent, signed } from '../../support/gwc-webhooks.js';
import { gwcReport } from '../../support/reports.js';
import { happyInvoice } from '../../unit/enrichment/support/invoices.js';

/** docs/gwc-events.md, "Missing confirmations": every gwc payment without a provider-verified capture, not only preparations. */
describe('missing confirmations of gwc payments', () => {
  const app = useTestApp({ SVC_PUBLIC_URL: 'https://svc.example.test' });

  it('when an inline-enriched payment, a report-only payment and a provider-only authorization have no provider-verified capture, then preparations.unconfirmed lists each with the endpoint checks, until a signed capture arrives', async () => {
    const t = await createTenant(app, { provider: 'gwc', scopes: ['enrichment:write', 'payments:write'] });
    const secret = newSecret();
    const endpoint = await adminCall<any>(app, 'webhookEndpoints.create', { integrationId: t.integrationId, signingSecret: secret });
    const path = new URL(endpoint.url).pathname;
    const report = (json: Record<string, unknown>) =>
      app.request('/api/v1/gwc/payment-reports', { method: 'POST', key: t.key, json: gwcReport(json) });

    // Endpoint 10, then the merchant's capture report naming the enrichment: captured per the merchant only.
    const invoice = happyInvoice();
    const enriched = await app.request('/api/v1/gwc/payment-intent-enrichment', { method: 'POST', key: t.key, json: { invoice } });
    expect(enriched.status).toBe(200);
    const requestId = enriched.headers.get('x-svc-request-id')!;
    const [pi1, pi2, pi3] = [newPaymentIntentId(), newPaymentIntentId(), newPaymentIntentId()];
    const total = invoice.totalAmountMinor;
    expect(
      (await report({ enrichmentRequestId: requestId, paymentIntentId: pi1, amountMinor: total, capturedAmountMinor: total })).status,
    ).toBe(200);
    // A report naming no enrichment.
    expect((await report({ paymentIntentId: pi2, status: 'authorized', amountMinor: 2500, capturedAmountMinor: 0 })).status).toBe(200);
    // Provider evidence of an authorization nobody reported.
    const authorized = gwcEvent(
      'payment_intent.amount_capturable_updated',
      paymentIntent({ id: pi3, amount: 700, amount_capturable: 700, status: 'requires_capture' }),
    );
    expect((await deliverGwc(app, path, signed(secret, authorized))).body).toMatchObject({ status: 'authorized' });

    const payments = await app.orm.em
      .getConnection()
      .execute(`select id, provider_payment_id from tracked_payments where integration_id = ?`, [t.integrationId]);
    const paymentOf = (pi: string) => payments.find((p: any) => p.provider_payment_id === pi)!.id as string;
    const listed = await adminCall<any>(app, 'preparations.unconfirmed', { integrationId: t.integrationId });
    const checks = [
      {
        endpointId: endpoint.id,
        url: endpoint.url,
        status: 'active',
        mode: 'test',
        recommendedEventTypesDelivered: ['payment_intent.amount_capturable_updated'],
        recommendedEventTypesMissing: endpoint.recommendedEventTypes.filter(
          (k: string) => k !== 'payment_intent.amount_capturable_updated',
        ),
        lastDelivery: { at: expect.any(String), kind: 'payment_intent.amount_capturable_updated', status: 'authorized' },
        lastRefusal: null,
        hasSecret: true,
        secretAgeHours: 0,
      },
    ];
    const common = {
      organizationId: t.organizationId,
      integrationId: t.integrationId,
      environment: 'sandbox',
      createdAt: expect.any(String),
    };
    expect(listed.preparations).toEqual([
      {
        kind: 'inline_enrichment',
        id: requestId,
        ...common,
        amountMinor: total,
        currency: 'usd',
        payment: { id: paymentOf(pi1), status: 'captured', capturedAmountMinor: total },
        endpoints: checks,
      },
      {
        kind: 'payment',
        id: paymentOf(pi2),
        ...common,
        amountMinor: 2500,
        currency: 'usd',
        payment: { id: paymentOf(pi2), status: 'authorized', capturedAmountMinor: 0 },
        endpoints: checks,
      },
      {
        kind: 'payment',
        id: paymentOf(pi3),
        ...common,
        amountMinor: 700,
        currency: 'usd',
        payment: { id: paymentOf(pi3), status: 'authorized', capturedAmountMinor: 0 },
        endpoints: checks,
      },
    ]);

    // Signed captures of the first two: they leave the list; the provider-only authorization stays.
    for (const [pi, amount] of [
      [pi1, total],
      [pi2, 2500],
    ] as const) {
      const succeeded = gwcEvent(
        'payment_intent.succeeded',
        paymentIntent({ id: pi, amount, amount_received: amount, status: 'succeeded' }),
      );
      expect((await deliverGwc(app, path, signed(secret, succeeded))).body).toMatchObject({ status: 'captured' });
    }
    const after = await adminCall<any>(app, 'preparations.unconfirmed', { integrationId: t.integrationId });
    expect(after.preparations.map((p: any) => [p.kind, p.id])).toEqual([['payment', paymentOf(pi3)]]);
  });
});
