import { randomUUID } from 'node:crypto';
import type braintree from 'braintree';
import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { captureWithGwa, payInvoiceWithGwaSale, type GwaTransactions, type SettlementOptions } from '../../examples/gwa-braintree.js';
import { payInvoiceWithGwb, type GwbApi, type GwbOrder } from '../../examples/gwb-order.js';
import { payInvoiceWithGwc, reportFromWebhook, type GwcPaymentIntents } from '../../examples/gwc-stripe.js';
import { createClient } from '../../sdk/src/index.js';
import { useTestApp } from '../support/harness.js';
import { createTenant } from '../support/tenants.js';
import { happyInvoice } from '../unit/enrichment/support/invoices.js';

/**
 * The merchant flows of examples/ run against the real server; the payment
 * providers are recording fakes, so each test sees exactly what the merchant
 * would send to the provider, and the server's correlation proves the report.
 */
const app = useTestApp();

const svcFor = async (provider: 'gwa' | 'gwb' | 'gwc') => {
  const t = await createTenant(app, { provider, scopes: ['enrichment:write', 'payments:write'] });
  return { svc: createClient({ baseUrl: app.url, apiKey: t.key }), tenant: t };
};
const trackedPayment = async (attemptId: string) =>
  (
    await app.orm.em.getConnection().execute(`select status, enrichment_request_id from tracked_payments where attempt_id = '${attemptId}'`)
  )[0];

describe('examples/ against a running server', () => {
  it('gwa: when the sale example runs, then data sits beside the nonce and the report correlates to the enrichment', async () => {
    const { svc } = await svcFor('gwa');
    const sales: braintree.TransactionRequest[] = [];
    const settlements: [string, string, SettlementOptions][] = [];
    const transactions: GwaTransactions = {
      sale: async (request) => {
        sales.push(request);
        return {
          success: true,
          transaction: { id: 'k7x2m9pq', status: 'submitted_for_settlement' },
        } as braintree.ValidatedResponse<braintree.Transaction>;
      },
      submitForSettlement: async (id, amount, options) => {
        settlements.push([id, amount, options]);
        return {
          success: true,
          transaction: { id, status: 'submitted_for_settlement' },
        } as braintree.ValidatedResponse<braintree.Transaction>;
      },
    };
    const attemptId = `att_${randomUUID()}`;
    expect(
      await payInvoiceWithGwaSale({ svc, transactions }, { invoice: happyInvoice(), paymentMethodNonce: 'fake-valid-nonce', attemptId }),
    ).toBe('k7x2m9pq');
    expect(sales[0]).toMatchObject({
      paymentMethodNonce: 'fake-valid-nonce',
      amount: '134.90',
      orderId: 'INV-1001',
      purchaseOrderNumber: 'PO-7781',
    });
    expect(await trackedPayment(attemptId)).toMatchObject({ status: 'captured', enrichment_request_id: expect.stringMatching(/^req_/) });

    const data = (await svc.gwa.enrichTransaction({ body: { invoice: happyInvoice() } })).body.data;
    await captureWithGwa({ transactions }, 'auth1', data);
    expect(settlements[0]![1]).toBe('134.90');
    expect(settlements[0]![2]).not.toHaveProperty('amount');
    expect(settlements[0]![2].lineItems).toHaveLength(2);
  });

  it('gwb: when the order example runs, then the fragment is merged into the order and the payment is reported', async () => {
    const { svc } = await svcFor('gwb');
    const orders: GwbOrder[] = [];
    const api: GwbApi = {
      createOrder: async ({ order }) => {
        orders.push(order);
        return { order: { id: 'ORDER1', total_money: { amount: 13490, currency: 'USD' } } };
      },
      createPayment: async ({ order_id }) => ({ payment: { id: 'PAY1', status: 'COMPLETED', order_id } }),
    };
    const attemptId = `att_${randomUUID()}`;
    expect(
      await payInvoiceWithGwb({ svc, api }, { invoice: happyInvoice(), sourceId: 'cnon:card-nonce-ok', locationId: 'L1', attemptId }),
    ).toBe('PAY1');
    expect(orders[0]).toMatchObject({
      location_id: 'L1',
      reference_id: 'PO-7781',
      metadata: { attempt: attemptId, invoice_number: 'INV-1001' },
    });
    expect(orders[0]!.line_items).toHaveLength(2);
    expect(await trackedPayment(attemptId)).toMatchObject({ status: 'captured', enrichment_request_id: expect.stringMatching(/^req_/) });
  });

  it('gwc: when the PaymentIntent example runs, then payment_details/amount_details are in the create call and the outcome is reported', async () => {
    const { svc } = await svcFor('gwc');
    const calls: [Stripe.PaymentIntentCreateParams, Stripe.RequestOptions | undefined][] = [];
    const paymentIntents: GwcPaymentIntents = {
      create: async (params, options) => {
        calls.push([params, options]);
        return {
          id: 'pi_3Abc',
          status: 'succeeded',
          amount: params.amount,
          amount_received: params.amount,
          currency: params.currency,
          created: 1767261600,
        } as Stripe.Response<Stripe.PaymentIntent>;
      },
    };
    const attemptId = `att_${randomUUID()}`;
    await payInvoiceWithGwc({ svc, paymentIntents }, { invoice: happyInvoice(), paymentMethod: 'pm_card_visa', attemptId });
    const [params, options] = calls[0]!;
    expect(params).toMatchObject({
      amount: 13490,
      currency: 'usd',
      payment_details: { order_reference: 'PO-7781' },
      amount_details: { enforce_arithmetic_validation: true },
    });
    expect(params).not.toHaveProperty('preparation');
    expect(options).toEqual({ idempotencyKey: `pi-${attemptId}` });
    expect(await trackedPayment(attemptId)).toMatchObject({
      status: 'captured',
      enrichment_request_id: params.metadata && (params.metadata as Record<string, string>).svc_enrichment_request_id,
    });

    const event = {
      id: 'evt_1Provider',
      type: 'payment_intent.succeeded',
      data: { object: { id: 'pi_3Abc', status: 'succeeded', amount: 13490, amount_received: 13490, currency: 'usd', created: 1767261700 } },
    } as unknown as Stripe.Event;
    const report = reportFromWebhook(event, attemptId)!;
    expect(report).toMatchObject({ eventId: 'gwc:evt_1Provider', source: 'merchant_webhook', providerEventId: 'evt_1Provider' });
    const first = await svc.gwc.reportPayment({ body: report });
    const redelivered = await svc.gwc.reportPayment({ body: reportFromWebhook(event, attemptId)! });
    expect(redelivered.body.data).toEqual({ id: first.body.data.id, duplicate: true });
  });
});
