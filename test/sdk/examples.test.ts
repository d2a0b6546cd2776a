import { randomUUID } from 'node:crypto';
import type braintree from 'braintree';
import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  captureWithGwa,
  payInvoiceWithGwaSale,
  payInvoiceWithGwaSaleFromInvoice,
  type GwaTransactions,
  type SettlementOptions,
} from '../../examples/gwa-braintree.js';
import { gwbReportStatus, payInvoiceWithGwb, payInvoiceWithGwbFromInvoice, type GwbApi, type GwbOrder } from '../../examples/gwb-order.js';
import { payInvoiceWithGwc, payInvoiceWithGwcFromInvoice, reportFromWebhook, type GwcPaymentIntents } from '../../examples/gwc-stripe.js';
import { createClient, type SvcClient } from '../../sdk/src/index.js';
import { useLedgerApp } from '../support/ledger-app.js';
import { invoiceReader } from '../support/ledger-flow.js';
import { confirmItem } from '../support/preparation-flow.js';
import { createTenant } from '../support/tenants.js';
import { happyInvoice } from '../unit/enrichment/support/invoices.js';

/**
 * The merchant flows of examples/ run against the real server; the payment
 * providers are recording fakes, so each test sees exactly what the merchant
 * would send to the provider, and the server's correlation proves the report.
 */
// A ledger sandbox too, for the invoice-backed flows: 12 invoices over 6 items, invoice 1001 has a PO field (docs/invoices.md).
const app = useLedgerApp({ sandbox: { invoices: 12, items: 6 } });

const svcFor = async (provider: 'gwa' | 'gwb' | 'gwc') => {
  const t = await createTenant(app, { provider, scopes: ['enrichment:write', 'payments:write'] });
  return { svc: createClient({ baseUrl: app.url, apiKey: t.key }), tenant: t };
};
const trackedPayment = async (attemptId: string) =>
  (
    await app.orm.em.getConnection().execute(`select status, enrichment_request_id from tracked_payments where attempt_id = '${attemptId}'`)
  )[0];

type Reader = Awaited<ReturnType<typeof invoiceReader>>;

/** The merchant's key for the flow: it reads invoices, prepares and reports payments. */
const merchantSvc = async (reader: Reader) => {
  const issued = await app.admin<{ key: string }>('apiKeys.issue', {
    integrationId: reader.integrationId,
    scopes: ['invoices:read', 'enrichment:write', 'payments:write'],
  });
  return createClient({ baseUrl: app.url, apiKey: issued.body.key });
};

/** A synced sandbox invoice as the merchant looks it up, optionally with every item's mapping confirmed. */
async function readyInvoice(svc: SvcClient, reader: Reader, ledgerInvoiceId: string, options: { confirmItems?: boolean } = {}) {
  const [summary] = (await svc.invoices.list({ query: { ledgerInvoiceId } })).body.data.invoices;
  if (options.confirmItems) {
    const detail = (await svc.invoices.get({ params: { invoiceId: summary!.id } })).body.data;
    for (const line of detail.invoice!.lineItems) await confirmItem(app, reader.connectionRowId, line.sourceItemId);
  }
  const detail = (await svc.invoices.get({ params: { invoiceId: summary!.id } })).body.data;
  return {
    invoiceId: detail.id,
    amountMinor: detail.totalAmountMinor!,
    currency: 'usd',
    revision: detail.revision!,
    invoiceNumber: detail.invoiceNumber!,
  };
}

/** Records what the example saves with each attempt. */
const attemptStore = () => {
  const saved: { attemptId: string; idempotencyKey: string; preparationId: string | null }[] = [];
  return { saved, attempts: { save: async (a: (typeof saved)[number]) => void saved.push(a) } };
};
const preparationRow = async (id: string | null) =>
  (await app.orm.em.getConnection().execute(`select id, mode, idempotency_key from preparations where id = ?`, [id]))[0];

