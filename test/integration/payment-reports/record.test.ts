import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../../support/harness.js';
import { adminCall, createTenant, type Tenant } from '../../support/tenants.js';
import { reportFor } from '../../support/reports.js';

type P = 'gwa' | 'gwb' | 'gwc';
const post = (app: TestApp, t: Tenant, body: unknown) =>
  app.request(`/api/v1/${t.provider}/payment-reports`, { method: 'POST', json: body, key: t.key });
const sql = (app: TestApp, query: string) => app.orm.em.getConnection().execute(query);
const at = (minute: number) => new Date(Date.UTC(2026, 0, 10, 10, minute)).toISOString();

describe('payment reports over HTTP', () => {
  const app = useTestApp();
  const tenant = (provider: P) => createTenant(app, { provider, scopes: ['payments:write'] });

  it.each(['gwa', 'gwb', 'gwc'] as const)(
    'P1/D1: when a %s report is retried identically, then the first id comes back with duplicate: true',
    async (provider) => {
      const t = await tenant(provider);
      const report = reportFor[provider]();
      const first = await post(app, t, report);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        object: `${provider}.payment_report`,
        api_version: 'v1',
        data: { id: first.body.data.id, duplicate: false },
      });
      // The same instant written differently is the same report.
      const again = await post(app, t, { ...report, occurredAt: '2026-01-10T12:00:00+02:00' });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({
        object: `${provider}.payment_report`,
        api_version: 'v1',
        data: { id: first.body.data.id, duplicate: true },
      });
      expect(await sql(app, `select count(*)::int as n from payment_observations where integration_id = '${t.integrationId}'`)).toEqual([
        { n: 1 },
      ]);
    },
  );

  it('D2: when an eventId comes back with a different payload, then 409 event_id_reused and nothing changes', async () => {
    const t = await tenant('gwb');
    const report = reportFor.gwb();
    await post(app, t, report);
    const res = await post(app, t, { ...report, amountMinor: 2000, capturedAmountMinor: 2000 });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: {
        type: 'conflict',
        message: 'This eventId was already used for a different report',
        issues: [
          {
            code: 'event_id_reused',
            path: 'eventId',
            message: 'An eventId is reused only for identical retries; send a new eventId for a new observation',
          },
        ],
      },
    });
    expect(await sql(app, `select amount_minor::int as a from tracked_payments where integration_id = '${t.integrationId}'`)).toEqual([
      { a: 1000 },
    ]);
  });

  it('D3: when 100 identical reports arrive at once, then one observation is stored, one duplicate:false and 99 duplicate:true', async () => {
    const t = await tenant('gwc');
    const report = reportFor.gwc();
    const results = await Promise.all(Array.from({ length: 100 }, () => post(app, t, report)));
    expect(results.map((r) => r.status)).toEqual(Array(100).fill(200));
    const ids = new Set(results.map((r) => r.body.data.id));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.body.data.duplicate === false)).toHaveLength(1);
    expect(await sql(app, `select count(*)::int as n from payment_observations where integration_id = '${t.integrationId}'`)).toEqual([
      { n: 1 },
    ]);
    expect(await sql(app, `select observation_count from tracked_payments where integration_id = '${t.integrationId}'`)).toEqual([
      { observation_count: 1 },
    ]);
  });

  it('when 50 distinct events of one attempt arrive at once, then the projection equals the newest valid state', async () => {
    const t = await tenant('gwb');
    const attemptId = `att_${randomUUID()}`;
    const reports = Array.from({ length: 50 }, (_, i) =>
      reportFor.gwb({
        attemptId,
        status: i === 0 ? 'captured' : 'partially_refunded',
        amountMinor: 10_000,
        capturedAmountMinor: 10_000,
        refundedAmountMinor: i * 10,
        occurredAt: new Date(Date.UTC(2026, 0, 10, 10, 0, i)).toISOString(),
      }),
    );
    const results = await Promise.all(reports.map((r) => post(app, t, r)));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const [payment] = await sql(
      app,
      `select status, refunded_amount_minor::int as r, observation_count from tracked_payments where attempt_id = '${attemptId}'`,
    );
    expect(payment).toEqual({ status: 'partially_refunded', r: 490, observation_count: 50 });
  });

  it.each(['gwa', 'gwb'] as const)(
    'P8: when a %s capture-then-refund sequence arrives shuffled, then the projection equals the ordered one',
    async (provider) => {
      const sequence = (attemptId: string) => [
        reportFor[provider]({ eventId: `${attemptId}-1`, attemptId, status: 'authorized', capturedAmountMinor: 0, occurredAt: at(1) }),
        reportFor[provider]({ eventId: `${attemptId}-2`, attemptId, status: 'captured', occurredAt: at(2) }),
        reportFor[provider]({
          eventId: `${attemptId}-3`,
          attemptId,
          status: 'partially_refunded',
          refundedAmountMinor: 250,
          occurredAt: at(3),
        }),
        reportFor[provider]({ eventId: `${attemptId}-4`, attemptId, status: 'refunded', refundedAmountMinor: 1000, occurredAt: at(4) }),
      ];
      const t = await tenant(provider);
      const ordered = `ordered_${randomUUID()}`;
      const shuffled = `shuffled_${randomUUID()}`;
      for (const r of sequence(ordered)) expect((await post(app, t, r)).status).toBe(200);
      for (const r of [3, 0, 2, 1].map((i) => sequence(shuffled)[i]!)) expect((await post(app, t, r)).status).toBe(200);
      const rows = await sql(
        app,
        `select attempt_id, status, captured_amount_minor::int as c, refunded_amount_minor::int as r, occurred_at = '${at(4)}'::timestamptz as last
          from tracked_payments where attempt_id in ('${ordered}', '${shuffled}') order by attempt_id`,
      );
      expect(rows.map(({ attempt_id: _a, ...rest }: any) => rest)).toEqual([
        { status: 'refunded', c: 1000, r: 1000, last: true },
        { status: 'refunded', c: 1000, r: 1000, last: true },
      ]);
    },
  );

  it('P3/P4/P5: when an older report arrives for gwb or gwa, then it is history only and the receipt still acknowledges it', async () => {
    for (const provider of ['gwb', 'gwa'] as const) {
      const t = await tenant(provider);
      const attemptId = `att_${randomUUID()}`;
      const captured = await post(app, t, reportFor[provider]({ attemptId, status: 'captured', occurredAt: at(5) }));
      expect(captured.status).toBe(200);
      const late = await post(app, t, reportFor[provider]({ attemptId, status: 'authorized', capturedAmountMinor: 0, occurredAt: at(1) }));
      expect(late.status).toBe(200);
      expect(late.body.data.duplicate).toBe(false);
      const rows = await sql(app, `select status, observation_count from tracked_payments where attempt_id = '${attemptId}'`);
      const obs = await sql(
        app,
        `select event_id, status, tracked_payment_id, occurred_at::text from payment_observations where attempt_id = '${attemptId}'`,
      );
      expect({ provider, rows, obs: obs.length }).toEqual({ provider, rows: [{ status: 'captured', observation_count: 2 }], obs: 2 });
    }
  });

  it('C5/C6: when a gwc report lowers a cumulative amount or goes back in time, then 409 and nothing changes', async () => {
    const t = await tenant('gwc');
    const attemptId = `att_${randomUUID()}`;
    await post(app, t, reportFor.gwc({ attemptId, status: 'partially_refunded', refundedAmountMinor: 300, occurredAt: at(5) }));
    const lower = await post(app, t, reportFor.gwc({ attemptId, status: 'captured', occurredAt: at(6) }));
    expect(lower.status).toBe(409);
    expect(lower.body.error.issues).toEqual([
      { code: 'cumulative_amount_decreased', path: 'refundedAmountMinor', message: 'The cumulative refunded amount cannot go down' },
    ]);
    const older = await post(
      app,
      t,
      reportFor.gwc({ attemptId, status: 'partially_refunded', refundedAmountMinor: 400, occurredAt: at(4) }),
    );
    expect(older.status).toBe(409);
    expect(older.body.error.issues[0].code).toBe('observation_time_backward');
    expect(await sql(app, `select count(*)::int as n from payment_observations where attempt_id = '${attemptId}'`)).toEqual([{ n: 1 }]);
  });

  it('C1/C2/C3/C4: when aliases conflict, then 409 with the cause', async () => {
    const t = await tenant('gwc');
    const attemptId = `att_${randomUUID()}`;
    await post(app, t, reportFor.gwc({ attemptId, paymentIntentId: 'pi_A1', gwcAccountId: 'acct_1', occurredAt: at(1) }));
    const currency = await post(app, t, reportFor.gwc({ attemptId, currency: 'eur', occurredAt: at(2) }));
    expect(currency.status).toBe(409);
    expect(currency.body.error.issues[0].code).toBe('currency_conflict');
    const intent = await post(app, t, reportFor.gwc({ attemptId, paymentIntentId: 'pi_B2', occurredAt: at(2) }));
    expect(intent.body.error.issues).toEqual([
      { code: 'identity_conflict', path: 'paymentIntentId', message: 'This attempt is already linked to another provider payment' },
    ]);
    const account = await post(app, t, reportFor.gwc({ attemptId, gwcAccountId: 'acct_2', occurredAt: at(2) }));
    expect(account.body.error.issues[0].code).toBe('account_conflict');
    const otherAttempt = await post(app, t, reportFor.gwc({ paymentIntentId: 'pi_A1', occurredAt: at(2) }));
    expect(otherAttempt.status).toBe(409);
    expect(otherAttempt.body.error.issues[0]).toEqual({
      code: 'identity_conflict',
      path: 'providerPaymentId',
      message: 'This provider payment is already reported under another attemptId',
    });
  });

  it('C7/C8: when gwa amounts conflict with earlier reports, then 409', async () => {
    const t = await tenant('gwa');
    const attemptId = `att_${randomUUID()}`;
    await post(app, t, reportFor.gwa({ attemptId, occurredAt: at(5) }));
    const amount = await post(app, t, reportFor.gwa({ attemptId, amountMinor: 1200, capturedAmountMinor: 1000, occurredAt: at(6) }));
    expect(amount.status).toBe(409);
    expect(amount.body.error.issues.map((i: any) => i.code)).toEqual(['amount_conflict']);
    const lower = await post(app, t, reportFor.gwa({ attemptId, status: 'unknown', capturedAmountMinor: 0, occurredAt: at(7) }));
    expect(lower.status).toBe(409);
    expect(lower.body.error.issues.map((i: any) => i.code)).toEqual(['cumulative_amount_conflict']);
  });

  it('P6/P7: when the identity arrives later, then it links; two gwb payments of one order stay apart', async () => {
    const t = await tenant('gwb');
    const attemptId = `att_${randomUUID()}`;
    await post(app, t, reportFor.gwb({ attemptId, status: 'authorized', capturedAmountMinor: 0, occurredAt: at(1) }));
    await post(app, t, reportFor.gwb({ attemptId, paymentId: 'PAY1', orderId: 'ORDER1', occurredAt: at(2) }));
    await post(app, t, reportFor.gwb({ paymentId: 'PAY2', orderId: 'ORDER1', occurredAt: at(2) }));
    const rows = await sql(
      app,
      `select attempt_id, provider_payment_id, order_id, observation_count from tracked_payments where order_id = 'ORDER1' order by provider_payment_id`,
    );
    expect(rows.map((r: any) => [r.provider_payment_id, r.observation_count])).toEqual([
      ['PAY1', 2],
      ['PAY2', 1],
    ]);
    expect(rows[0]!.attempt_id).toBe(attemptId);
  });

  it('V9/V11/V12: when a report breaks the contract, then 400 per problem; over 16 KiB, then 413', async () => {
    const gwa = await tenant('gwa');
    const res = await post(
      app,
      gwa,
      reportFor.gwa({ status: 'requires_action', source: 'sdk', transactionId: 'ABC', errorCode: 'Declined', merchantAccountId: null }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.issues.map((i: any) => `${i.code}@${i.path}`).sort()).toEqual(
      [
        'invalid_enum_value@status',
        'invalid_enum_value@source',
        'invalid_string@transactionId',
        'invalid_string@errorCode',
        'invalid_type@merchantAccountId',
      ].sort(),
    );
    const gwc = await tenant('gwc');
    const ids = await post(
      app,
      gwc,
      reportFor.gwc({ paymentIntentId: 'ch_123', chargeId: 'ch_12-3', gwcAccountId: 'acct_', eventId: '', attemptId: 'a\u0007' }),
    );
    expect(ids.body.error.issues.map((i: any) => i.path).sort()).toEqual([
      'attemptId',
      'chargeId',
      'eventId',
      'gwcAccountId',
      'paymentIntentId',
    ]);
    const big = await post(
      app,
      gwc,
      reportFor.gwc({ invoiceReference: 'x'.repeat(160), providerEventId: 'y'.repeat(160), padding: 'z'.repeat(17 * 1024) }),
    );
    expect(big.status).toBe(413);
    expect(big.body).toEqual({
      error: { type: 'payload_too_large', message: 'The request body exceeds the limit of 16384 bytes for this endpoint', issues: [] },
    });
  });

  it('V1–V8: when the amounts contradict the status or the time is ahead, then 400 with paths', async () => {
    const t = await tenant('gwb');
    const res = await post(
      app,
      t,
      reportFor.gwb({
        status: 'refunded',
        capturedAmountMinor: 1200,
        refundedAmountMinor: 100,
        occurredAt: new Date(Date.now() + 6 * 60_000).toISOString(),
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.issues.map((i: any) => `${i.code}@${i.path}`)).toEqual([
      'amount_invariant@capturedAmountMinor',
      'status_amount_mismatch@refundedAmountMinor',
      'occurred_at_in_future@occurredAt',
    ]);
  });

  it('X1/X2/X3: when a report differs from its inline enrichment, then it is accepted and exceptions are recorded', async () => {
    const t = await tenant('gwc');
    const requestId = `req_${randomUUID().replace(/-/g, '')}`; // any such id passes the card-data guard
    await sql(
      app,
      `insert into enrichment_records (id, request_id, organization_id, integration_id, environment, provider, amount_minor, currency, invoice_number, created_at)
       values (gen_random_uuid(), '${requestId}', '${t.organizationId}', '${t.integrationId}', 'sandbox', 'gwc', 1500, 'eur', 'INV-9', now())`,
    );
    const res = await post(app, t, reportFor.gwc({ enrichmentRequestId: requestId }));
    expect(res.status).toBe(200);
    const listed = await adminCall<any>(app, 'correlationExceptions.list', { organizationId: t.organizationId });
    expect(listed.nextCursor).toBeNull();
    expect(listed.correlationExceptions.map((x: any) => [x.kind, x.expected, x.observed, x.observationId]).sort()).toEqual([
      ['amount_mismatch', '1500', '1000', res.body.data.id],
      ['currency_mismatch', 'eur', 'usd', res.body.data.id],
    ]);
    const amountOnly = await adminCall<any>(app, 'correlationExceptions.list', {
      organizationId: t.organizationId,
      kind: 'currency_mismatch',
    });
    expect(amountOnly.correlationExceptions).toHaveLength(1);
    const unknownUuid = await post(app, t, reportFor.gwc({ enrichmentRequestId: randomUUID() }));
    expect(unknownUuid.status).toBe(400);
    expect(unknownUuid.body.error.issues[0].code).toBe('enrichment_reference_not_found');
  });

  it('when an operator reads payments, then the projection comes with its full history, paginated by cursor', async () => {
    const t = await tenant('gwc');
    const attemptId = `att_${randomUUID()}`;
    const first = await post(app, t, reportFor.gwc({ attemptId, occurredAt: at(1) }));
    const second = await post(
      app,
      t,
      reportFor.gwc({ attemptId, status: 'partially_refunded', refundedAmountMinor: 100, occurredAt: at(2) }),
    );
    for (let i = 0; i < 2; i++) await post(app, t, reportFor.gwc({ occurredAt: at(3) }));
    const page1 = await adminCall<any>(app, 'payments.list', { integrationId: t.integrationId, limit: 2 });
    expect(page1.payments).toHaveLength(2);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const page2 = await adminCall<any>(app, 'payments.list', { integrationId: t.integrationId, limit: 2, cursor: page1.nextCursor });
    expect(page2.payments).toHaveLength(1);
    expect(page2.nextCursor).toBeNull();
    const all = [...page1.payments, ...page2.payments];
    expect(new Set(all.map((p: any) => p.id)).size).toBe(3);
    const payment = all.find((p: any) => p.attemptId === attemptId);
    const detail = await adminCall<any>(app, 'payments.get', { id: payment.id });
    expect(detail.payment).toMatchObject({
      status: 'partially_refunded',
      capturedAmountMinor: 1000,
      refundedAmountMinor: 100,
      observationCount: 2,
    });
    expect(detail.observations.map((o: any) => [o.id, o.status, o.current])).toEqual([
      [first.body.data.id, 'captured', false],
      [second.body.data.id, 'partially_refunded', true],
    ]);
    const filtered = await adminCall<any>(app, 'payments.list', { integrationId: t.integrationId, status: 'partially_refunded' });
    expect(filtered.payments.map((p: any) => p.attemptId)).toEqual([attemptId]);
    expect((await app.admin('payments.list', { cursor: '!!' })).status).toBe(400);
  });

  it('when an operator sends a tampered cursor, then 400 invalid_cursor, never a database error', async () => {
    const forge = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
    for (const cursor of [
      forge('2026-01-01T00:00:00.000Z|not-a-uuid'),
      forge(`2026-13-45T00:00:00.000Z|${randomUUID()}`),
      forge(`x|${randomUUID()}|y`),
    ]) {
      for (const procedure of ['payments.list', 'correlationExceptions.list']) {
        const res = await app.admin<any>(procedure, { cursor });
        expect(res.status).toBe(400);
        expect(res.body.error.data.issues).toEqual([
          { code: 'invalid_cursor', path: 'cursor', message: 'Use the nextCursor of the previous page unchanged' },
        ]);
      }
    }
  });

  it('when reports are accepted, then earlier observation rows stay byte-for-byte the same', async () => {
    const t = await tenant('gwc');
    const attemptId = `att_${randomUUID()}`;
    await post(app, t, reportFor.gwc({ attemptId, occurredAt: at(1) }));
    const snapshot = await sql(app, `select * from payment_observations where attempt_id = '${attemptId}'`);
    await post(app, t, reportFor.gwc({ attemptId, status: 'refunded', refundedAmountMinor: 1000, occurredAt: at(2) }));
    await post(app, t, reportFor.gwc({ attemptId, status: 'captured', occurredAt: at(3) }));
    const after = await sql(app, `select * from payment_observations where attempt_id = '${attemptId}' order by occurred_at`);
    expect(after[0]).toEqual(snapshot[0]);
    expect(after).toHaveLength(2);
  });
});
