import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp, type TestResponse } from '../../support/harness.js';
import { adminCall, createTenant, type Tenant } from '../../support/tenants.js';
import { gwaReport, gwcReport } from '../../support/reports.js';
import { deliverGwc, gwcEvent, newPaymentIntentId, newSecret, paymentIntent, signed } from '../../support/gwc-webhooks.js';
import { deliver, newKeys, sampleNotification, transactionNotification } from '../../support/gwa-webhooks.js';
import { recordPaymentReport } from '../../../server/domain/payment-reports/record-payment-report.js';
import type { PaymentReport } from '../../../contract/payment-reports.js';
import { poolUnitOfWork } from '../../../server/persistence/unit-of-work.js';

const sql = <T = any>(app: TestApp, query: string, params: unknown[] = []) =>
  app.orm.em.getConnection().execute(query, params) as Promise<T[]>;
const transactionId = () => `t${randomUUID().replace(/-/g, '').slice(0, 9)}`;

/**
 * Provider evidence and merchant reports of one payment are linked by the provider's payment identity
 * (docs/payment-reports.md, "Provider identity links"), whichever arrives first.
 */
describe('provider identity links provider evidence and merchant reports', () => {
  const app = useTestApp({ SVC_PUBLIC_URL: 'https://svc.example.test' });

  /**
   * Provider evidence and the merchant's report of each provider payment sent at once: every answer is 200, every
   * delivery is recorded as captured, and each provider payment is one payment under the merchant's attemptId.
   */
  async function arriveTogether(o: {
    provider: 'gwa' | 'gwc';
    tenant: Tenant;
    ids: string[];
    deliverOne: (id: string) => Promise<TestResponse>;
    reportOf: (id: string) => Record<string, unknown>;
  }) {
    const reports = o.ids.map(o.reportOf);
    const answers = await Promise.all(
      o.ids.flatMap((id, i) => [
        o.deliverOne(id),
        app.request(`/api/v1/${o.provider}/payment-reports`, { method: 'POST', json: reports[i], key: o.tenant.key }),
      ]),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    for (let i = 0; i < answers.length; i += 2) expect(answers[i]!.body).toMatchObject({ status: 'captured', duplicate: false });
    const payments = await sql(
      app,
      'select provider_payment_id, attempt_id, attempt_provisional, observation_count from tracked_payments where integration_id = ? order by provider_payment_id',
      [o.tenant.integrationId],
    );
    const expected = o.ids.map((id, i) => ({
      provider_payment_id: id,
      attempt_id: reports[i]!.attemptId,
      attempt_provisional: false,
      observation_count: 2,
    }));
    expect(payments).toEqual(expected.sort((a, b) => (a.provider_payment_id < b.provider_payment_id ? -1 : 1)));
  }

  async function gwaSetup() {
    const tenant = await createTenant(app, { provider: 'gwa', scopes: ['payments:write'] });
    const keys = newKeys();
    const endpoint = await adminCall<{ url: string }>(app, 'webhookEndpoints.create', { integrationId: tenant.integrationId, ...keys });
    return { tenant, keys, path: new URL(endpoint.url).pathname };
  }

  /** The merchant's own report of the settled sample transaction (100.00 usd), observed a minute before the notification. */
  const merchantCapture = (txn: string, overrides: Record<string, unknown> = {}) =>
    gwaReport({
      status: 'captured',
      amountMinor: 10000,
      capturedAmountMinor: 10000,
      transactionId: txn,
      occurredAt: new Date(Date.now() - 60_000).toISOString(),
      ...overrides,
    });

  it('when a gwa notification arrives before the merchant reports the transaction, then the report joins the same payment under its attemptId', async () => {
    const { tenant, keys, path } = await gwaSetup();
    const txn = transactionId();
    const delivered = await deliver(app, path, sampleNotification(keys, 'transaction_settled', txn));
    expect(delivered.body).toEqual({ received: true, kind: 'transaction_settled', status: 'captured', duplicate: false });

    const report = merchantCapture(txn);
    const res = await app.request('/api/v1/gwa/payment-reports', { method: 'POST', json: report, key: tenant.key });
    expect(res.status).toBe(200);
    expect(res.body.data.duplicate).toBe(false);

    const payments = await sql(
      app,
      'select id, attempt_id, attempt_provisional, provider_payment_id, status, captured_amount_minor, observation_count from tracked_payments where integration_id = ?',
      [tenant.integrationId],
    );
    expect(payments).toEqual([
      {
        id: expect.any(String),
        attempt_id: report.attemptId,
        attempt_provisional: false,
        provider_payment_id: txn,
        status: 'captured',
        captured_amount_minor: '10000',
        observation_count: 2,
      },
    ]);
    const evidence = await sql(app, 'select evidence from payment_observations where tracked_payment_id = ? order by received_at', [
      payments[0].id,
    ]);
    expect(evidence).toEqual([{ evidence: 'provider_verified' }, { evidence: 'merchant_report' }]);
    const detail = await app.admin<any>('payments.get', { id: payments[0].id });
    expect(detail.body.payment).toMatchObject({ attemptId: report.attemptId, attemptProvisional: false, providerPaymentId: txn });
    expect(detail.body.observations.map((o: any) => [o.evidence, o.payload.attemptId])).toEqual([
      ['merchant_report', report.attemptId],
      ['provider_verified', `gwa_transaction_${txn}`],
    ]);

    // Later reports of the attempt, with or without the provider id, and later notifications all find the same payment.
    const later = gwaReport({
      attemptId: report.attemptId,
      status: 'refunded',
      amountMinor: 10000,
      capturedAmountMinor: 10000,
      refundedAmountMinor: 10000,
      occurredAt: new Date().toISOString(),
    });
    expect((await app.request('/api/v1/gwa/payment-reports', { method: 'POST', json: later, key: tenant.key })).status).toBe(200);
    const [after] = await sql(
      app,
      'select count(*)::int as n, max(status) as status, max(observation_count) as count from tracked_payments where integration_id = ?',
      [tenant.integrationId],
    );
    expect(after).toEqual({ n: 1, status: 'refunded', count: 3 });
  });

  it('when the merchant reports first and the notification follows, then the notification joins the payment under the merchant attemptId', async () => {
    const { tenant, keys, path } = await gwaSetup();
    const txn = transactionId();
    const report = merchantCapture(txn);
    expect((await app.request('/api/v1/gwa/payment-reports', { method: 'POST', json: report, key: tenant.key })).status).toBe(200);
    const delivered = await deliver(app, path, sampleNotification(keys, 'transaction_settled', txn));
    expect(delivered.body).toEqual({ received: true, kind: 'transaction_settled', status: 'captured', duplicate: false });
    expect(
      await sql(app, 'select attempt_id, attempt_provisional, observation_count from tracked_payments where integration_id = ?', [
        tenant.integrationId,
      ]),
    ).toEqual([{ attempt_id: report.attemptId, attempt_provisional: false, observation_count: 2 }]);
  });

  it('when notifications and merchant reports of the same transactions arrive concurrently, then each transaction is one payment and nothing is refused', async () => {
    const { tenant, keys, path } = await gwaSetup();
    await arriveTogether({
      provider: 'gwa',
      tenant,
      ids: Array.from({ length: 8 }, transactionId),
      deliverOne: (txn) => deliver(app, path, sampleNotification(keys, 'transaction_settled', txn)),
      reportOf: (txn) => merchantCapture(txn),
    });
    expect(
      await sql(app, "select count(*)::int as n from webhook_events where status <> 'captured' and integration_id = ?", [
        tenant.integrationId,
      ]),
    ).toEqual([{ n: 0 }]);
  });

  it("when provider evidence for a transaction is recorded inside the delivery's transaction after the merchant's report committed, then it joins that payment", async () => {
    // The race a delivery can lose: it looked for the transaction's payment before the merchant's report committed,
    // so it records under a provisional attempt id and meets the merchant's payment on the provider id's unique key.
    const tenant = await createTenant(app, { provider: 'gwa', scopes: ['payments:write'] });
    const txn = transactionId();
    const report = merchantCapture(txn);
    expect((await app.request('/api/v1/gwa/payment-reports', { method: 'POST', json: report, key: tenant.key })).status).toBe(200);
    const { organizationId, integrationId, environment } = tenant;
    const ctx = { apiKeyId: '', provider: 'gwa' as const, scopes: [], organizationId, integrationId, environment };
    const evidence = merchantCapture(txn, { attemptId: `gwa_transaction_${txn}`, occurredAt: new Date().toISOString() });
    const ack = await poolUnitOfWork(app.orm).transaction((_store, tx) =>
      recordPaymentReport(tx, {
        ctx,
        provider: 'gwa',
        report: evidence as unknown as PaymentReport,
        requestId: 'req_test',
        origin: { evidence: 'provider_verified', provisionalAttempt: true },
      }),
    );
    expect(ack.duplicate).toBe(false);
    expect(
      await sql(app, 'select attempt_id, attempt_provisional, observation_count from tracked_payments where integration_id = ?', [
        tenant.integrationId,
      ]),
    ).toEqual([{ attempt_id: report.attemptId, attempt_provisional: false, observation_count: 2 }]);
  });

  it('when the merchant reported the attempt without its transaction, the notification came, then a report links them, then the provisional payment is merged into the merchant payment', async () => {
    const { tenant, keys, path } = await gwaSetup();
    const txn = transactionId();
    const attemptId = `att_${randomUUID()}`;
    const authorized = gwaReport({
      attemptId,
      status: 'authorized',
      amountMinor: 10000,
      capturedAmountMinor: 0,
      occurredAt: new Date(Date.now() - 120_000).toISOString(),
    });
    expect((await app.request('/api/v1/gwa/payment-reports', { method: 'POST', json: authorized, key: tenant.key })).status).toBe(200);
    expect((await deliver(app, path, sampleNotification(keys, 'transaction_settled', txn))).body).toMatchObject({ status: 'captured' });
    const linking = merchantCapture(txn, { attemptId });
    const res = await app.request('/api/v1/gwa/payment-reports', { method: 'POST', json: linking, key: tenant.key });
    expect(res.status).toBe(200);

    const rows = await sql(
      app,
      'select id, attempt_id, provider_payment_id, merged_into_id, observation_count, status from tracked_payments where integration_id = ? order by created_at',
      [tenant.integrationId],
    );
    expect(rows).toEqual([
      {
        id: expect.any(String),
        attempt_id: attemptId,
        provider_payment_id: txn,
        merged_into_id: null,
        observation_count: 3,
        status: 'captured',
      },
      {
        id: expect.any(String),
        attempt_id: `gwa_transaction_${txn}`,
        provider_payment_id: null,
        merged_into_id: rows[0].id,
        observation_count: 0,
        status: 'captured',
      },
    ]);
    const listed = await app.admin<any>('payments.list', { integrationId: tenant.integrationId });
    expect(listed.body.payments.map((p: any) => p.id)).toEqual([rows[0].id]);
    const detail = await app.admin<any>('payments.get', { id: rows[0].id });
    expect(detail.body.observations.map((o: any) => [o.evidence, o.status])).toEqual([
      ['merchant_report', 'authorized'],
      ['merchant_report', 'captured'],
      ['provider_verified', 'captured'],
    ]);
    // Later provider evidence finds the merchant payment.
    expect((await deliver(app, path, sampleNotification(keys, 'transaction_disbursed', txn))).body).toMatchObject({
      status: 'captured',
      duplicate: false,
    });
    expect(await sql(app, 'select observation_count from tracked_payments where id = ?', [rows[0].id])).toEqual([{ observation_count: 4 }]);
  });

  /**
   * A gwa transaction refunded between its settlement and its notifications: captured at 10:00, settled 10:10, 25.00
   * refunded 10:20, the rest 10:30, disbursed 10:40. A notification carries no refund (a refund is its own
   * transaction), so C8 binds the merchant's reports to the merchant's own (docs/payment-reports.md).
   */
  const refundedBetween = (txn: string) => {
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 10, 10, minute));
    const attemptId = `att_${txn}`;
    const report = (status: string, refunded: number, minute: number) =>
      merchantCapture(txn, { attemptId, status, refundedAmountMinor: refunded, occurredAt: at(minute).toISOString() });
    return {
      captured: report('captured', 0, 0),
      partly: report('partially_refunded', 2500, 20),
      refunded: report('refunded', 10000, 30),
      notification: (kind: 'transaction_settled' | 'transaction_disbursed', keys: ReturnType<typeof newKeys>) =>
        transactionNotification(keys, kind, txn, {
          amountMinor: 10000,
          timestamp: at(kind === 'transaction_settled' ? 10 : 40),
          merchantAccountId: 'merchant_a',
        }),
    };
  };
  const paymentOf = async (txn: string) => {
    const [payment] = await sql(
      app,
      'select id, status, captured_amount_minor::int, refunded_amount_minor::int from tracked_payments where provider_payment_id = ?',
      [txn],
    );
    const evidence = await sql(app, 'select evidence, status from payment_observations where tracked_payment_id = ? order by occurred_at', [
      payment.id,
    ]);
    return { status: payment.status, captured: payment.captured_amount_minor, refunded: payment.refunded_amount_minor, evidence };
  };

  it("C8: when the settlement notification arrives after the merchant's refund reports, then it is recorded and the payment is refunded with a verified capture", async () => {
    const { tenant, keys, path } = await gwaSetup();
    const txn = transactionId();
    const h = refundedBetween(txn);
    for (const report of [h.captured, h.partly, h.refunded]) {
      expect((await app.request('/api/v1/gwa/payment-reports', { method: 'POST', json: report, key: tenant.key })).status).toBe(200);
    }
    const res = await deliver(app, path, h.notification('transaction_settled', keys));
    expect(res.body).toEqual({ received: true, kind: 'transaction_settled', status: 'refunded', duplicate: false });
    expect(await paymentOf(txn)).toEqual({
      status: 'refunded',
      captured: 10000,
      refunded: 10000,
      evidence: [
        { evidence: 'merchant_report', status: 'captured' },
        { evidence: 'provider_verified', status: 'refunded' },
        { evidence: 'merchant_report', status: 'partially_refunded' },
        { evidence: 'merchant_report', status: 'refunded' },
      ],
    });
  });

  it("C8: when the disbursement notification stamped after the refunds arrives before the merchant's refund reports, then the reports are accepted and the payment is refunded", async () => {
    const { tenant, keys, path } = await gwaSetup();
    const txn = transactionId();
    const h = refundedBetween(txn);
    expect((await app.request('/api/v1/gwa/payment-reports', { method: 'POST', json: h.captured, key: tenant.key })).status).toBe(200);
    const res = await deliver(app, path, h.notification('transaction_disbursed', keys));
    expect(res.body).toEqual({ received: true, kind: 'transaction_disbursed', status: 'captured', duplicate: false });
    for (const report of [h.partly, h.refunded]) {
      const answer = await app.request('/api/v1/gwa/payment-reports', { method: 'POST', json: report, key: tenant.key });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    }
    expect(await paymentOf(txn)).toEqual({
      status: 'refunded',
      captured: 10000,
      refunded: 10000,
      evidence: [
        { evidence: 'merchant_report', status: 'captured' },
        { evidence: 'merchant_report', status: 'partially_refunded' },
        { evidence: 'merchant_report', status: 'refunded' },
        { evidence: 'provider_verified', status: 'captured' },
      ],
    });
  });

  it('when a merchant report names a transaction already linked to another merchant attempt, then it is still refused 409 identity_conflict', async () => {
    const tenant = await createTenant(app, { provider: 'gwa', scopes: ['payments:write'] });
    const txn = transactionId();
    expect((await app.request('/api/v1/gwa/payment-reports', { method: 'POST', json: merchantCapture(txn), key: tenant.key })).status).toBe(
      200,
    );
    const other = await app.request('/api/v1/gwa/payment-reports', { method: 'POST', json: merchantCapture(txn), key: tenant.key });
    expect(other.status).toBe(409);
    expect(other.body.error.issues).toEqual([
      {
        code: 'identity_conflict',
        path: 'providerPaymentId',
        message: 'This provider payment is already reported under another attemptId',
      },
    ]);
  });

  describe('gwc (PaymentIntent id)', () => {
    async function gwcSetup() {
      const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
      const secret = newSecret();
      const endpoint = await adminCall<{ url: string }>(app, 'webhookEndpoints.create', {
        integrationId: tenant.integrationId,
        signingSecret: secret,
      });
      return { tenant, secret, path: new URL(endpoint.url).pathname };
    }
    const succeeded = (pi: string) =>
      gwcEvent('payment_intent.succeeded', paymentIntent({ id: pi, status: 'succeeded', amount_received: 10000 }), {
        created: Math.floor(Date.now() / 1000) - 30,
      });
    const merchantReport = (pi: string) =>
      gwcReport({
        paymentIntentId: pi,
        amountMinor: 10000,
        capturedAmountMinor: 10000,
        occurredAt: new Date(Date.now() - 60_000).toISOString(),
      });

    it('when the merchant reports first and the event follows, then the event joins the merchant payment', async () => {
      const { tenant, secret, path } = await gwcSetup();
      const pi = newPaymentIntentId();
      const report = merchantReport(pi);
      expect((await app.request('/api/v1/gwc/payment-reports', { method: 'POST', json: report, key: tenant.key })).status).toBe(200);
      expect((await deliverGwc(app, path, signed(secret, succeeded(pi)))).body).toMatchObject({ status: 'captured', duplicate: false });
      expect(
        await sql(app, 'select attempt_id, attempt_provisional, observation_count from tracked_payments where integration_id = ?', [
          tenant.integrationId,
        ]),
      ).toEqual([{ attempt_id: report.attemptId, attempt_provisional: false, observation_count: 2 }]);
    });

    it('when events and merchant reports of the same PaymentIntents arrive concurrently, then each is one payment and nothing is refused', async () => {
      const { tenant, secret, path } = await gwcSetup();
      await arriveTogether({
        provider: 'gwc',
        tenant,
        ids: Array.from({ length: 8 }, newPaymentIntentId),
        deliverOne: (pi) => deliverGwc(app, path, signed(secret, succeeded(pi))),
        reportOf: merchantReport,
      });
    });
  });
});
