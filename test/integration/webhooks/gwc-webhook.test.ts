import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { until } from '../../support/until.js';
import { useTestApp, type TestApp } from '../../support/harness.js';
import { adminCall, createTenant, type Tenant } from '../../support/tenants.js';
import { gwcReport } from '../../support/reports.js';
import { charge, deliverGwc, gwcEvent, newPaymentIntentId, newSecret, paymentIntent, signed } from '../../support/gwc-webhooks.js';
import { newKeys } from '../../support/gwa-webhooks.js';
import { poolDatabase } from '../../../server/persistence/kysely.js';
import { webhooksStore } from '../../../server/persistence/stores/webhooks-store.js';
import { KeyTaken } from '../../../server/domain/idempotency/idempotent-write.js';
import { groupCommittedDeliveries } from '../../../server/persistence/delivery-group-commit.js';
import { recordingDatabase } from '../../support/recording-database.js';

const sql = <T = any>(app: TestApp, query: string, params: unknown[] = []) =>
  app.orm.em.getConnection().execute(query, params) as Promise<T[]>;

interface Endpoint {
  id: string;
  provider: string;
  integrationId: string;
  url: string;
  status: string;
  hasCredentials: boolean;
  recommendedEventTypes: string[];
  credentialsUpdatedAt: string | null;
}

const RECOMMENDED = [
  'payment_intent.succeeded',
  'payment_intent.amount_capturable_updated',
  'payment_intent.requires_action',
  'payment_intent.processing',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'charge.captured',
  'charge.refunded',
  'charge.refund.updated',
];

