import { beforeAll, describe, expect, it } from 'vitest';
import { charge, deliverGwc, gwcEvent, newSecret, providerFirstMerge, signed } from '../../support/gwc-webhooks.js';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader } from '../../support/ledger-flow.js';
import { bodyFor, preparationFlow, type Reader } from '../../support/preparation-flow.js';
import { gwcReport } from '../../support/reports.js';
import { currentUtcMonth } from '../../support/utc-month.js';

const app = useLedgerApp({ sandbox: { invoices: 2, items: 2 } });
const { sql, post, confirmMappings } = preparationFlow(app);

const { range: thisMonth } = currentUtcMonth();

interface World {
  reader: Reader;
  invoice: { id: string; totalAmountMinor: number };
  path: string;
  secret: string;
  paymentsKey: string;
}
const w = {} as World;

/**
 * The review's reproduction (docs/evidence.md, "The chain of one preparation"): the merchant reports `authorized` for
 * attempt A naming the preparation; the provider's signed capture arrives first and files a provisional payment; the
 * merchant's capture report of the same PaymentIntent merges it into A; the provider's signed full refund follows.
 */
async function reviewChain(options: { metadata: boolean; refund: boolean }) {
  const prepared = await post(w.reader.key, 'gwcPreparation', bodyFor(w.invoice));
  expect(prepared.status).toBe(200);
  expect(prepared.body.data.mode).toBe('enhanced');
  const preparationId = prepared.body.preparation.id as string;
  const total = w.invoice.totalAmountMinor;
  const metadata: Record<string, string> = options.metadata ? { svc_preparation_id: preparationId } : {};
  const { pi, attemptId, created } = await providerFirstMerge(
    {
      report: (json) => app.request('/api/v1/gwc/payment-reports', { method: 'POST', key: w.paymentsKey, json: gwcReport(json) }),
      deliver: async (event) => (await deliverGwc(app, w.path, signed(w.secret, event))).body,
    },
    { preparationId, amountMinor: total, metadata },
  );
  if (options.refund) {
    const refunded = gwcEvent(
      'charge.refunded',
      charge(pi, { amount: total, amount_captured: total, amount_refunded: total, refunded: true, metadata }),
      { created: created + 30 },
    );
    expect((await deliverGwc(app, w.path, signed(w.secret, refunded))).body).toMatchObject({ status: 'refunded', duplicate: false });
  }
  const payments = await sql(
    `select id, attempt_id, merged_into_id, provider_payment_id from tracked_payments where integration_id = ? and (attempt_id = ? or attempt_id = ?) order by merged_into_id nulls first`,
    [w.reader.integrationId, attemptId, `gwc_payment_intent_${pi}`],
  );
  return { preparationId, pi, attemptId, payments, total };
}

const listRow = async (preparationId: string) => {
  const res = await app.admin<any>('evidence.list', { integrationId: w.reader.integrationId, ...thisMonth, limit: 200 });
  expect(res.status).toBe(200);
  return res.body.rows.find((r: any) => r.preparationId === preparationId);
};
const unconfirmedIds = async () =>
  ((await app.admin<any>('preparations.unconfirmed', { integrationId: w.reader.integrationId })).body.preparations as any[]).map(
    (p) => p.id,
  );
const projectionRow = async (preparationId: string) =>
  (await sql(`select fact_key, net_minor, currency from preparation_evidence where preparation_id = ?`, [preparationId]))[0];
const viewRow = async (preparationId: string) =>
  (
    await sql(
      `select fact_key, (captured_minor - refunded_minor)::text as net_minor, coalesce(payment_currency, currency) as currency from preparation_evidence_facts where id = ?`,
      [preparationId],
    )
  )[0];

