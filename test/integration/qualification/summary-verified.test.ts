import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { deliver, newKeys, transactionNotification } from '../../support/gwa-webhooks.js';
import {
  charge,
  deliverGwc,
  gwcEvent,
  newPaymentIntentId,
  newSecret,
  paymentIntent,
  providerFirstMerge,
  signed,
} from '../../support/gwc-webhooks.js';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader, linkedProvider } from '../../support/ledger-flow.js';
import { bodyFor, preparationFlow, type Reader, confirmMapping } from '../../support/preparation-flow.js';
import { gwaReport, gwcReport } from '../../support/reports.js';
import { currentUtcMonth } from '../../support/utc-month.js';

// docs/network-qualification.md ("qualification.summary": the evidence ledger's `verified` state and net volume,
// never redefined) and docs/evidence.md. Four generated invoices over six items (2 lines each): 1001 items 3+4 and
// 1002 items 4+5, both with a PO. Item 5's mapping has no commodity code: 1001 is product_3, 1002 partial (the
// figures below take each level from endpoint 9, as the preparation records it).
const app = useLedgerApp({ sandbox: { invoices: 4, items: 6 } });
const { sql, post, invoiceOf } = preparationFlow(app);

const { range: thisMonth, month: MONTH } = currentUtcMonth();

interface World {
  reader: Reader;
  invoices: Record<'1001' | '1002', { id: string; totalAmountMinor: number }>;
  /** Per case: its integration, and the verified count and net volume it must add. */
  /** Each invoice's level per provider, as endpoint 9 shows it when the preparations are made. */
  levels: Record<'gwa' | 'gwc', Record<'1001' | '1002', string>>;
  cases: { integrationId: string; level: string; preparations: number; verified: number; net: number }[];
}
const w = {} as World;

const confirm = (reader: Reader, sourceItemId: string, productCode: string, unitOfMeasure: string, commodityCode?: string) =>
  confirmMapping(app, reader.connectionRowId, { sourceItemId, productCode, unitOfMeasure, commodityCode });

const paymentsKey = async (integrationId: string) =>
  (await app.admin<{ key: string }>('apiKeys.issue', { integrationId, scopes: ['payments:write'] })).body.key;

/** A new gwc integration linked to the source, its signed webhook endpoint and a reporting key: one case's own figures. */
async function gwcIntegration() {
  const gwc = await linkedProvider(app, w.reader.ledger, 'gwc');
  const secret = newSecret();
  const endpoint = (await app.admin<any>('webhookEndpoints.create', { integrationId: gwc.integrationId, signingSecret: secret })).body;
  const path = new URL(endpoint.url).pathname;
  const reportKey = await paymentsKey(gwc.integrationId);
  return {
    ...gwc,
    /** An enhanced preparation of endpoint 12 for the invoice. */
    prepare: async (ledgerInvoiceId: '1001' | '1002') => {
      const res = await post(gwc.key, 'gwcPreparation', bodyFor(w.invoices[ledgerInvoiceId]));
      expect(res.status).toBe(200);
      expect(res.body.data.mode).toBe('enhanced');
      return res.body.preparation.id as string;
    },
    /** A provider delivery, signed with the endpoint's secret. */
    deliver: async (event: Record<string, unknown>) => (await deliverGwc(app, path, signed(secret, event))).body,
    /** A merchant report of endpoint 13. */
    report: (json: Record<string, unknown>) =>
      app.request('/api/v1/gwc/payment-reports', { method: 'POST', key: reportKey, json: gwcReport(json) }),
  };
}

const succeeded = (pi: string, amount: number, created: number, metadata: Record<string, string> = {}) =>
  gwcEvent('payment_intent.succeeded', paymentIntent({ id: pi, amount, amount_received: amount, status: 'succeeded', metadata }), {
    created,
  });

