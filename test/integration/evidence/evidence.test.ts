import { createHash, createHmac, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { csvValues, EVIDENCE_CSV_COLUMNS } from '../../../server/domain/evidence/evidence-queries.js';
import { csvObjects } from '../../support/csv.js';
import { deliver, newKeys, sampleNotification, type GwaKeys } from '../../support/gwa-webhooks.js';
import { deliverGwc, gwcEvent, newPaymentIntentId, newSecret, paymentIntent, charge, signed } from '../../support/gwc-webhooks.js';
import { TEST_ADMIN_TOKEN } from '../../support/harness.js';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader, linkedProvider } from '../../support/ledger-flow.js';
import { bodyFor, preparationFlow, type Reader } from '../../support/preparation-flow.js';
import { gwaReport, gwbReport, gwcReport } from '../../support/reports.js';
import { currentUtcMonth } from '../../support/utc-month.js';

const app = useLedgerApp({ sandbox: { invoices: 4, items: 3 } });
const { sql, post, invoiceOf, confirmMappings } = preparationFlow(app);

/** The current UTC month as a range: everything this test saves through the API falls in it. */
const { range: thisMonth, month: MONTH } = currentUtcMonth();

/**
 * A gwa notification of the SDK's sample transaction with its amount set to ours, signed the way the provider's
 * SDK signs (HMAC-SHA1 keyed by the SHA-1 of the private key): the sample's fixed 100.00 is not an invoice total.
 */
function settledFor(keys: GwaKeys, transactionId: string, amountMinor: number) {
  const sample = sampleNotification(keys, 'transaction_settled', transactionId);
  const xml = Buffer.from(sample.gwa_payload, 'base64')
    .toString('utf8')
    .replace('<amount>100</amount>', `<amount>${(amountMinor / 100).toFixed(2)}</amount>`);
  const payload = `${Buffer.from(xml, 'utf8').toString('base64')}\n`;
  const hmac = createHmac('sha1', createHash('sha1').update(keys.privateKey).digest()).update(payload).digest('hex');
  return { gwa_signature: `${keys.publicKey}|${hmac}`, gwa_payload: payload };
}

interface World {
  gwc: Reader;
  gwbIntegrationId: string;
  gwaIntegrationId: string;
  totals: { t1001: number; t1002: number; t1003: number };
  ids: Record<'verified' | 'reported' | 'unconfirmed' | 'exception' | 'ordinary' | 'gwb' | 'gwa', string>;
  pi: { verified: string; exception: string; ordinary: string };
  janEnd: string;
  febStart: string;
}
const w = {} as World;

const paymentsKey = async (integrationId: string) =>
  (await app.admin<{ key: string }>('apiKeys.issue', { integrationId, scopes: ['payments:write'] })).body.key;