describe('evidence follows merged payments', () => {
  beforeAll(async () => {
    w.reader = await invoiceReader(app, 'gwc');
    w.invoice = await confirmMappings(w.reader, '1001');
    w.secret = newSecret();
    const endpoint = (await app.admin<any>('webhookEndpoints.create', { integrationId: w.reader.integrationId, signingSecret: w.secret }))
      .body;
    w.path = new URL(endpoint.url).pathname;
    w.paymentsKey = (
      await app.admin<{ key: string }>('apiKeys.issue', { integrationId: w.reader.integrationId, scopes: ['payments:write'] })
    ).body.key;
  }, 120_000);

  it('when a provisional payment carrying svc_preparation_id is merged into the merchant attempt and then fully refunded, then the chain follows the surviving payment: verified with net 0, in the list, the summary and the projection', async () => {
    const { preparationId, pi, attemptId, payments, total } = await reviewChain({ metadata: true, refund: true });
    const [survivor, merged] = payments;
    expect(payments).toEqual([
      { id: survivor.id, attempt_id: attemptId, merged_into_id: null, provider_payment_id: pi },
      { id: merged.id, attempt_id: `gwc_payment_intent_${pi}`, merged_into_id: survivor.id, provider_payment_id: null },
    ]);
    const [capture] = await sql(
      `select id, event_id, occurred_at from payment_observations where tracked_payment_id = ? and evidence = 'provider_verified'`,
      [merged.id],
    );
    expect(await listRow(preparationId)).toMatchObject({
      state: 'verified',
      payment: { id: survivor.id, attemptId, providerPaymentId: pi, status: 'refunded', amountMinor: total, currency: 'usd' },
      evidence: {
        source: 'provider_verified',
        observationId: capture.id,
        eventId: capture.event_id,
        at: new Date(capture.occurred_at).toISOString(),
      },
      capturedAmountMinor: total,
      refundedAmountMinor: total,
      netAmountMinor: 0,
    });
    // The summary's projection was refreshed by the merge and the late refund: it equals the view.
    expect(await projectionRow(preparationId)).toEqual({ ...(await viewRow(preparationId)) });
    expect(await projectionRow(preparationId)).toMatchObject({ fact_key: 1 + 4 + 8 + 16 + 32 + 64, net_minor: '0' });
    expect(await unconfirmedIds()).not.toContain(preparationId);
    // payments.* shows the survivor with the merged observations, and never the merged payment.
    const got = await app.admin<any>('payments.get', { id: survivor.id });
    expect(got.body.payment).toMatchObject({ id: survivor.id, status: 'refunded', verifiedCapture: true, observationCount: 4 });
    expect(got.body.observations.map((o: any) => [o.status, o.evidence])).toEqual([
      ['authorized', 'merchant_report'],
      ['captured', 'provider_verified'],
      ['captured', 'merchant_report'],
      ['refunded', 'provider_verified'],
    ]);
    expect((await app.admin<any>('payments.get', { id: merged.id })).status).toBe(404);
  });

  it('when the provider events carry no svc_preparation_id, then the merged provider-verified capture still makes the chain verified, and preparations.unconfirmed agrees', async () => {
    const { preparationId, payments, total } = await reviewChain({ metadata: false, refund: false });
    expect(await listRow(preparationId)).toMatchObject({
      state: 'verified',
      payment: { id: payments[0].id, status: 'captured' },
      evidence: { source: 'provider_verified' },
      capturedAmountMinor: total,
      refundedAmountMinor: 0,
      netAmountMinor: total,
    });
    expect(await projectionRow(preparationId)).toEqual({ ...(await viewRow(preparationId)) });
    expect(await unconfirmedIds()).not.toContain(preparationId);
  });

  it('when only the merchant reports the capture, then the chain is reported_only and preparations.unconfirmed lists it: the two views agree', async () => {
    const prepared = await post(w.reader.key, 'gwcPreparation', bodyFor(w.invoice));
    const preparationId = prepared.body.preparation.id as string;
    const total = w.invoice.totalAmountMinor;
    const res = await app.request('/api/v1/gwc/payment-reports', {
      method: 'POST',
      key: w.paymentsKey,
      json: gwcReport({ enrichmentRequestId: preparationId, amountMinor: total, capturedAmountMinor: total }),
    });
    expect(res.status).toBe(200);
    expect(await listRow(preparationId)).toMatchObject({ state: 'reported_only', netAmountMinor: total });
    expect(await unconfirmedIds()).toContain(preparationId);
  });
});