describe('gwc provider events (spec: Events 2)', () => {
  const app = useTestApp({ SVC_PUBLIC_URL: 'https://svc.example.test' });

  async function setup(options: { secret?: string | null; environment?: 'sandbox' | 'production' } = {}) {
    const tenant: Tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'], environment: options.environment });
    const secret = options.secret === undefined ? newSecret() : options.secret;
    const endpoint = await adminCall<Endpoint>(app, 'webhookEndpoints.create', {
      integrationId: tenant.integrationId,
      ...(secret ? { signingSecret: secret } : {}),
    });
    return { tenant, secret: secret!, endpoint, path: new URL(endpoint.url).pathname };
  }

  const issueOf = (res: { body: any }) => res.body.error.issues[0];
  const countEvents = async (endpointId: string) =>
    (await sql(app, 'select count(*)::int as n from webhook_events where endpoint_id = ?', [endpointId]))[0].n as number;

  it('when an operator registers a gwc endpoint and sets its signing secret, then the URL and recommended events are shown and the secret never is', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const created = await adminCall<Endpoint>(app, 'webhookEndpoints.create', { integrationId: tenant.integrationId });
    expect(created).toMatchObject({
      provider: 'gwc',
      integrationId: tenant.integrationId,
      url: `https://svc.example.test/api/integrations/gwc/webhooks/${created.id}`,
      status: 'active',
      hasCredentials: false,
      publicKey: null,
      recommendedEventTypes: RECOMMENDED,
      credentialsUpdatedAt: null,
      createdAt: expect.any(String),
    });
    const secret = newSecret();
    const withSecret = await app.admin<Endpoint>('webhookEndpoints.setCredentials', { id: created.id, signingSecret: secret });
    expect(withSecret.status).toBe(200);
    expect(withSecret.body).toMatchObject({ hasCredentials: true, credentialsUpdatedAt: expect.any(String) });
    const [stored] = await sql(app, 'select private_key_enc, public_key from webhook_endpoints where id = ?', [created.id]);
    expect(stored.public_key).toBeNull();
    expect(stored.private_key_enc).toMatch(/^v2\./);
    expect(stored.private_key_enc).not.toContain(secret.slice(6));
    const listed = await adminCall<any>(app, 'webhookEndpoints.list', { integrationId: tenant.integrationId });
    expect(listed.endpoints).toHaveLength(1);
    expect(listed.endpoints[0].delivery).toEqual({ lastDelivery: null, counts: {}, kinds: [], lastRefusal: null });
    for (const text of [JSON.stringify(withSecret.body), JSON.stringify(listed), app.logs.text])
      expect(text).not.toContain(secret.slice(6));

    // The gwa key pair is not a gwc credential, and the signing secret must look like one.
    const wrong = await app.admin<any>('webhookEndpoints.setCredentials', { id: created.id, ...newKeys() });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.issues ?? wrong.body).toBeDefined();
    expect(JSON.stringify(wrong.body)).toContain('credentials_not_for_provider');
    const malformed = await app.admin<any>('webhookEndpoints.setCredentials', { id: created.id, signingSecret: 'sk_test_123' });
    expect(malformed.status).toBe(400);
  });

  it('when an endpoint is registered for a gwb integration, then it is refused with integration_provider_unsupported', async () => {
    const gwb = await createTenant(app, { provider: 'gwb', scopes: ['payments:write'] });
    const res = await app.admin<any>('webhookEndpoints.create', { integrationId: gwb.integrationId, signingSecret: newSecret() });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('integration_provider_unsupported');
    expect(await sql(app, 'select count(*)::int as n from webhook_endpoints where integration_id = ?', [gwb.integrationId])).toEqual([
      { n: 0 },
    ]);
  });

  it('when a capture and a partial refund arrive as the provider signs them and the merchant reports the PaymentIntent later, then one payment is partially_refunded with provider-verified evidence and the report joins it', async () => {
    const { tenant, secret, endpoint, path } = await setup();
    const pi = newPaymentIntentId();
    const created = Math.floor(Date.now() / 1000) - 120;
    const succeeded = gwcEvent('payment_intent.succeeded', paymentIntent({ id: pi, status: 'succeeded', amount_received: 10000 }), {
      created,
    });
    const first = await deliverGwc(app, path, signed(secret, succeeded));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: true, kind: 'payment_intent.succeeded', status: 'captured', duplicate: false });
    const ch = charge(pi, { amount_refunded: 2500 });
    const refunded = await deliverGwc(app, path, signed(secret, gwcEvent('charge.refunded', ch, { created: created + 60 })));
    expect(refunded.body).toEqual({ received: true, kind: 'charge.refunded', status: 'partially_refunded', duplicate: false });

    const report = gwcReport({
      paymentIntentId: pi,
      status: 'captured',
      amountMinor: 10000,
      capturedAmountMinor: 10000,
      occurredAt: new Date((created + 1) * 1000).toISOString(),
    });
    const merchant = await app.request('/api/v1/gwc/payment-reports', { method: 'POST', json: report, key: tenant.key });
    expect(merchant.status).toBe(200);
    expect(merchant.body.data.duplicate).toBe(false);

    const payments = await sql(
      app,
      `select id, attempt_id, attempt_provisional, provider_payment_id, charge_id, status, amount_minor, captured_amount_minor, refunded_amount_minor, observation_count
         from tracked_payments where integration_id = ?`,
      [tenant.integrationId],
    );
    expect(payments).toEqual([
      {
        id: expect.any(String),
        attempt_id: report.attemptId,
        attempt_provisional: false,
        provider_payment_id: pi,
        charge_id: ch.id,
        status: 'partially_refunded',
        amount_minor: '10000',
        captured_amount_minor: '10000',
        refunded_amount_minor: '2500',
        observation_count: 3,
      },
    ]);
    const detail = await app.admin<any>('payments.get', { id: payments[0].id });
    expect(detail.body.observations.map((o: any) => [o.evidence, o.status, o.current])).toEqual([
      ['provider_verified', 'captured', false],
      ['merchant_report', 'captured', false],
      ['provider_verified', 'partially_refunded', true],
    ]);
    const refundEvent = await sql(app, "select provider_event_id from webhook_events where kind = 'charge.refunded' and endpoint_id = ?", [
      endpoint.id,
    ]);
    expect(detail.body.observations[2].payload).toMatchObject({
      eventId: `gwc_webhook_${refundEvent[0].provider_event_id}`,
      providerEventId: refundEvent[0].provider_event_id,
      paymentIntentId: pi,
      chargeId: ch.id,
      source: 'merchant_webhook',
    });
    const events = await sql(
      app,
      'select kind, status, subject_type, provider_event_id, observation_id is not null as observed, tracked_payment_id from webhook_events where endpoint_id = ? order by notification_at',
      [endpoint.id],
    );
    expect(events).toEqual([
      {
        kind: 'payment_intent.succeeded',
        status: 'captured',
        subject_type: 'payment_intent',
        provider_event_id: succeeded.id,
        observed: true,
        tracked_payment_id: payments[0].id,
      },
      {
        kind: 'charge.refunded',
        status: 'partially_refunded',
        subject_type: 'charge',
        provider_event_id: expect.stringMatching(/^evt_/),
        observed: true,
        tracked_payment_id: payments[0].id,
      },
    ]);
  });

  it.each([
    ['payment_intent.succeeded', { status: 'succeeded', amount_received: 10000 }, 'captured', [10000, 0]],
    ['payment_intent.amount_capturable_updated', { status: 'requires_capture', amount_capturable: 10000 }, 'authorized', [0, 0]],
    ['payment_intent.requires_action', { status: 'requires_action' }, 'requires_action', [0, 0]],
    ['payment_intent.processing', { status: 'processing' }, 'unknown', [0, 0]],
    ['payment_intent.payment_failed', { status: 'requires_payment_method' }, 'failed', [0, 0]],
    ['payment_intent.canceled', { status: 'canceled' }, 'canceled', [0, 0]],
  ] as const)('when %s arrives, then the payment is recorded as %s', async (type, fields, status, [captured, refunded]) => {
    const { tenant, secret, path } = await setup();
    const pi = newPaymentIntentId();
    const res = await deliverGwc(app, path, signed(secret, gwcEvent(type, paymentIntent({ id: pi, ...fields }))));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, kind: type, status, duplicate: false });
    const payments = await sql(
      app,
      'select attempt_id, attempt_provisional, status, captured_amount_minor, refunded_amount_minor from tracked_payments where integration_id = ?',
      [tenant.integrationId],
    );
    expect(payments).toEqual([
      {
        attempt_id: `gwc_payment_intent_${pi}`,
        attempt_provisional: true,
        status,
        captured_amount_minor: String(captured),
        refunded_amount_minor: String(refunded),
      },
    ]);
  });

  it.each([
    ['charge.captured', { amount_captured: 10000, amount_refunded: 0 }, 'captured', [10000, 0]],
    ['charge.refunded', { amount_captured: 10000, amount_refunded: 4000 }, 'partially_refunded', [10000, 4000]],
    ['charge.refunded', { amount_captured: 10000, amount_refunded: 10000, refunded: true }, 'refunded', [10000, 10000]],
    [
      'charge.refund.updated',
      { object: 'charge', amount_captured: 10000, amount_refunded: 10000, refunded: true },
      'refunded',
      [10000, 10000],
    ],
  ] as const)(
    'when %s arrives with a Charge, then its cumulative amounts make the payment %s',
    async (type, fields, status, [captured, refunded]) => {
      const { tenant, secret, path } = await setup();
      const pi = newPaymentIntentId();
      const res = await deliverGwc(app, path, signed(secret, gwcEvent(type, charge(pi, fields))));
      expect(res.body).toEqual({ received: true, kind: type, status, duplicate: false });
      expect(
        await sql(
          app,
          'select provider_payment_id, status, captured_amount_minor, refunded_amount_minor from tracked_payments where integration_id = ?',
          [tenant.integrationId],
        ),
      ).toEqual([{ provider_payment_id: pi, status, captured_amount_minor: String(captured), refunded_amount_minor: String(refunded) }]);
    },
  );

  it.each([
    ['customer.created', { id: 'cus_1', object: 'customer' }],
    ['charge.refund.updated', { id: 're_1', object: 'refund', amount: 100, charge: 'ch_1', payment_intent: 'pi_1', status: 'succeeded' }],
    [
      'charge.captured',
      { id: 'ch_1', object: 'charge', amount: 100, amount_captured: 100, amount_refunded: 0, currency: 'usd', payment_intent: null },
    ],
  ])('when a %s event without a usable payment effect arrives, then it is recorded as no_payment_effect', async (type, object) => {
    const { tenant, secret, endpoint, path } = await setup();
    const event = gwcEvent(type, object);
    const res = await deliverGwc(app, path, signed(secret, event));
    expect(res.body).toEqual({ received: true, kind: type, status: 'no_payment_effect', duplicate: false });
    expect(await sql(app, 'select status, provider_event_id from webhook_events where endpoint_id = ?', [endpoint.id])).toEqual([
      { status: 'no_payment_effect', provider_event_id: event.id },
    ]);
    expect(await sql(app, 'select count(*)::int as n from tracked_payments where integration_id = ?', [tenant.integrationId])).toEqual([
      { n: 0 },
    ]);
  });

  it("when an event contradicts the merchant's reports of its PaymentIntent (another currency), then it is recorded as rejected with the reasons", async () => {
    const { tenant, secret, endpoint, path } = await setup();
    const pi = newPaymentIntentId();
    const report = gwcReport({ paymentIntentId: pi, currency: 'eur', occurredAt: new Date(Date.now() - 120_000).toISOString() });
    expect((await app.request('/api/v1/gwc/payment-reports', { method: 'POST', json: report, key: tenant.key })).status).toBe(200);
    const event = gwcEvent('payment_intent.succeeded', paymentIntent({ id: pi, status: 'succeeded', amount_received: 10000 }));
    const res = await deliverGwc(app, path, signed(secret, event));
    expect(res.body).toEqual({ received: true, kind: 'payment_intent.succeeded', status: 'rejected', duplicate: false });
    expect(await sql(app, 'select status, issues, observation_id from webhook_events where endpoint_id = ?', [endpoint.id])).toEqual([
      {
        status: 'rejected',
        issues: [{ code: 'currency_conflict', path: 'currency', message: 'This attempt was reported in eur' }],
        observation_id: null,
      },
    ]);
    expect((await deliverGwc(app, path, signed(secret, event))).body).toMatchObject({ status: 'rejected', duplicate: true });
    expect(
      await sql(app, 'select status, observation_count from tracked_payments where integration_id = ?', [tenant.integrationId]),
    ).toEqual([{ status: 'captured', observation_count: 1 }]);
  });

  it('when different events of one new PaymentIntent arrive at once, then each is recorded once, all on one payment', async () => {
    const { tenant, secret, path } = await setup();
    const pi = newPaymentIntentId();
    const events = Array.from({ length: 6 }, () =>
      gwcEvent('payment_intent.succeeded', paymentIntent({ id: pi, status: 'succeeded', amount_received: 10000 })),
    );
    const answers = await Promise.all(events.map((event) => deliverGwc(app, path, signed(secret, event))));
    expect(answers.map((a) => [a.status, a.body.duplicate])).toEqual(events.map(() => [200, false]));
    const payments = await sql(app, 'select id, status, observation_count from tracked_payments where integration_id = ?', [
      tenant.integrationId,
    ]);
    expect(payments).toEqual([{ id: expect.any(String), status: 'captured', observation_count: 6 }]);
    const observations = await sql(
      app,
      'select event_id, tracked_payment_id from payment_observations where integration_id = ? order by event_id',
      [tenant.integrationId],
    );
    expect(observations).toEqual(
      events
        .map((e) => `gwc_webhook_${e.id}`)
        .sort()
        .map((eventId) => ({ event_id: eventId, tracked_payment_id: payments[0].id })),
    );
  });

  it('when a merchant report and a delivery of one new PaymentIntent race, then both are recorded on one payment, whichever commits first', async () => {
    const { tenant, secret, path } = await setup();
    for (let round = 0; round < 10; round++) {
      const pi = newPaymentIntentId();
      const report = gwcReport({ paymentIntentId: pi, status: 'captured', amountMinor: 10000, capturedAmountMinor: 10000 });
      const event = gwcEvent('payment_intent.succeeded', paymentIntent({ id: pi, status: 'succeeded', amount_received: 10000 }));
      const [merchant, delivery] = await Promise.all([
        app.request('/api/v1/gwc/payment-reports', { method: 'POST', json: report, key: tenant.key }),
        deliverGwc(app, path, signed(secret, event)),
      ]);
      expect([merchant.status, delivery.status]).toEqual([200, 200]);
      expect(delivery.body).toEqual({ received: true, kind: 'payment_intent.succeeded', status: 'captured', duplicate: false });
      const payments = await sql(app, 'select attempt_id, observation_count from tracked_payments where provider_payment_id = ?', [pi]);
      expect(payments).toEqual([{ attempt_id: report.attemptId, observation_count: 2 }]);
    }
  });

  it('when the same event is delivered again, or 40 times at once, then exactly one delivery records it', async () => {
    const { tenant, secret, endpoint, path } = await setup();
    const event = gwcEvent('payment_intent.succeeded', paymentIntent({ status: 'succeeded', amount_received: 10000 }));
    const answers = await Promise.all(Array.from({ length: 40 }, () => deliverGwc(app, path, signed(secret, event))));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(answers.filter((a) => a.body.duplicate === false)).toHaveLength(1);
    expect(answers.every((a) => a.body.status === 'captured' && a.body.kind === 'payment_intent.succeeded')).toBe(true);
    const again = await deliverGwc(app, path, signed(secret, event));
    expect(again.body).toEqual({ received: true, kind: 'payment_intent.succeeded', status: 'captured', duplicate: true });
    // The same event id with another body (the provider never does this) is still the one recorded event.
    const altered = await deliverGwc(app, path, signed(secret, { ...event, type: 'payment_intent.canceled' }));
    expect(altered.body).toMatchObject({ duplicate: true, status: 'captured' });
    expect(await countEvents(endpoint.id)).toBe(1);
    expect(await sql(app, 'select observation_count from tracked_payments where integration_id = ?', [tenant.integrationId])).toEqual([
      { observation_count: 1 },
    ]);
  });

  it('when the signature is missing, malformed, too many, stale, from the future, of another secret or of other bytes, then 400 invalid_signature, nothing is recorded and the refusal is shown', async () => {
    const { secret, endpoint, path } = await setup();
    const event = gwcEvent('payment_intent.succeeded', paymentIntent({ status: 'succeeded', amount_received: 10000 }));
    const good = signed(secret, event);
    const now = Math.floor(Date.now() / 1000);
    const v1 = good.header.split(',v1=')[1]!;
    const cases: [string, { body: string; header?: string }, RegExp][] = [
      ['missing', { body: good.body }, /missing/],
      ['malformed', { body: good.body, header: 'v1=abc' }, /not t=/],
      ['not hex', { body: good.body, header: `t=${now},v1=${'z'.repeat(64)}` }, /not t=/],
      ['too many', { body: good.body, header: `t=${now}${`,v1=${'0'.repeat(64)}`.repeat(4)},v1=${v1}` }, /more than 4/],
      // A minute past the tolerance either way: the requests before these take wall time, and the exact 300/301 s
      // boundary is the unit test's (test/unit/webhooks/gwc-events.test.ts, explicit clock).
      ['stale', signed(secret, event, { timestamp: now - 360 }), /300 seconds/],
      ['future', signed(secret, event, { timestamp: now + 360 }), /300 seconds/],
      ['other secret', signed(newSecret(), event), /did not match the current secret/],
      ['other bytes', { body: good.body.replace('10000', '10001'), header: good.header }, /did not match/],
    ];
    for (const [name, delivery, message] of cases) {
      const res = await deliverGwc(app, path, delivery);
      expect(res.status, name).toBe(400);
      expect(issueOf(res), name).toMatchObject({
        code: 'invalid_signature',
        path: 'gwc-signature',
        message: expect.stringMatching(message),
      });
    }
    // At the limit on both sides it verifies: four signatures, one of them good; a timestamp 300 s old.
    const four = await deliverGwc(app, path, {
      body: good.body,
      header: `t=${good.header.split(',')[0]!.slice(2)}${`,v1=${'0'.repeat(64)}`.repeat(3)},v1=${v1}`,
    });
    expect(four.status).toBe(200);
    expect(await countEvents(endpoint.id)).toBe(1);
    // Refusals are noted behind (at most one write per endpoint a second): the last one is there once its window ends.
    const refusalMessage = 'The signature did not match the current secret (nor the previous one during its grace period)';
    const listed = await until(
      'the last refusal noted',
      () => adminCall<any>(app, 'webhookEndpoints.list', { integrationId: endpoint.integrationId }),
      (l) => l.endpoints[0].delivery.lastRefusal?.message === refusalMessage,
    );
    expect(listed.endpoints[0].delivery).toEqual({
      lastDelivery: { at: expect.any(String), kind: 'payment_intent.succeeded', status: 'captured' },
      counts: { captured: 1 },
      kinds: ['payment_intent.succeeded'],
      lastRefusal: {
        at: expect.any(String),
        code: 'invalid_signature',
        message: 'The signature did not match the current secret (nor the previous one during its grace period)',
      },
    });
    expect(app.logs.text).not.toContain(v1);
  });

  it('when a signed body is not JSON, not an event, or of the other mode than the integration, then 400 invalid_event and nothing is recorded', async () => {
    const { secret, endpoint, path } = await setup();
    const pi = paymentIntent({ status: 'succeeded', amount_received: 10000 });
    const cases: [string, string, { body: string; header: string }][] = [
      ['not JSON', path, signed(secret, '{"id": "evt_1", ')],
      ['an array', path, signed(secret, '[1, 2]')],
      ['no id', path, signed(secret, JSON.stringify({ ...gwcEvent('payment_intent.succeeded', pi), id: 'x' }))],
      ['no data.object', path, signed(secret, JSON.stringify({ ...gwcEvent('payment_intent.succeeded', pi), data: {} }))],
      ['live event, sandbox integration', path, signed(secret, gwcEvent('payment_intent.succeeded', pi, { livemode: true }))],
      ['fractional amount', path, signed(secret, gwcEvent('payment_intent.succeeded', { ...pi, amount_received: 100.5 }))],
    ];
    for (const [name, target, delivery] of cases) {
      const res = await deliverGwc(app, target, delivery);
      expect(res.status, name).toBe(400);
      expect(issueOf(res).code, name).toBe('invalid_event');
    }
    expect(await countEvents(endpoint.id)).toBe(0);
  });

  it('when the endpoint is unknown, malformed, a gwa endpoint, without a secret, disabled, or the body is over the limit, then 404, 404, 404, 409, 410 and 413', async () => {
    const { secret, endpoint, path } = await setup();
    const delivery = signed(secret, gwcEvent('payment_intent.processing', paymentIntent({ status: 'processing' })));
    const unknown = await deliverGwc(app, `/api/integrations/gwc/webhooks/${crypto.randomUUID()}`, delivery);
    const malformed = await deliverGwc(app, '/api/integrations/gwc/webhooks/not-a-uuid', delivery);
    for (const res of [unknown, malformed]) {
      expect(res.status).toBe(404);
      expect(issueOf(res).code).toBe('endpoint_not_found');
    }
    expect(unknown.body.error.message).toBe(malformed.body.error.message);
    const gwaTenant = await createTenant(app, { provider: 'gwa', scopes: ['payments:write'] });
    const gwaEndpoint = await adminCall<Endpoint>(app, 'webhookEndpoints.create', { integrationId: gwaTenant.integrationId, ...newKeys() });
    expect((await deliverGwc(app, `/api/integrations/gwc/webhooks/${gwaEndpoint.id}`, delivery)).status).toBe(404);

    const bare = await setup({ secret: null });
    const noSecret = await deliverGwc(app, bare.path, delivery);
    expect(noSecret.status).toBe(409);
    expect(issueOf(noSecret).code).toBe('credentials_required');

    const big = signed(
      secret,
      gwcEvent('payment_intent.processing', paymentIntent({ status: 'processing', metadata: { note: 'x'.repeat(70_000) } })),
    );
    const tooLarge = await deliverGwc(app, path, big);
    expect(tooLarge.status).toBe(413);

    expect((await app.admin('webhookEndpoints.disable', { id: endpoint.id })).status).toBe(200);
    const gone = await deliverGwc(app, path, delivery);
    expect(gone.status).toBe(410);
    expect(issueOf(gone).code).toBe('endpoint_disabled');
    expect(await countEvents(endpoint.id)).toBe(0);
  });

  it('when an event carries a card number, then no table holds its digits: free text is not kept, and a read field with one is refused', async () => {
    const { tenant, secret, endpoint, path } = await setup();
    const pan = '4242424242424242';
    const pi = paymentIntent({
      status: 'succeeded',
      amount_received: 10000,
      description: `card ${pan}`,
      metadata: { svc_preparation_id: pan, note: pan },
    });
    const res = await deliverGwc(app, path, signed(secret, gwcEvent('payment_intent.succeeded', pi)));
    expect(res.body).toMatchObject({ status: 'captured', duplicate: false });
    const hostile = await deliverGwc(
      app,
      path,
      signed(secret, gwcEvent('payment_intent.succeeded', { ...pi, id: newPaymentIntentId(), status: pan })),
    );
    expect(hostile.status).toBe(400);
    expect(issueOf(hostile)).toMatchObject({
      code: 'invalid_event',
      message: 'The event carries card data or a credential; it is not stored',
    });
    const stored = await sql(
      app,
      `select (select string_agg(subject::text || coalesce(issues::text, ''), ' ') from webhook_events where endpoint_id = ?) as events,
              (select string_agg(payload::text, ' ') from payment_observations where integration_id = ?) as observations,
              (select string_agg(row_to_json(t)::text, ' ') from tracked_payments t where integration_id = ?) as payments,
              (select string_agg(row_to_json(e)::text, ' ') from webhook_endpoints e where id = ?) as endpoints`,
      [endpoint.id, tenant.integrationId, tenant.integrationId, endpoint.id],
    );
    expect(JSON.stringify(stored)).not.toContain(pan);
    expect(app.logs.text).not.toContain(pan);
  });

  it('when the signing secret is rotated, then deliveries signed with the previous one verify for 24 hours only', async () => {
    const { secret, endpoint, path } = await setup();
    const next = newSecret();
    const rotated = await app.admin<any>('webhookEndpoints.setCredentials', { id: endpoint.id, signingSecret: next });
    expect(rotated.status).toBe(200);
    const validUntil = Date.parse(rotated.body.previousValidUntil);
    expect(validUntil - Date.parse(rotated.body.credentialsUpdatedAt)).toBe(24 * 60 * 60 * 1000);
    const event = () => gwcEvent('payment_intent.processing', paymentIntent({ status: 'processing' }));
    expect((await deliverGwc(app, path, signed(next, event()))).status).toBe(200);
    expect((await deliverGwc(app, path, signed(secret, event()))).status).toBe(200);
    // The provider rolls a secret with both signatures in one header while the old one lasts.
    const both = event();
    const body = JSON.stringify(both);
    const t = Math.floor(Date.now() / 1000);
    const hmac = (s: string) => createHmac('sha256', s).update(`${t}.${body}`).digest('hex');
    expect((await deliverGwc(app, path, { body, header: `t=${t},v1=${hmac(secret)},v1=${hmac(next)}` })).status).toBe(200);

    await sql(app, `update webhook_endpoints set previous_valid_until = now() - interval '1 second' where id = ?`, [endpoint.id]);
    const expired = await deliverGwc(app, path, signed(secret, event()));
    expect(expired.status).toBe(400);
    expect(issueOf(expired).code).toBe('invalid_signature');
    expect((await deliverGwc(app, path, signed(next, event()))).status).toBe(200);
  });

  it('when the secret in use is set again, then nothing changes and the real previous secret still verifies', async () => {
    const { secret, endpoint, path } = await setup();
    const next = newSecret();
    const rotated = await app.admin<any>('webhookEndpoints.setCredentials', { id: endpoint.id, signingSecret: next });
    const before = await sql(app, 'select * from webhook_endpoints where id = ?', [endpoint.id]);
    const again = await app.admin<any>('webhookEndpoints.setCredentials', { id: endpoint.id, signingSecret: next });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(rotated.body);
    expect(await sql(app, 'select * from webhook_endpoints where id = ?', [endpoint.id])).toEqual(before);
    const event = () => gwcEvent('payment_intent.processing', paymentIntent({ status: 'processing' }));
    expect((await deliverGwc(app, path, signed(secret, event()))).status).toBe(200);
    expect((await deliverGwc(app, path, signed(next, event()))).status).toBe(200);
  });

  it('when two rotations run at once, then neither secret is lost: one is current and the other previous', async () => {
    const { endpoint, path } = await setup();
    const event = () => gwcEvent('payment_intent.processing', paymentIntent({ status: 'processing' }));
    for (let round = 0; round < 5; round++) {
      const [a, b] = [newSecret(), newSecret()];
      const answers = await Promise.all(
        [a, b].map((signingSecret) => app.admin<any>('webhookEndpoints.setCredentials', { id: endpoint.id, signingSecret })),
      );
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      expect((await deliverGwc(app, path, signed(a, event()))).status).toBe(200);
      expect((await deliverGwc(app, path, signed(b, event()))).status).toBe(200);
    }
  });

  it('when deliveries are listed by a gwc event type, then webhookEvents.list accepts it and returns only that kind', async () => {
    const { secret, endpoint, path } = await setup();
    const succeeded = gwcEvent('payment_intent.succeeded', paymentIntent({ amount: 500, amount_received: 500, status: 'succeeded' }));
    expect((await deliverGwc(app, path, signed(secret, succeeded))).status).toBe(200);
    expect((await deliverGwc(app, path, signed(secret, gwcEvent('payment_intent.processing', paymentIntent())))).status).toBe(200);
    const listed = await app.admin<any>('webhookEvents.list', { endpointId: endpoint.id, kind: 'payment_intent.succeeded' });
    expect(listed.status).toBe(200);
    expect(listed.body.events.map((e: any) => [e.kind, e.subjectId, e.status])).toEqual([
      ['payment_intent.succeeded', succeeded.id, 'captured'],
    ]);
  });

  /** Deliveries recorded at once, with their first reports, built as the domain builds them (a new PaymentIntent each). */
  function atOnceFixtures(tenant: Tenant, endpoint: Endpoint) {
    const scope = { organizationId: tenant.organizationId, integrationId: tenant.integrationId, environment: tenant.environment };
    const now = new Date('2026-11-27T08:00:00.000Z');
    const delivery = (eventId: string, status = 'captured') => ({
      id: crypto.randomUUID(),
      endpointId: endpoint.id,
      kind: 'payment_intent.succeeded',
      notificationAt: now,
      subjectType: 'payment_intent',
      subjectId: eventId,
      providerEventId: eventId,
      subject: { object: 'payment_intent' },
      requestId: 'at-once-test',
      createdAt: now,
      status,
    });
    const firstReport = (pi: string, eventId: string, attemptId = `gwc_payment_intent_${pi}`) => {
      const observationId = crypto.randomUUID();
      const paymentId = crypto.randomUUID();
      const amounts = {
        status: 'captured',
        currency: 'usd',
        amountMinor: 10000,
        capturedAmountMinor: 10000,
        refundedAmountMinor: 0,
        occurredAt: now,
      };
      return {
        scope,
        insert: true,
        paymentId,
        provider: 'gwc',
        attemptId,
        attemptProvisional: true,
        createdAt: now,
        projection: {
          ...amounts,
          providerPaymentId: pi,
          accountId: null,
          chargeId: 'ch_1',
          orderId: null,
          currentObservationId: observationId,
          enrichmentRequestId: null,
          observationCount: 1,
          updatedAt: now,
        },
        observation: {
          ...amounts,
          id: observationId,
          provider: 'gwc',
          eventId: `gwc_webhook_${eventId}`,
          payloadHash: 'hash',
          payload: { eventId: `gwc_webhook_${eventId}` },
          paymentId,
          attemptId,
          requestId: 'at-once-test',
          receivedAt: now,
          evidence: 'provider_verified' as const,
        },
      };
    };
    /** A delivery of a new PaymentIntent with its first report (of another eventId or attempt where given). */
    const deliveryOf = (eventId: string, pi: string, report: { eventId?: string; attemptId?: string } = {}) => ({
      scope,
      event: delivery(eventId),
      providerPaymentId: pi,
      first: firstReport(pi, report.eventId ?? eventId, report.attemptId),
    });
    return { scope, delivery, firstReport, deliveryOf };
  }

  it('when a delivery is claimed, then the same statement returns the payment its PaymentIntent is linked to, typed as stored; a repeat claims nothing', async () => {
    const { tenant, secret, endpoint, path } = await setup();
    const pi = newPaymentIntentId();
    const captured = await deliverGwc(
      app,
      path,
      signed(secret, gwcEvent('payment_intent.succeeded', paymentIntent({ id: pi, amount_received: 10000 }))),
    );
    expect(captured.status).toBe(200);
    const [payment] = await sql(app, 'select id from tracked_payments where integration_id = ?', [tenant.integrationId]);
    const store = webhooksStore(poolDatabase(app.orm));
    const scope = { organizationId: tenant.organizationId, integrationId: tenant.integrationId, environment: tenant.environment };
    const event = (subjectId: string) => ({
      id: crypto.randomUUID(),
      endpointId: endpoint.id,
      kind: 'charge.captured',
      notificationAt: new Date('2026-11-27T00:00:00Z'),
      subjectType: 'charge',
      subjectId,
      providerEventId: subjectId,
      subject: {},
      requestId: 'claim-test',
      createdAt: new Date(),
    });
    expect(await store.claimEvent(scope, event('evt_claim_1'), pi)).toEqual({
      claimed: true,
      linked: {
        id: payment.id,
        attemptId: `gwc_payment_intent_${pi}`,
        currency: 'usd',
        capturedAmountMinor: 10000,
        refundedAmountMinor: 0,
        enrichmentRequestId: null,
      },
    });
    expect(await store.claimEvent(scope, event('evt_claim_1'), pi)).toEqual({ claimed: false, linked: undefined });
    expect(await store.claimEvent(scope, event('evt_claim_2'), newPaymentIntentId())).toEqual({ claimed: true, linked: undefined });
    expect(await store.claimEvent(scope, event('evt_claim_3'), null)).toEqual({ claimed: true, linked: undefined });
    // Another integration's link is never returned.
    const other = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    expect(await store.claimEvent({ ...scope, integrationId: other.integrationId }, event('evt_claim_4'), pi)).toEqual({
      claimed: true,
      linked: undefined,
    });
  });

  it('when one event is delivered to two endpoints of its integration, then both deliveries are recorded and they share its one observation', async () => {
    const { tenant, secret, endpoint, path } = await setup();
    const second = await adminCall<Endpoint>(app, 'webhookEndpoints.create', {
      integrationId: tenant.integrationId,
      signingSecret: secret,
    });
    const event = gwcEvent('payment_intent.succeeded', paymentIntent({ id: newPaymentIntentId(), amount_received: 10000 }));
    const first = await deliverGwc(app, path, signed(secret, event));
    const again = await deliverGwc(app, new URL(second.url).pathname, signed(secret, event));
    expect([first.status, first.body]).toEqual([
      200,
      { received: true, kind: 'payment_intent.succeeded', status: 'captured', duplicate: false },
    ]);
    expect([again.status, again.body]).toEqual([
      200,
      { received: true, kind: 'payment_intent.succeeded', status: 'captured', duplicate: false },
    ]);
    const rows = await sql(
      app,
      'select e.endpoint_id, e.status, e.observation_id, e.tracked_payment_id from webhook_events e where e.integration_id = ? order by e.created_at',
      [tenant.integrationId],
    );
    const [observation] = await sql(app, 'select id, tracked_payment_id from payment_observations where integration_id = ?', [
      tenant.integrationId,
    ]);
    expect(rows).toEqual([
      { endpoint_id: endpoint.id, status: 'captured', observation_id: observation.id, tracked_payment_id: observation.tracked_payment_id },
      { endpoint_id: second.id, status: 'captured', observation_id: observation.id, tracked_payment_id: observation.tracked_payment_id },
    ]);
  });

  it('when a delivery is recorded at once, then one statement stores its row with its outcome, the payment and the observation; a tracked PaymentIntent or a stored eventId writes nothing, a taken identity is a duplicate and a taken attempt stores nothing', async () => {
    const { tenant, endpoint } = await setup();
    const store = webhooksStore(poolDatabase(app.orm));
    const { scope, delivery, firstReport, deliveryOf } = atOnceFixtures(tenant, endpoint);
    const countOf = async (table: string) =>
      (await sql(app, `select count(*)::int as n from ${table} where integration_id = ?`, [tenant.integrationId]))[0].n as number;
    const counts = async () => [await countOf('webhook_events'), await countOf('tracked_payments'), await countOf('payment_observations')];

    const pi = newPaymentIntentId();
    const recorded = delivery('evt_at_once_1');
    const report = firstReport(pi, 'evt_at_once_1');
    expect(await store.recordDeliveryAtOnce({ scope, event: recorded, providerPaymentId: pi, first: report })).toBe('recorded');
    expect(await sql(app, 'select status, observation_id, tracked_payment_id from webhook_events where id = ?', [recorded.id])).toEqual([
      { status: 'captured', observation_id: report.observation.id, tracked_payment_id: report.paymentId },
    ]);
    expect(
      await sql(
        app,
        'select id, attempt_id, attempt_provisional, provider_payment_id, status, captured_amount_minor, current_observation_id, observation_count from tracked_payments where id = ?',
        [report.paymentId],
      ),
    ).toEqual([
      {
        id: report.paymentId,
        attempt_id: `gwc_payment_intent_${pi}`,
        attempt_provisional: true,
        provider_payment_id: pi,
        status: 'captured',
        captured_amount_minor: '10000',
        current_observation_id: report.observation.id,
        observation_count: 1,
      },
    ]);
    expect(
      await sql(app, 'select event_id, tracked_payment_id, evidence from payment_observations where id = ?', [report.observation.id]),
    ).toEqual([{ event_id: 'gwc_webhook_evt_at_once_1', tracked_payment_id: report.paymentId, evidence: 'provider_verified' }]);
    expect(await counts()).toEqual([1, 1, 1]);

    // The PaymentIntent is tracked now: nothing is written, and the general path takes the delivery.
    expect(await store.recordDeliveryAtOnce(deliveryOf('evt_at_once_2', pi, { attemptId: 'other' }))).toBe('general');
    // The observation's eventId is stored (the same event through another endpoint): nothing is written.
    const otherPi = newPaymentIntentId();
    expect(await store.recordDeliveryAtOnce(deliveryOf('evt_at_once_3', otherPi, { eventId: 'evt_at_once_1' }))).toBe('general');
    expect(await counts()).toEqual([1, 1, 1]);
    // The delivery's identity is taken: a duplicate, nothing more written.
    expect(await store.recordDeliveryAtOnce(deliveryOf('evt_at_once_1', otherPi, { eventId: 'evt_at_once_4' }))).toBe('duplicate');
    expect(await counts()).toEqual([1, 1, 1]);
    // The attempt is taken (by a report of another provider payment id): the statement stores nothing, not even the row.
    await expect(
      store.recordDeliveryAtOnce(deliveryOf('evt_at_once_5', otherPi, { attemptId: `gwc_payment_intent_${pi}` })),
    ).rejects.toBeInstanceOf(KeyTaken);
    expect(await counts()).toEqual([1, 1, 1]);
    // Without a report (no payment effect): the row alone, with its status.
    const none = delivery('evt_at_once_6', 'no_payment_effect');
    expect(await store.recordDeliveryAtOnce({ scope, event: none, providerPaymentId: null, first: null })).toBe('recorded');
    expect(await sql(app, 'select status, observation_id, tracked_payment_id from webhook_events where id = ?', [none.id])).toEqual([
      { status: 'no_payment_effect', observation_id: null, tracked_payment_id: null },
    ]);
    expect(await counts()).toEqual([2, 1, 1]);
  });

  it('when an endpoint, its secret or its organization changes with plain SQL after deliveries were answered from the cache, then the very next delivery sees it; a refusal note moves no epoch', async () => {
    const { tenant, secret, endpoint, path } = await setup();
    const deliver = () =>
      deliverGwc(
        app,
        path,
        signed(secret, gwcEvent('payment_intent.succeeded', paymentIntent({ id: newPaymentIntentId(), amount_received: 10000 }))),
      );
    const codeOf = async () => {
      const res = await deliver();
      return [res.status, res.status === 200 ? res.body.status : issueOf(res).code];
    };
    const epoch = async () => (await sql(app, 'select value from auth_epoch'))[0].value as string;
    expect(await codeOf()).toEqual([200, 'captured']);
    expect(await codeOf()).toEqual([200, 'captured']);

    await sql(app, "update webhook_endpoints set status = 'disabled' where id = ?", [endpoint.id]);
    expect(await codeOf()).toEqual([410, 'endpoint_disabled']);
    await sql(app, "update webhook_endpoints set status = 'active' where id = ?", [endpoint.id]);
    expect(await codeOf()).toEqual([200, 'captured']);

    const [{ private_key_enc: stored }] = await sql(app, 'select private_key_enc from webhook_endpoints where id = ?', [endpoint.id]);
    await sql(app, 'update webhook_endpoints set private_key_enc = null where id = ?', [endpoint.id]);
    expect(await codeOf()).toEqual([409, 'credentials_required']);
    await sql(app, 'update webhook_endpoints set private_key_enc = ? where id = ?', [stored, endpoint.id]);
    expect(await codeOf()).toEqual([200, 'captured']);

    await sql(app, "update organizations set status = 'inactive' where id = ?", [tenant.organizationId]);
    expect(await codeOf()).toEqual([409, 'connection_unavailable']);
    await sql(app, "update organizations set status = 'active' where id = ?", [tenant.organizationId]);
    expect(await codeOf()).toEqual([200, 'captured']);

    // What the operator is shown of refusals changes no verdict: the cached keys and endpoints stay.
    const before = await epoch();
    await sql(app, "update webhook_endpoints set last_refusal_code = 'invalid_signature', last_refusal_at = now() where id = ?", [
      endpoint.id,
    ]);
    expect(await epoch()).toBe(before);
  });

  it('when deliveries recorded at once arrive together, then they share statements, those sharing a key go to a later one, and each gets its own outcome', async () => {
    const { tenant, endpoint } = await setup();
    const { deliveryOf } = atOnceFixtures(tenant, endpoint);
    const { db, sent } = recordingDatabase(poolDatabase(app.orm));
    const write = groupCommittedDeliveries(db);
    const pis = Array.from({ length: 12 }, () => newPaymentIntentId());
    const shared = newPaymentIntentId();
    const taken = newPaymentIntentId();
    await write(deliveryOf('evt_gc_taken', taken));
    sent.length = 0;
    const outcomes = await Promise.all([
      // A lone first delivery starts at once; the others queue behind it and go together.
      write(deliveryOf('evt_gc_lead', newPaymentIntentId())),
      ...pis.map((pi, i) => write(deliveryOf(`evt_gc_${i}`, pi))),
      // Two events of one new PaymentIntent: the second is in a later statement, which sees the first's payment.
      write(deliveryOf('evt_gc_shared_1', shared)),
      write(deliveryOf('evt_gc_shared_2', shared)),
      // The same delivery twice: the second, in a later statement, finds the first's observation and writes nothing (the
      // general path then answers it as a duplicate).
      write(deliveryOf('evt_gc_twice', newPaymentIntentId())),
      write(deliveryOf('evt_gc_twice', newPaymentIntentId())),
    ]);
    expect(outcomes.slice(0, 13)).toEqual(Array(13).fill('recorded'));
    expect(outcomes.slice(13)).toEqual(['recorded', 'general', 'recorded', 'general']);
    // The lone first one, then one statement per round: the queued ones, then those sharing a key with one of them.
    expect(sent.length).toBe(3);

    // One whose attempt is another payment's is refused alone (KeyTaken); the statement it was in is sent again one by
    // one without costing the others theirs.
    const others = Array.from({ length: 3 }, () => newPaymentIntentId());
    const [, ...mixed] = await Promise.all([
      write(deliveryOf('evt_gc_lead_2', newPaymentIntentId())),
      write(deliveryOf('evt_gc_rival', newPaymentIntentId(), { attemptId: `gwc_payment_intent_${taken}` })).catch((err: unknown) => err),
      ...others.map((pi, i) => write(deliveryOf(`evt_gc_other_${i}`, pi))),
    ]);
    expect(mixed[0]).toBeInstanceOf(KeyTaken);
    expect(mixed.slice(1)).toEqual(['recorded', 'recorded', 'recorded']);
    const stored = await sql(
      app,
      `select e.subject_id, o.event_id, p.provider_payment_id from webhook_events e
         left join payment_observations o on o.id = e.observation_id left join tracked_payments p on p.id = e.tracked_payment_id
        where e.endpoint_id = ?`,
      [endpoint.id],
    );
    expect(stored.sort((a, b) => (a.subject_id < b.subject_id ? -1 : 1))).toEqual(
      [
        ['evt_gc_lead', undefined],
        ['evt_gc_lead_2', undefined],
        ...pis.map((pi, i) => [`evt_gc_${i}`, pi]),
        ...others.map((pi, i) => [`evt_gc_other_${i}`, pi]),
        ['evt_gc_shared_1', shared],
        ['evt_gc_taken', taken],
        ['evt_gc_twice', undefined],
      ]
        .map(([id, pi]) => ({ subject_id: id, event_id: `gwc_webhook_${id}`, provider_payment_id: pi }))
        .sort((a, b) => (a.subject_id! < b.subject_id! ? -1 : 1))
        .map((row) => (row.provider_payment_id === undefined ? { ...row, provider_payment_id: expect.stringMatching(/^pi_/) } : row)),
    );
  });
});

describe('gwc provider events on a production deployment (endpoint mode)', () => {
  const app = useTestApp({ SVC_PUBLIC_URL: 'https://svc.example.test', SVC_ENVIRONMENT: 'production' });

  it('when a test-mode event reaches a production endpoint, then 400 invalid_event; a live-mode one is recorded', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'], environment: 'production' });
    const secret = newSecret();
    const endpoint = await adminCall<Endpoint>(app, 'webhookEndpoints.create', {
      integrationId: tenant.integrationId,
      signingSecret: secret,
    });
    const path = new URL(endpoint.url).pathname;
    const pi = paymentIntent({ status: 'succeeded', amount_received: 10000, livemode: true });
    const test = await deliverGwc(app, path, signed(secret, gwcEvent('payment_intent.succeeded', pi)));
    expect(test.status).toBe(400);
    expect(test.body.error.issues[0]).toMatchObject({
      code: 'invalid_event',
      message: 'A test mode event cannot be evidence for a production integration',
    });
    const live = await deliverGwc(app, path, signed(secret, gwcEvent('payment_intent.succeeded', pi, { livemode: true })));
    expect(live.body).toEqual({ received: true, kind: 'payment_intent.succeeded', status: 'captured', duplicate: false });
  });
});