/** docs/evidence.md: every state produced end to end, from the ledger sandbox to a signed provider event or a merchant report. */
describe('evidence ledger', () => {
  beforeAll(async () => {
    const reader = await invoiceReader(app, 'gwc');
    w.gwc = reader;
    // gwa fields need the buyer's purchase-order number, kept in this custom field of the source.
    expect((await app.admin('connections.configure', { id: reader.connectionRowId, purchaseOrderField: 'Purchase Order' })).status).toBe(
      200,
    );
    const ordinaryInvoice = await invoiceOf(reader, '1002');
    const ordinary = await post(reader.key, 'gwcPreparation', bodyFor(ordinaryInvoice));
    expect(ordinary.body.data.mode).toBe('ordinary');
    const i1001 = await confirmMappings(reader, '1001');
    const i1003 = await confirmMappings(reader, '1003');
    w.totals = { t1001: i1001.totalAmountMinor, t1002: ordinaryInvoice.totalAmountMinor, t1003: i1003.totalAmountMinor };

    const prepare = async (invoice: { id: string; totalAmountMinor: number }) => {
      const res = await post(reader.key, 'gwcPreparation', bodyFor(invoice));
      expect(res.status).toBe(200);
      expect(res.body.data.mode).toBe('enhanced');
      return res.body.preparation.id as string;
    };
    const verifiedId = await prepare(i1001);
    const reportedId = await prepare(i1001);
    const unconfirmedId = await prepare(i1003);
    const exceptionId = await prepare(i1003);

    const secret = newSecret();
    const endpoint = (await app.admin<any>('webhookEndpoints.create', { integrationId: reader.integrationId, signingSecret: secret })).body;
    const path = new URL(endpoint.url).pathname;
    const created = Math.floor(Date.now() / 1000) - 120;
    const succeeded = (pi: string, amount: number, preparationId: string) =>
      gwcEvent(
        'payment_intent.succeeded',
        paymentIntent({ id: pi, amount, amount_received: amount, status: 'succeeded', metadata: { svc_preparation_id: preparationId } }),
        { created },
      );

    // verified, then partly refunded by the provider's own refund event.
    w.pi = { verified: newPaymentIntentId(), exception: newPaymentIntentId(), ordinary: newPaymentIntentId() };
    const t = w.totals.t1001;
    expect((await deliverGwc(app, path, signed(secret, succeeded(w.pi.verified, t, verifiedId)))).body).toMatchObject({
      status: 'captured',
    });
    const refunded = gwcEvent(
      'charge.refunded',
      charge(w.pi.verified, { amount: t, amount_captured: t, amount_refunded: 300, refunded: false }),
      {
        created: created + 30,
      },
    );
    expect((await deliverGwc(app, path, signed(secret, refunded))).body).toMatchObject({ status: 'partially_refunded' });

    // exception: a verified capture of another amount than the preparation's.
    const e = w.totals.t1003 - 1;
    expect((await deliverGwc(app, path, signed(secret, succeeded(w.pi.exception, e, exceptionId)))).body).toMatchObject({
      status: 'captured',
    });

    // ordinary: captured and verified, still not eligible.
    const o = w.totals.t1002;
    const ordinaryId = ordinary.body.preparation.id as string;
    expect((await deliverGwc(app, path, signed(secret, succeeded(w.pi.ordinary, o, ordinaryId)))).body).toMatchObject({
      status: 'captured',
    });

    // reported_only: the merchant's word alone (naming the preparation in capitals, which still names it).
    const gwcPayments = await paymentsKey(reader.integrationId);
    const report = gwcReport({ enrichmentRequestId: reportedId.toUpperCase(), amountMinor: t, capturedAmountMinor: t });
    expect((await app.request('/api/v1/gwc/payment-reports', { method: 'POST', key: gwcPayments, json: report })).status).toBe(200);

    // gwb: merchant reports only, so a captured gwb payment is reported_only at best.
    const gwb = await linkedProvider(app, reader.ledger, 'gwb');
    const gwbPrepared = await post(gwb.key, 'gwb', bodyFor(i1001));
    expect(gwbPrepared.status).toBe(200);
    const gwbReportBody = gwbReport({ enrichmentRequestId: gwbPrepared.body.preparation.id, amountMinor: t, capturedAmountMinor: t });
    const gwbRes = await app.request('/api/v1/gwb/payment-reports', {
      method: 'POST',
      key: await paymentsKey(gwb.integrationId),
      json: gwbReportBody,
    });
    expect(gwbRes.status).toBe(200);

    // gwa: the merchant reports the authorization naming the preparation; the provider's signed settlement captures it.
    const gwa = await linkedProvider(app, reader.ledger, 'gwa');
    const gwaPrepared = await post(gwa.key, 'gwa', bodyFor(i1001));
    expect(gwaPrepared.status, JSON.stringify(gwaPrepared.body)).toBe(200);
    const txn = `t${randomUUID().replace(/-/g, '').slice(0, 9)}`;
    const authorized = gwaReport({
      status: 'authorized',
      amountMinor: t,
      capturedAmountMinor: 0,
      transactionId: txn,
      enrichmentRequestId: gwaPrepared.body.preparation.id,
      occurredAt: new Date(Date.now() - 60_000).toISOString(),
    });
    const gwaRes = await app.request('/api/v1/gwa/payment-reports', {
      method: 'POST',
      key: await paymentsKey(gwa.integrationId),
      json: authorized,
    });
    expect(gwaRes.status).toBe(200);
    const keys = newKeys();
    const gwaEndpoint = (await app.admin<any>('webhookEndpoints.create', { integrationId: gwa.integrationId, ...keys })).body;
    const settled = await deliver(app, new URL(gwaEndpoint.url).pathname, settledFor(keys, txn, t));
    expect(settled.body).toMatchObject({ status: 'captured' });

    // Month boundary: two copies of an unconfirmed preparation saved either side of midnight UTC, 1 February 2026 (the
    // service stamps its own clock, so they are written directly; preparations are append-only, inserts are allowed).
    const columns = (
      await sql(`select column_name from information_schema.columns where table_name = 'preparations' order by ordinal_position`)
    ).map((c) => c.column_name as string);
    const copy = async (createdAt: string) => {
      const id = randomUUID();
      const values = columns.map((c) =>
        c === 'id' ? '?::uuid' : c === 'idempotency_key' ? '?' : c === 'created_at' ? '?::timestamptz' : `"${c}"`,
      );
      const params = columns.flatMap((c) =>
        c === 'id' ? [id] : c === 'idempotency_key' ? [`copy-${id}`] : c === 'created_at' ? [createdAt] : [],
      );
      await sql(
        `insert into preparations (${columns.map((c) => `"${c}"`).join(', ')}) select ${values.join(', ')} from preparations where id = ?`,
        [...params, unconfirmedId],
      );
      return id;
    };
    w.janEnd = await copy('2026-01-31T23:59:59.999Z');
    w.febStart = await copy('2026-02-01T00:00:00.000Z');

    w.gwbIntegrationId = gwb.integrationId;
    w.gwaIntegrationId = gwa.integrationId;
    w.ids = {
      verified: verifiedId,
      reported: reportedId,
      unconfirmed: unconfirmedId,
      exception: exceptionId,
      ordinary: ordinaryId,
      gwb: gwbPrepared.body.preparation.id,
      gwa: gwaPrepared.body.preparation.id,
    };
  }, 120_000);

  it('when each chain is listed, then each preparation has its state: verified, reported_only, unconfirmed, exception (over a verified capture), ordinary', async () => {
    const res = await app.admin<any>('evidence.list', { integrationId: w.gwc.integrationId, ...thisMonth });
    expect(res.status).toBe(200);
    const states = Object.fromEntries(res.body.rows.map((r: any) => [r.preparationId, r.state]));
    expect(states).toEqual({
      [w.ids.ordinary]: 'ordinary',
      [w.ids.verified]: 'verified',
      [w.ids.reported]: 'reported_only',
      [w.ids.unconfirmed]: 'unconfirmed',
      [w.ids.exception]: 'exception',
    });
    expect(res.body.nextCursor).toBeNull();
    const byId = new Map(res.body.rows.map((r: any) => [r.preparationId, r]));

    const [payment] = await sql(`select id, attempt_id from tracked_payments where provider_payment_id = ?`, [w.pi.verified]);
    const [capture] = await sql(
      `select id, event_id, occurred_at from payment_observations where tracked_payment_id = ? and evidence = 'provider_verified' and status = 'captured'`,
      [payment.id],
    );
    const [prep] = await sql(
      `select p.snapshot_id, p.revision, p.stored_invoice_id, p.created_at, p.qualification_level, s.invoice_number, s.ledger_invoice_id from preparations p join stored_invoices s on s.id = p.stored_invoice_id where p.id = ?`,
      [w.ids.verified],
    );
    const t = w.totals.t1001;
    expect(byId.get(w.ids.verified)).toEqual({
      preparationId: w.ids.verified,
      organizationId: w.gwc.ledger.organizationId,
      integrationId: w.gwc.integrationId,
      environment: 'sandbox',
      provider: 'gwc',
      createdAt: new Date(prep.created_at).toISOString(),
      month: MONTH,
      state: 'verified',
      ageHours: null,
      mode: 'enhanced',
      invoice: { id: prep.stored_invoice_id, ledgerInvoiceId: '1001', number: prep.invoice_number },
      snapshotId: prep.snapshot_id,
      revision: prep.revision,
      qualificationLevel: 'partial',
      amountMinor: t,
      currency: 'usd',
      payment: {
        id: payment.id,
        attemptId: payment.attempt_id,
        providerPaymentId: w.pi.verified,
        status: 'partially_refunded',
        amountMinor: t,
        currency: 'usd',
      },
      evidence: {
        source: 'provider_verified',
        observationId: capture.id,
        eventId: capture.event_id,
        at: new Date(capture.occurred_at).toISOString(),
      },
      capturedAmountMinor: t,
      refundedAmountMinor: 300,
      netAmountMinor: t - 300,
      exceptions: [],
    });
    expect(byId.get(w.ids.reported)).toMatchObject({
      state: 'reported_only',
      evidence: { source: 'merchant_report' },
      capturedAmountMinor: t,
      refundedAmountMinor: 0,
      netAmountMinor: t,
    });
    expect(byId.get(w.ids.unconfirmed)).toMatchObject({
      state: 'unconfirmed',
      ageHours: 0,
      payment: null,
      evidence: null,
      netAmountMinor: 0,
    });
    const e = w.totals.t1003 - 1;
    expect(byId.get(w.ids.exception)).toMatchObject({
      state: 'exception',
      evidence: { source: 'provider_verified' },
      netAmountMinor: e,
      exceptions: [
        {
          kind: 'amount_mismatch',
          expected: String(w.totals.t1003),
          observed: String(e),
          observationId: expect.any(String),
          at: expect.any(String),
        },
      ],
    });
    expect(byId.get(w.ids.ordinary)).toMatchObject({
      state: 'ordinary',
      mode: 'ordinary',
      evidence: { source: 'provider_verified' },
      netAmountMinor: w.totals.t1002,
    });
  });

  it('when gwa is settled by its signed webhook, then verified; when gwb is captured per merchant report, then reported_only', async () => {
    const gwa = await app.admin<any>('evidence.list', { integrationId: w.gwaIntegrationId, ...thisMonth });
    expect(gwa.body.rows.map((r: any) => [r.preparationId, r.state, r.evidence.source, r.netAmountMinor])).toEqual([
      [w.ids.gwa, 'verified', 'provider_verified', w.totals.t1001],
    ]);
    const gwb = await app.admin<any>('evidence.list', { integrationId: w.gwbIntegrationId, ...thisMonth });
    expect(gwb.body.rows.map((r: any) => [r.preparationId, r.state, r.evidence.source, r.netAmountMinor])).toEqual([
      [w.ids.gwb, 'reported_only', 'merchant_report', w.totals.t1001],
    ]);
  });

  it('when summarized for the organization, then per integration, month and currency: counts and net volumes by state, and the exact verified share', async () => {
    const res = await app.admin<any>('evidence.summary', { organizationId: w.gwc.ledger.organizationId, ...thisMonth });
    expect(res.status).toBe(200);
    const t = w.totals.t1001;
    const e = w.totals.t1003 - 1;
    const o = w.totals.t1002;
    const zero = { count: 0, netMinor: '0' };
    const total = t - 300 + t + e + o;
    const expected = [
      {
        integrationId: w.gwc.integrationId,
        provider: 'gwc',
        month: MONTH,
        currency: 'usd',
        count: 5,
        netMinor: String(total),
        states: {
          verified: { count: 1, netMinor: String(t - 300) },
          reported_only: { count: 1, netMinor: String(t) },
          unconfirmed: { count: 1, netMinor: '0' },
          exception: { count: 1, netMinor: String(e) },
          ordinary: { count: 1, netMinor: String(o) },
        },
        verifiedShare: { numerator: String(t - 300), denominator: String(total), decimal: expect.stringMatching(/^0\.\d{4}$/) },
      },
      {
        integrationId: w.gwbIntegrationId,
        provider: 'gwb',
        month: MONTH,
        currency: 'usd',
        count: 1,
        netMinor: String(t),
        states: { verified: zero, reported_only: { count: 1, netMinor: String(t) }, unconfirmed: zero, exception: zero, ordinary: zero },
        verifiedShare: { numerator: '0', denominator: String(t), decimal: '0.0000' },
      },
      {
        integrationId: w.gwaIntegrationId,
        provider: 'gwa',
        month: MONTH,
        currency: 'usd',
        count: 1,
        netMinor: String(t),
        states: { verified: { count: 1, netMinor: String(t) }, reported_only: zero, unconfirmed: zero, exception: zero, ordinary: zero },
        verifiedShare: { numerator: String(t), denominator: String(t), decimal: '1.0000' },
      },
    ].sort((a, b) => (a.integrationId < b.integrationId ? -1 : 1));
    expect(res.body).toEqual({ from: thisMonth.from, to: thisMonth.to, timeZone: 'UTC', rows: expected });
    // The summary reads the projection; it holds exactly what the facts view computes now, for every preparation.
    const drift = await sql(
      `select count(*)::int as n from preparation_evidence e
         full join (select id, fact_key, captured_minor - refunded_minor as net, coalesce(payment_currency, currency) as currency,
                           to_char(created_at at time zone 'UTC', 'YYYY-MM') as month
                      from preparation_evidence_facts) f on f.id = e.preparation_id
        where e.fact_key is distinct from f.fact_key or e.net_minor is distinct from f.net
           or e.currency is distinct from f.currency or e.month is distinct from f.month`,
    );
    expect(drift).toEqual([{ n: 0 }]);
    expect((await sql(`select count(*)::int as n from preparation_evidence`))[0].n).toBe(9);
    const share = res.body.rows.find((r: any) => r.provider === 'gwc').verifiedShare.decimal;
    // Half up to 4 places, checked with integers.
    expect(BigInt(share.replace('.', ''))).toBe((BigInt(t - 300) * 20000n + BigInt(total)) / (2n * BigInt(total)));
  });

  it('when preparations are saved either side of midnight UTC at a month end, then each falls in its UTC month', async () => {
    const res = await app.admin<any>('evidence.summary', {
      integrationId: w.gwc.integrationId,
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-03-01T00:00:00.000Z',
    });
    expect(res.body.rows.map((r: any) => [r.month, r.count, r.states.unconfirmed.count])).toEqual([
      ['2026-01', 1, 1],
      ['2026-02', 1, 1],
    ]);
    // The range is half-open: `to` at February's first instant leaves it out; an offset is the same instant.
    const jan = await app.admin<any>('evidence.list', {
      integrationId: w.gwc.integrationId,
      from: '2026-01-01T00:00:00Z',
      to: '2026-02-01T01:00:00+01:00',
    });
    expect(jan.body.rows.map((r: any) => [r.preparationId, r.month, r.createdAt])).toEqual([
      [w.janEnd, '2026-01', '2026-01-31T23:59:59.999Z'],
    ]);
    const feb = await app.admin<any>('evidence.list', {
      integrationId: w.gwc.integrationId,
      from: '2026-02-01T00:00:00Z',
      to: '2026-03-01T00:00:00Z',
    });
    expect(feb.body.rows.map((r: any) => [r.preparationId, r.month])).toEqual([[w.febStart, '2026-02']]);
  });

  it('when listed by state and in pages, then only that state, keyset pages in saved order, and a cursor is bound to its filters', async () => {
    const all = await app.admin<any>('evidence.list', {
      organizationId: w.gwc.ledger.organizationId,
      from: '2026-01-01T00:00:00Z',
      to: thisMonth.to,
    });
    expect(all.body.rows).toHaveLength(9);
    const unconfirmed = await app.admin<any>('evidence.list', {
      organizationId: w.gwc.ledger.organizationId,
      from: '2026-01-01T00:00:00Z',
      to: thisMonth.to,
      state: 'unconfirmed',
    });
    expect(unconfirmed.body.rows.map((r: any) => r.preparationId)).toEqual([w.janEnd, w.febStart, w.ids.unconfirmed]);
    const paged: string[] = [];
    let cursor: string | undefined;
    const filters = { organizationId: w.gwc.ledger.organizationId, from: '2026-01-01T00:00:00Z', to: thisMonth.to };
    do {
      const page = await app.admin<any>('evidence.list', { ...filters, limit: 4, ...(cursor ? { cursor } : {}) });
      expect(page.status).toBe(200);
      paged.push(...page.body.rows.map((r: any) => r.preparationId));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(paged).toEqual(all.body.rows.map((r: any) => r.preparationId));
    const first = await app.admin<any>('evidence.list', { ...filters, limit: 1 });
    const misused = await app.admin<any>('evidence.list', { ...filters, state: 'verified', cursor: first.body.nextCursor });
    expect(misused.status).toBe(400);
    expect(misused.body.error.data.issues).toEqual([{ code: 'invalid_cursor', path: 'cursor', message: expect.any(String) }]);
    const backwards = await app.admin<any>('evidence.list', { from: thisMonth.to, to: thisMonth.from });
    expect(backwards.status).toBe(400);
    const yearZero = await app.admin<any>('evidence.summary', { from: '0000-01-01T00:00:00Z', to: thisMonth.to });
    expect(yearZero.status).toBe(400);
    expect(yearZero.body.error.data.issues.map((i: any) => i.path)).toEqual(['from']);
  });

  it('when listed by qualification level, then only the preparations whose output had that level when saved, the level on each row', async () => {
    const saved = await sql(
      `select id, qualification_level from preparations where integration_id = ? and created_at >= ? and created_at < ?`,
      [w.gwc.integrationId, thisMonth.from, thisMonth.to],
    );
    const levels = new Set(saved.map((r: any) => r.qualification_level ?? 'not_assessed'));
    // The filter must have something to leave out.
    expect(levels.size).toBeGreaterThanOrEqual(2);
    for (const level of ['product_3', 'partial', 'none', 'not_assessed'] as const) {
      const res = await app.admin<any>('evidence.list', { integrationId: w.gwc.integrationId, ...thisMonth, level, limit: 200 });
      expect(res.status).toBe(200);
      const expected = saved.filter((r: any) => (r.qualification_level ?? 'not_assessed') === level).map((r: any) => r.id);
      expect(res.body.rows.map((r: any) => r.preparationId).sort()).toEqual(expected.sort());
      for (const row of res.body.rows) expect(row.qualificationLevel).toBe(level === 'not_assessed' ? null : level);
    }
    const wrong = await app.admin<any>('evidence.list', { integrationId: w.gwc.integrationId, ...thisMonth, level: 'level_3' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.data.issues.map((i: any) => i.path)).toEqual(['level']);
  });

  it('when exported, then the CSV streams the same rows as the list, RFC 4180 with a header in a stable order, read back by a CSV parser', async () => {
    const filters = { organizationId: w.gwc.ledger.organizationId, from: '2026-01-01T00:00:00.000Z', to: thisMonth.to };
    const where = await app.admin<any>('evidence.export', filters);
    expect(where.status).toBe(200);
    expect(where.body).toEqual({
      method: 'GET',
      path: `/admin/evidence/export.csv?${new URLSearchParams(filters).toString()}`,
      contentType: 'text/csv; charset=utf-8',
      columns: [...EVIDENCE_CSV_COLUMNS],
    });
    const res = await fetch(`${app.url}${where.body.path}`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="evidence-2026-01-01-${thisMonth.to.slice(0, 10)}.csv"`);
    const { header, rows } = csvObjects(await res.text());
    expect(header).toEqual([...EVIDENCE_CSV_COLUMNS]);
    const list = await app.admin<any>('evidence.list', { ...filters, limit: 200 });
    expect(rows).toEqual(
      list.body.rows.map((r: any) => Object.fromEntries(EVIDENCE_CSV_COLUMNS.map((c, k) => [c, String(csvValues(r)[k] ?? '')]))),
    );
    const verified = rows.find((r) => r.preparation_id === w.ids.verified)!;
    expect(verified).toMatchObject({
      state: 'verified',
      evidence_source: 'provider_verified',
      amount_minor: String(w.totals.t1001),
      captured_amount_minor: String(w.totals.t1001),
      refunded_amount_minor: '300',
      net_amount_minor: String(w.totals.t1001 - 300),
      payment_currency: 'usd',
      provider_payment_id: w.pi.verified,
      age_hours: '',
      exceptions: '',
    });
    const exception = rows.find((r) => r.preparation_id === w.ids.exception)!;
    expect(exception).toMatchObject({ exception_count: '1', exceptions: `amount_mismatch:${w.totals.t1003}>${w.totals.t1003 - 1}` });

    // A download names what exists: an unknown integration is a 404, not an empty file.
    const unknown = { ...filters, integrationId: randomUUID() };
    expect((await app.admin<any>('evidence.export', unknown)).status).toBe(404);
    const unknownCsv = await fetch(`${app.url}/admin/evidence/export.csv?${new URLSearchParams(unknown).toString()}`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(unknownCsv.status).toBe(404);

    const anonymous = await fetch(`${app.url}${where.body.path}`);
    expect(anonymous.status).toBe(401);
    const invalid = await fetch(`${app.url}/admin/evidence/export.csv?from=yesterday&to=${thisMonth.to}`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as any).error.issues.map((i: any) => i.path)).toEqual(['from']);
  });
});