describe('examples/gwb-order.ts: provider state normalization', () => {
  it('when a COMPLETED payment has refunds, then the status follows the cumulative refunded money (spec: gwb table)', () => {
    const usd = (amount: number) => ({ amount, currency: 'USD' });
    expect(gwbReportStatus({ status: 'COMPLETED' }, 1000)).toEqual({ status: 'captured', refundedAmountMinor: 0 });
    expect(gwbReportStatus({ status: 'COMPLETED', refunded_money: usd(0) }, 1000)).toEqual({ status: 'captured', refundedAmountMinor: 0 });
    expect(gwbReportStatus({ status: 'COMPLETED', refunded_money: usd(250) }, 1000)).toEqual({
      status: 'partially_refunded',
      refundedAmountMinor: 250,
    });
    expect(gwbReportStatus({ status: 'COMPLETED', refunded_money: usd(1000) }, 1000)).toEqual({
      status: 'refunded',
      refundedAmountMinor: 1000,
    });
    expect(gwbReportStatus({ status: 'APPROVED' }, 0)).toEqual({ status: 'authorized', refundedAmountMinor: 0 });
    expect(gwbReportStatus({ status: 'PENDING' }, 0)).toEqual({ status: 'unknown', refundedAmountMinor: 0 });
  });
});

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

  it('gwa from invoice: when the sale example prepares a mapped invoice, then data sits beside the nonce and the report carries preparation.id', async () => {
    const reader = await invoiceReader(app, 'gwa');
    const svc = await merchantSvc(reader);
    expect((await app.admin('connections.configure', { id: reader.connectionRowId, purchaseOrderField: 'Purchase Order' })).status).toBe(
      200,
    );
    const invoice = await readyInvoice(svc, reader, '1001', { confirmItems: true });
    const sales: braintree.TransactionRequest[] = [];
    const transactions: GwaTransactions = {
      sale: async (request) => {
        sales.push(request);
        return {
          success: true,
          transaction: { id: 'r4t8w2zq', status: 'submitted_for_settlement' },
        } as braintree.ValidatedResponse<braintree.Transaction>;
      },
      submitForSettlement: async () => {
        throw new Error('not used');
      },
    };
    const { saved, attempts } = attemptStore();
    const attemptId = `att_${randomUUID()}`;
    expect(
      await payInvoiceWithGwaSaleFromInvoice(
        { svc, transactions, attempts },
        { invoice, paymentMethodNonce: 'fake-valid-nonce', attemptId },
      ),
    ).toBe('r4t8w2zq');
    expect(sales[0]).toMatchObject({ paymentMethodNonce: 'fake-valid-nonce', orderId: invoice.invoiceNumber });
    expect(sales[0]!.amount).toBe((invoice.amountMinor / 100).toFixed(2));
    expect(sales[0]).not.toHaveProperty('preparation');
    const [attempt] = saved;
    expect(attempt!.idempotencyKey).not.toMatch(/[0-9]{13}/);
    expect(await preparationRow(attempt!.preparationId)).toMatchObject({ mode: 'enhanced', idempotency_key: attempt!.idempotencyKey });
    expect(await trackedPayment(attemptId)).toMatchObject({ status: 'captured', enrichment_request_id: attempt!.preparationId });
  });

  it('gwa from invoice: when the invoice lacks PO, SKU or unit, then the example makes an ordinary sale of the full amount and reports it uncorrelated', async () => {
    const reader = await invoiceReader(app, 'gwa');
    const svc = await merchantSvc(reader);
    const [summary] = (await svc.invoices.list({ query: { ledgerInvoiceId: '1001' } })).body.data.invoices;
    expect(summary).toMatchObject({ ready: false, checkoutMode: 'ordinary' });
    const invoice = await readyInvoice(svc, reader, '1001');
    const sales: braintree.TransactionRequest[] = [];
    const transactions: GwaTransactions = {
      sale: async (request) => {
        sales.push(request);
        return {
          success: true,
          transaction: { id: 'o7d1n4ry', status: 'submitted_for_settlement' },
        } as braintree.ValidatedResponse<braintree.Transaction>;
      },
      submitForSettlement: async () => {
        throw new Error('not used');
      },
    };
    const { saved, attempts } = attemptStore();
    const attemptId = `att_${randomUUID()}`;
    expect(
      await payInvoiceWithGwaSaleFromInvoice(
        { svc, transactions, attempts },
        { invoice, paymentMethodNonce: 'fake-valid-nonce', attemptId },
      ),
    ).toBe('o7d1n4ry');
    const minor = String(invoice.amountMinor);
    expect(sales).toEqual([
      {
        paymentMethodNonce: 'fake-valid-nonce',
        amount: `${minor.slice(0, -2)}.${minor.slice(-2)}`,
        options: { submitForSettlement: true },
      },
    ]);
    expect(saved).toEqual([{ attemptId, idempotencyKey: `prep-${attemptId}`, preparationId: null }]);
    expect(
      await app.orm.em
        .getConnection()
        .execute(`select count(*)::int as n from preparations where integration_id = ?`, [reader.integrationId]),
    ).toEqual([{ n: 0 }]);
    expect(await trackedPayment(attemptId)).toMatchObject({ status: 'captured', enrichment_request_id: null });
  });

  it('gwb from invoice: when the order example prepares an invoice, then the fragment is in the order and the report carries preparation.id', async () => {
    const reader = await invoiceReader(app, 'gwb');
    const svc = await merchantSvc(reader);
    const invoice = await readyInvoice(svc, reader, '1002');
    const orders: GwbOrder[] = [];
    const api: GwbApi = {
      createOrder: async ({ order }) => {
        orders.push(order);
        return { order: { id: 'ORDER2', total_money: { amount: invoice.amountMinor, currency: 'USD' } } };
      },
      createPayment: async ({ order_id }) => ({ payment: { id: 'PAY2', status: 'COMPLETED', order_id } }),
    };
    const { saved, attempts } = attemptStore();
    const attemptId = `att_${randomUUID()}`;
    expect(
      await payInvoiceWithGwbFromInvoice({ svc, api, attempts }, { invoice, sourceId: 'cnon:card-nonce-ok', locationId: 'L1', attemptId }),
    ).toBe('PAY2');
    expect(orders[0]).toMatchObject({ location_id: 'L1', metadata: { attempt: attemptId } });
    expect(orders[0]!.line_items!.length).toBeGreaterThan(0);
    expect(orders[0]).not.toHaveProperty('preparation');
    const [attempt] = saved;
    expect(await preparationRow(attempt!.preparationId)).toMatchObject({ mode: 'enhanced', idempotency_key: attempt!.idempotencyKey });
    expect(await trackedPayment(attemptId)).toMatchObject({ status: 'captured', enrichment_request_id: attempt!.preparationId });
  });

  it('gwc from invoice: when endpoint 12 prepares, then enhanced merges the enrichment, ordinary leaves it out, both carry svc_preparation_id', async () => {
    const reader = await invoiceReader(app, 'gwc');
    const svc = await merchantSvc(reader);
    const calls: [Stripe.PaymentIntentCreateParams, Stripe.RequestOptions | undefined][] = [];
    const paymentIntents: GwcPaymentIntents = {
      create: async (params, options) => {
        calls.push([params, options]);
        return {
          id: `pi_${calls.length}Abc`,
          status: 'succeeded',
          amount: params.amount,
          amount_received: params.amount,
          currency: params.currency,
          created: 1767261600,
        } as Stripe.Response<Stripe.PaymentIntent>;
      },
    };
    const { saved, attempts } = attemptStore();

    // Without confirmed units: ordinary mode.
    const unmapped = await readyInvoice(svc, reader, '1003');
    const ordinaryAttempt = `att_${randomUUID()}`;
    await payInvoiceWithGwcFromInvoice(
      { svc, paymentIntents, attempts },
      { invoice: unmapped, paymentMethod: 'pm_card_visa', attemptId: ordinaryAttempt },
    );
    const [ordinary, ordinaryOptions] = calls[0]!;
    expect(ordinary).toMatchObject({
      amount: unmapped.amountMinor,
      currency: 'usd',
      metadata: { svc_preparation_id: saved[0]!.preparationId },
    });
    expect(ordinary).not.toHaveProperty('payment_details');
    expect(ordinary).not.toHaveProperty('amount_details');
    expect(ordinaryOptions).toEqual({ idempotencyKey: `pi-${ordinaryAttempt}` });
    expect(await preparationRow(saved[0]!.preparationId)).toMatchObject({ mode: 'ordinary' });
    expect(await trackedPayment(ordinaryAttempt)).toMatchObject({ status: 'captured', enrichment_request_id: saved[0]!.preparationId });

    // Units confirmed: enhanced mode.
    const mapped = await readyInvoice(svc, reader, '1001', { confirmItems: true });
    const enhancedAttempt = `att_${randomUUID()}`;
    await payInvoiceWithGwcFromInvoice(
      { svc, paymentIntents, attempts },
      { invoice: mapped, paymentMethod: 'pm_card_visa', attemptId: enhancedAttempt },
    );
    const [enhanced] = calls[1]!;
    expect(enhanced).toMatchObject({
      amount: mapped.amountMinor,
      currency: 'usd',
      payment_details: { order_reference: mapped.invoiceNumber },
      amount_details: { enforce_arithmetic_validation: true },
      metadata: { svc_preparation_id: saved[1]!.preparationId },
    });
    expect(enhanced).not.toHaveProperty('preparation');
    expect(await preparationRow(saved[1]!.preparationId)).toMatchObject({ mode: 'enhanced' });
    expect(await trackedPayment(enhancedAttempt)).toMatchObject({ status: 'captured', enrichment_request_id: saved[1]!.preparationId });
  });
});