/** The operator's two figures for one integration (or the organization) over this month. */
async function figures(filter: { integrationId: string } | { organizationId: string }) {
  const qualification = await app.admin<any>('qualification.summary', { ...filter, ...thisMonth });
  const evidence = await app.admin<any>('evidence.summary', { ...filter, ...thisMonth });
  expect(qualification.status).toBe(200);
  expect(evidence.status).toBe(200);
  return { qualification: qualification.body, evidence: evidence.body };
}

const zero = { count: 0, netMinor: '0' };
/** `evidence.summary`'s one row for a gwc or gwa integration, one currency, where every preparation is in one state. */
const evidenceRow = (
  integrationId: string,
  provider: 'gwa' | 'gwc',
  states: Partial<Record<'verified' | 'reported_only' | 'unconfirmed' | 'exception' | 'ordinary', { count: number; netMinor: string }>>,
) => {
  const all = { verified: zero, reported_only: zero, unconfirmed: zero, exception: zero, ordinary: zero, ...states };
  const count = Object.values(all).reduce((n, s) => n + s.count, 0);
  const net = Object.values(all).reduce((n, s) => n + BigInt(s.netMinor), 0n);
  const verified = BigInt(all.verified.netMinor);
  return {
    integrationId,
    provider,
    month: MONTH,
    currency: 'usd',
    count,
    netMinor: String(net),
    states: all,
    verifiedShare: {
      numerator: String(verified),
      denominator: String(net),
      decimal: net === 0n ? null : verified === net ? '1.0000' : verified === 0n ? '0.0000' : expect.stringMatching(/^0\.\d{4}$/),
    },
  };
};
const levelRow = (level: string, preparations: number, verifiedPreparations: number, verifiedNetMinor: number) => ({
  month: MONTH,
  level,
  currency: 'usd',
  preparations,
  verifiedPreparations,
  verifiedNetMinor: String(verifiedNetMinor),
});

describe('qualification.summary: verified preparations and volume are the evidence ledger’s, in its hardest cases', () => {
  beforeAll(async () => {
    w.reader = await invoiceReader(app, 'gwc');
    expect((await app.admin('connections.configure', { id: w.reader.connectionRowId, purchaseOrderField: 'Purchase Order' })).status).toBe(
      200,
    );
    await confirm(w.reader, '3', 'SKU-00003', 'EA', '43211503');
    await confirm(w.reader, '4', 'SKU-00004', 'BX', '43211507');
    await confirm(w.reader, '5', 'P-5', 'EA');
    const i1001 = await invoiceOf(w.reader, '1001');
    const i1002 = await invoiceOf(w.reader, '1002');
    const levelOf = (invoice: unknown, provider: 'gwa' | 'gwc') => (invoice as any).qualification[provider].level as string;
    w.levels = {
      gwa: { '1001': levelOf(i1001, 'gwa'), '1002': levelOf(i1002, 'gwa') },
      gwc: { '1001': levelOf(i1001, 'gwc'), '1002': levelOf(i1002, 'gwc') },
    };
    w.invoices = { '1001': i1001, '1002': i1002 };
    w.cases = [];
  }, 120_000);

  it('when the provider’s signed capture comes first and the merchant then reports the same PaymentIntent naming the preparation, then one payment, verified once with its net amount, in both summaries', async () => {
    const gwc = await gwcIntegration();
    const preparationId = await gwc.prepare('1001');
    const total = w.invoices['1001'].totalAmountMinor;
    const pi = newPaymentIntentId();
    const created = Math.floor(Date.now() / 1000) - 600;
    // Provider-first, without svc_preparation_id: a provisional payment naming no preparation.
    expect(await gwc.deliver(succeeded(pi, total, created))).toMatchObject({ status: 'captured', duplicate: false });
    const before = await figures({ integrationId: gwc.integrationId });
    expect(before.qualification.rows).toEqual([levelRow(w.levels.gwc['1001'], 1, 0, 0)]);
    expect(before.evidence.rows).toEqual([evidenceRow(gwc.integrationId, 'gwc', { unconfirmed: { count: 1, netMinor: '0' } })]);

    const attemptId = `att_${randomUUID()}`;
    const reported = await gwc.report({
      attemptId,
      paymentIntentId: pi,
      amountMinor: total,
      capturedAmountMinor: total,
      enrichmentRequestId: preparationId,
      occurredAt: new Date((created + 20) * 1000).toISOString(),
    });
    expect(reported.status).toBe(200);
    expect(
      await sql(
        `select attempt_id, provider_payment_id, merged_into_id, enrichment_request_id from tracked_payments where integration_id = ?`,
        [gwc.integrationId],
      ),
    ).toEqual([{ attempt_id: attemptId, provider_payment_id: pi, merged_into_id: null, enrichment_request_id: preparationId }]);

    const after = await figures({ integrationId: gwc.integrationId });
    expect(after.qualification).toEqual({ ...thisMonth, timeZone: 'UTC', rows: [levelRow(w.levels.gwc['1001'], 1, 1, total)] });
    expect(after.evidence).toEqual({
      ...thisMonth,
      timeZone: 'UTC',
      rows: [evidenceRow(gwc.integrationId, 'gwc', { verified: { count: 1, netMinor: String(total) } })],
    });
    w.cases.push({ integrationId: gwc.integrationId, level: w.levels.gwc['1001'], preparations: 1, verified: 1, net: total });
  });

  it('when the merchant’s attempt exists, the provider’s signed capture files a provisional payment and the merchant’s capture report merges it, then the preparation is verified once with its net amount, in both summaries', async () => {
    const gwc = await gwcIntegration();
    const preparationId = await gwc.prepare('1001');
    const total = w.invoices['1001'].totalAmountMinor;
    const { pi, attemptId } = await providerFirstMerge(gwc, {
      preparationId,
      amountMinor: total,
      metadata: { svc_preparation_id: preparationId },
    });
    const payments = await sql(
      `select attempt_id, provider_payment_id, (merged_into_id is not null) as merged from tracked_payments where integration_id = ? order by merged_into_id nulls first`,
      [gwc.integrationId],
    );
    expect(payments).toEqual([
      { attempt_id: attemptId, provider_payment_id: pi, merged: false },
      { attempt_id: `gwc_payment_intent_${pi}`, provider_payment_id: null, merged: true },
    ]);

    const after = await figures({ integrationId: gwc.integrationId });
    expect(after.qualification.rows).toEqual([levelRow(w.levels.gwc['1001'], 1, 1, total)]);
    expect(after.evidence.rows).toEqual([evidenceRow(gwc.integrationId, 'gwc', { verified: { count: 1, netMinor: String(total) } })]);
    w.cases.push({ integrationId: gwc.integrationId, level: w.levels.gwc['1001'], preparations: 1, verified: 1, net: total });
  });

  it('when a verified payment is partly refunded by the provider’s signed refund, then it stays verified and both summaries count its net amount', async () => {
    const gwc = await gwcIntegration();
    const preparationId = await gwc.prepare('1002');
    const total = w.invoices['1002'].totalAmountMinor;
    const pi = newPaymentIntentId();
    const created = Math.floor(Date.now() / 1000) - 600;
    const metadata = { svc_preparation_id: preparationId };
    expect(await gwc.deliver(succeeded(pi, total, created, metadata))).toMatchObject({ status: 'captured' });
    const verified = await figures({ integrationId: gwc.integrationId });
    expect(verified.qualification.rows).toEqual([levelRow(w.levels.gwc['1002'], 1, 1, total)]);
    expect(verified.evidence.rows).toEqual([evidenceRow(gwc.integrationId, 'gwc', { verified: { count: 1, netMinor: String(total) } })]);

    const refund = charge(pi, { amount: total, amount_captured: total, amount_refunded: 300, refunded: false, metadata });
    expect(await gwc.deliver(gwcEvent('charge.refunded', refund, { created: created + 30 }))).toMatchObject({
      status: 'partially_refunded',
    });
    const after = await figures({ integrationId: gwc.integrationId });
    expect(after.qualification).toEqual({ ...thisMonth, timeZone: 'UTC', rows: [levelRow(w.levels.gwc['1002'], 1, 1, total - 300)] });
    expect(after.evidence.rows).toEqual([evidenceRow(gwc.integrationId, 'gwc', { verified: { count: 1, netMinor: String(total - 300) } })]);
    const [projection] = await sql(`select fact_key, net_minor, qualification_level from preparation_evidence where preparation_id = ?`, [
      preparationId,
    ]);
    expect(projection).toEqual({
      fact_key: 1 + 4 + 8 + 16 + 32 + 64,
      net_minor: String(total - 300),
      qualification_level: w.levels.gwc['1002'],
    });
    w.cases.push({ integrationId: gwc.integrationId, level: w.levels.gwc['1002'], preparations: 1, verified: 1, net: total - 300 });
  });

  it('when a payment verified by the provider’s signed capture is then reported partly refunded only by the merchant, then it stays verified and both summaries count the net after that refund', async () => {
    const gwc = await gwcIntegration();
    const preparationId = await gwc.prepare('1001');
    const total = w.invoices['1001'].totalAmountMinor;
    const pi = newPaymentIntentId();
    const created = Math.floor(Date.now() / 1000) - 600;
    expect(await gwc.deliver(succeeded(pi, total, created, { svc_preparation_id: preparationId }))).toMatchObject({ status: 'captured' });
    const refunded = await gwc.report({
      status: 'partially_refunded',
      paymentIntentId: pi,
      amountMinor: total,
      capturedAmountMinor: total,
      refundedAmountMinor: 500,
      enrichmentRequestId: preparationId,
      occurredAt: new Date((created + 30) * 1000).toISOString(),
    });
    expect(refunded.status).toBe(200);
    expect(
      await sql(
        `select status, captured_amount_minor::int as captured, refunded_amount_minor::int as refunded from tracked_payments where integration_id = ?`,
        [gwc.integrationId],
      ),
    ).toEqual([{ status: 'partially_refunded', captured: total, refunded: 500 }]);
    const after = await figures({ integrationId: gwc.integrationId });
    expect(after.qualification).toEqual({ ...thisMonth, timeZone: 'UTC', rows: [levelRow(w.levels.gwc['1001'], 1, 1, total - 500)] });
    expect(after.evidence.rows).toEqual([evidenceRow(gwc.integrationId, 'gwc', { verified: { count: 1, netMinor: String(total - 500) } })]);
    w.cases.push({ integrationId: gwc.integrationId, level: w.levels.gwc['1001'], preparations: 1, verified: 1, net: total - 500 });
  });

  it('when a gwa preparation’s authorization is reported and the provider’s signed settlement notification captures it, then it is verified in both summaries', async () => {
    const gwa = await linkedProvider(app, w.reader.ledger, 'gwa');
    const total = w.invoices['1001'].totalAmountMinor;
    const prepared = await post(gwa.key, 'gwa', bodyFor(w.invoices['1001']));
    expect(prepared.status).toBe(200);
    const preparationId = prepared.body.preparation.id as string;
    const txn = `t${randomUUID().replace(/-/g, '').slice(0, 9)}`;
    const authorized = await app.request('/api/v1/gwa/payment-reports', {
      method: 'POST',
      key: await paymentsKey(gwa.integrationId),
      json: gwaReport({
        status: 'authorized',
        amountMinor: total,
        capturedAmountMinor: 0,
        transactionId: txn,
        enrichmentRequestId: preparationId,
        occurredAt: new Date(Date.now() - 120_000).toISOString(),
      }),
    });
    expect(authorized.status).toBe(200);
    const before = await figures({ integrationId: gwa.integrationId });
    expect(before.qualification.rows).toEqual([levelRow(w.levels.gwa['1001'], 1, 0, 0)]);
    expect(before.evidence.rows).toEqual([evidenceRow(gwa.integrationId, 'gwa', { unconfirmed: { count: 1, netMinor: '0' } })]);

    const keys = newKeys();
    const endpoint = (await app.admin<any>('webhookEndpoints.create', { integrationId: gwa.integrationId, ...keys })).body;
    const settled = await deliver(
      app,
      new URL(endpoint.url).pathname,
      transactionNotification(keys, 'transaction_settled', txn, {
        amountMinor: total,
        timestamp: new Date(Date.now() - 60_000),
        merchantAccountId: 'merchant_a',
      }),
    );
    expect(settled.body).toEqual({ received: true, kind: 'transaction_settled', status: 'captured', duplicate: false });
    const after = await figures({ integrationId: gwa.integrationId });
    expect(after.qualification).toEqual({ ...thisMonth, timeZone: 'UTC', rows: [levelRow(w.levels.gwa['1001'], 1, 1, total)] });
    expect(after.evidence.rows).toEqual([evidenceRow(gwa.integrationId, 'gwa', { verified: { count: 1, netMinor: String(total) } })]);
    w.cases.push({ integrationId: gwa.integrationId, level: w.levels.gwa['1001'], preparations: 1, verified: 1, net: total });
  });

  it('when a preparation’s capture is only reported by the merchant and never confirmed by the provider, then it is not verified in either summary', async () => {
    const gwc = await gwcIntegration();
    const preparationId = await gwc.prepare('1002');
    const total = w.invoices['1002'].totalAmountMinor;
    const reported = await gwc.report({
      paymentIntentId: newPaymentIntentId(),
      amountMinor: total,
      capturedAmountMinor: total,
      enrichmentRequestId: preparationId,
      occurredAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(reported.status).toBe(200);
    const after = await figures({ integrationId: gwc.integrationId });
    expect(after.qualification).toEqual({ ...thisMonth, timeZone: 'UTC', rows: [levelRow(w.levels.gwc['1002'], 1, 0, 0)] });
    expect(after.evidence.rows).toEqual([evidenceRow(gwc.integrationId, 'gwc', { reported_only: { count: 1, netMinor: String(total) } })]);
    w.cases.push({ integrationId: gwc.integrationId, level: w.levels.gwc['1002'], preparations: 1, verified: 0, net: 0 });
  });

  it('when summarized for the organization, then qualification.summary’s verified count and volume per level add up to evidence.summary’s verified figures over its integrations', async () => {
    expect(w.cases).toHaveLength(6);
    const org = await figures({ organizationId: w.reader.ledger.organizationId });
    const sum = (level: string) => {
      const of = w.cases.filter((c) => c.level === level);
      return levelRow(
        level,
        of.reduce((n, c) => n + c.preparations, 0),
        of.reduce((n, c) => n + c.verified, 0),
        of.reduce((n, c) => n + c.net, 0),
      );
    };
    const levels = ['product_3', 'partial', 'none'].filter((level) => w.cases.some((c) => c.level === level));
    expect(org.qualification).toEqual({ ...thisMonth, timeZone: 'UTC', rows: levels.map(sum) });
    const verifiedOfEvidence = org.evidence.rows.reduce(
      (acc: { count: number; net: bigint }, r: any) => ({
        count: acc.count + r.states.verified.count,
        net: acc.net + BigInt(r.states.verified.netMinor),
      }),
      { count: 0, net: 0n },
    );
    const verifiedOfLevels = org.qualification.rows.reduce(
      (acc: { count: number; net: bigint }, r: any) => ({
        count: acc.count + r.verifiedPreparations,
        net: acc.net + BigInt(r.verifiedNetMinor),
      }),
      { count: 0, net: 0n },
    );
    expect(verifiedOfLevels).toEqual(verifiedOfEvidence);
    expect(verifiedOfEvidence).toEqual({ count: 5, net: BigInt(w.cases.reduce((n, c) => n + c.net, 0)) });
    expect(org.evidence.rows.map((r: any) => r.integrationId).sort()).toEqual(w.cases.map((c) => c.integrationId).sort());
  });
});
