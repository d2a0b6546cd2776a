import braintree from 'braintree';
import { spawn } from 'node:child_process';
import { createHash, createHmac, randomUUID } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN, useTestApp, type TestApp } from '../../support/harness.js';
import { adminCall, createTenant, type Tenant } from '../../support/tenants.js';
import { gwaReport } from '../../support/reports.js';
import { deliver, newKeys, sampleNotification, type GwaKeys } from '../../support/gwa-webhooks.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const sql = <T = any>(app: TestApp, query: string, params: unknown[] = []) =>
  app.orm.em.getConnection().execute(query, params) as Promise<T[]>;

interface Endpoint {
  id: string;
  integrationId: string;
  url: string;
  status: string;
  createdAt: string;
}

/** A signature computed the way the provider's SDK does (for payloads the SDK cannot build: hostile XML). */
const sign = (keys: GwaKeys, payload: string) =>
  `${keys.publicKey}|${createHmac('sha1', createHash('sha1').update(keys.privateKey).digest()).update(payload).digest('hex')}`;
const signedXml = (keys: GwaKeys, xml: string) => {
  const payload = `${Buffer.from(xml, 'utf8').toString('base64')}\n`;
  return { gwa_signature: sign(keys, payload), gwa_payload: payload };
};
const transactionId = () => `t${randomUUID().replace(/-/g, '').slice(0, 9)}`;

describe('gwa webhook', () => {
  const app = useTestApp({ SVC_PUBLIC_URL: 'https://svc.example.test' });

  async function setup(options: { keys?: GwaKeys | null; environment?: 'sandbox' | 'production' } = {}) {
    const tenant: Tenant = await createTenant(app, { provider: 'gwa', scopes: ['payments:write'], environment: options.environment });
    const keys = options.keys === undefined ? newKeys() : options.keys;
    const endpoint = await adminCall<Endpoint>(app, 'webhookEndpoints.create', {
      integrationId: tenant.integrationId,
      ...(keys ? keys : {}),
    });
    const path = new URL(endpoint.url).pathname;
    return { tenant, keys: keys!, endpoint, path };
  }

  it(
    'when an operator registers an endpoint with the CLI and the provider settles a transaction the merchant reported as authorized, then the payment projection moves to captured',
    { timeout: 90_000 },
    async () => {
      const tenant = await createTenant(app, { provider: 'gwa', scopes: ['payments:write'] });
      const keys = newKeys();
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'admin/cli.ts', 'webhookEndpoints.create', JSON.stringify({ integrationId: tenant.integrationId, ...keys })],
        { cwd: ROOT, env: { ...process.env, SVC_URL: app.url, SVC_ADMIN_TOKEN: TEST_ADMIN_TOKEN } },
      );
      let stdout = '';
      child.stdout.on('data', (d) => (stdout += d));
      const code = await new Promise((resolve) => child.on('exit', resolve));
      expect(code).toBe(0);
      const endpoint = JSON.parse(stdout) as Endpoint & Record<string, unknown>;
      expect(endpoint).toMatchObject({
        integrationId: tenant.integrationId,
        url: `https://svc.example.test/api/integrations/gwa/webhooks/${endpoint.id}`,
        status: 'active',
        publicKey: keys.publicKey,
        hasCredentials: true,
      });
      expect(stdout).not.toContain(keys.privateKey);
      const [stored] = await sql(app, 'select private_key_enc from webhook_endpoints where id = ?', [endpoint.id]);
      expect(stored.private_key_enc).toMatch(/^v2\./);
      expect(stored.private_key_enc).not.toContain(keys.privateKey);

      const txn = transactionId();
      const authorized = gwaReport({
        status: 'authorized',
        amountMinor: 10000,
        capturedAmountMinor: 0,
        transactionId: txn,
        occurredAt: '2026-01-10T10:00:00Z',
      });
      const report = await app.request('/api/v1/gwa/payment-reports', { method: 'POST', json: authorized, key: tenant.key });
      expect(report.status).toBe(200);

      const res = await deliver(app, `/api/integrations/gwa/webhooks/${endpoint.id}`, sampleNotification(keys, 'transaction_settled', txn));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true, kind: 'transaction_settled', status: 'captured', duplicate: false });

      const [payment] = await sql(
        app,
        'select id, attempt_id, status, captured_amount_minor, observation_count from tracked_payments where provider_payment_id = ?',
        [txn],
      );
      expect(payment).toMatchObject({
        attempt_id: authorized.attemptId,
        status: 'captured',
        captured_amount_minor: '10000',
        observation_count: 2,
      });
      const detail = await app.admin<any>('payments.get', { id: payment.id });
      expect(detail.body.payment).toMatchObject({ status: 'captured', capturedAmountMinor: 10000, refundedAmountMinor: 0 });
      const webhookObservation = detail.body.observations.find((o: any) => o.current);
      expect(webhookObservation.payload).toMatchObject({
        source: 'merchant_webhook',
        status: 'captured',
        transactionId: txn,
        attemptId: authorized.attemptId,
        amountMinor: 10000,
        currency: 'usd',
        providerEventId: expect.stringMatching(new RegExp(`^transaction_settled:${txn}:\\d{4}-`)),
        eventId: expect.stringMatching(/^gwa_webhook_[0-9a-f]{40}$/),
      });
      const [event] = await sql(
        app,
        'select status, observation_id, tracked_payment_id, subject_id from webhook_events where endpoint_id = ?',
        [endpoint.id],
      );
      expect(event).toEqual({ status: 'captured', observation_id: webhookObservation.id, tracked_payment_id: payment.id, subject_id: txn });
      expect(app.logs.text).not.toContain(keys.privateKey);
    },
  );

  it('when the same notification is delivered again, then it answers duplicate: true and changes nothing', async () => {
    const { keys, path } = await setup();
    const txn = transactionId();
    const form = sampleNotification(keys, 'transaction_settlement_declined', txn);
    const first = await deliver(app, path, form);
    expect(first.body).toEqual({ received: true, kind: 'transaction_settlement_declined', status: 'failed', duplicate: false });
    const before = await sql(app, 'select * from tracked_payments where provider_payment_id = ?', [txn]);
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({
      attempt_id: `gwa_transaction_${txn}`,
      status: 'failed',
      captured_amount_minor: '0',
      observation_count: 1,
    });
    const again = await deliver(app, path, form);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true, kind: 'transaction_settlement_declined', status: 'failed', duplicate: true });
    expect(await sql(app, 'select * from tracked_payments where provider_payment_id = ?', [txn])).toEqual(before);
    expect(await sql(app, 'select count(*)::int as n from webhook_events where subject_id = ?', [txn])).toEqual([{ n: 1 }]);
  });

  it('when the same notification arrives concurrently, then exactly one delivery records it and the others are duplicates', async () => {
    const { keys, path } = await setup();
    const txn = transactionId();
    const form = sampleNotification(keys, 'transaction_disbursed', txn);
    const answers = await Promise.all(Array.from({ length: 6 }, () => deliver(app, path, form)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.body.duplicate === false)).toHaveLength(1);
    expect(answers.every((a) => a.body.status === 'captured' && a.body.kind === 'transaction_disbursed')).toBe(true);
    expect(await sql(app, 'select count(*)::int as n from webhook_events where subject_id = ?', [txn])).toEqual([{ n: 1 }]);
    expect(await sql(app, "select count(*)::int as n from payment_observations where payload->>'transactionId' = ?", [txn])).toEqual([
      { n: 1 },
    ]);
  });

  it.each([
    ['check', ''],
    ['disbursement', 'd'],
    ['dispute_opened', 'd'],
    ['refund_failed', 'd'],
  ])('when a %s notification arrives, then it is recorded with status no_payment_effect and no payment changes', async (kind, idPrefix) => {
    const { keys, path, endpoint } = await setup();
    const id = `${idPrefix}${transactionId()}`;
    const res = await deliver(app, path, sampleNotification(keys, kind, id));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, kind, status: 'no_payment_effect', duplicate: false });
    const events = await sql(
      app,
      'select kind, subject_id, status, observation_id, subject::text as subject from webhook_events where endpoint_id = ?',
      [endpoint.id],
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind, subject_id: kind === 'check' ? '' : id, status: 'no_payment_effect', observation_id: null });
    // The refund-failed sample carries a card number and CVV: only the summary is stored.
    expect(events[0].subject).not.toContain('1234560000001234');
    expect(await sql(app, 'select count(*)::int as n from tracked_payments where provider_payment_id = ?', [id])).toEqual([{ n: 0 }]);
  });

  it('when the payload ends with the newline the provider adds or without it, then both verify', async () => {
    const { keys, path } = await setup();
    const withNewline = sampleNotification(keys, 'check', '');
    expect(withNewline.gwa_payload.endsWith('\n')).toBe(true);
    expect((await deliver(app, path, withNewline)).status).toBe(200);
    const second = sampleNotification(keys, 'transaction_settled', transactionId());
    const without = { ...second, gwa_payload: second.gwa_payload.replace(/\n$/, '') };
    const res = await deliver(app, path, without);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('captured');
  });

  it('when the signature does not verify, then 400 invalid_signature and nothing is stored', async () => {
    const { keys, path, endpoint } = await setup();
    const other = await setup();
    const form = sampleNotification(keys, 'transaction_settled', transactionId());
    const tamperedXml = Buffer.from(form.gwa_payload, 'base64').toString('utf8').replace('<amount>100</amount>', '<amount>1</amount>');
    const cases: Record<string, Record<string, string>> = {
      tampered: { ...form, gwa_payload: `${Buffer.from(tamperedXml).toString('base64')}\n` },
      wrongPublicKey: sampleNotification({ publicKey: 'someoneelse', privateKey: keys.privateKey }, 'transaction_settled', transactionId()),
      otherEndpoint: sampleNotification(other.keys, 'transaction_settled', transactionId()),
      wrongPrivateKey: sampleNotification({ publicKey: keys.publicKey, privateKey: 'not-the-key' }, 'check', ''),
      illegalCharacters: { ...form, gwa_payload: `${form.gwa_payload}!` },
      missing: { gwa_payload: form.gwa_payload },
    };
    for (const [name, body] of Object.entries(cases)) {
      const res = await deliver(app, path, body);
      expect({ name, status: res.status, type: res.body.error.type, code: res.body.error.issues[0].code }).toEqual({
        name,
        status: 400,
        type: 'validation_error',
        code: 'invalid_signature',
      });
    }
    expect(await sql(app, 'select count(*)::int as n from webhook_events where endpoint_id = ?', [endpoint.id])).toEqual([{ n: 0 }]);
    expect(app.logs.text).not.toContain(form.gwa_signature.split('|')[1]);
  });

  it('when a signed payload is hostile or unusable XML, then 400 invalid_event and nothing is stored', async () => {
    const { keys, path, endpoint } = await setup();
    const billionLaughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>' +
      '<notification><timestamp type="datetime">2026-01-10T10:00:00Z</timestamp><kind>check</kind><subject><check>&lol2;</check></subject></notification>';
    const external =
      '<!DOCTYPE n [<!ENTITY x SYSTEM "file:///etc/passwd">]><notification><timestamp>2026-01-10T10:00:00Z</timestamp><kind>check</kind>' +
      '<subject><check>&x;</check></subject></notification>';
    const deep = `<notification><timestamp>2026-01-10T10:00:00Z</timestamp><kind>check</kind><subject>${'<a>'.repeat(40)}${'</a>'.repeat(40)}</subject></notification>`;
    const noKind = '<notification><timestamp>2026-01-10T10:00:00Z</timestamp><subject><check>true</check></subject></notification>';
    const badAmount =
      '<notification><timestamp>2026-01-10T10:00:00Z</timestamp><kind>transaction_settled</kind><subject><transaction><id>abc1</id>' +
      '<status>settled</status><type>sale</type><currency-iso-code>USD</currency-iso-code><amount>10.001</amount></transaction></subject></notification>';
    // Within the 64 KiB body limit, over the parser's 2,000-element limit.
    const manyElements = `<notification><timestamp>2026-01-10T10:00:00Z</timestamp><kind>check</kind><subject><check>${'<b/>'.repeat(2_001)}</check></subject></notification>`;
    for (const xml of [billionLaughs, external, deep, noKind, badAmount, manyElements, 'not xml at all']) {
      const res = await deliver(app, path, signedXml(keys, xml));
      expect(res.status).toBe(400);
      expect(res.body.error.issues[0].code).toBe('invalid_event');
    }
    expect(await sql(app, 'select count(*)::int as n from webhook_events where endpoint_id = ?', [endpoint.id])).toEqual([{ n: 0 }]);
  });

  it('when the body is larger than the webhook limit, then 413; when it is not form-encoded, then 415', async () => {
    const { keys, path } = await setup();
    const huge = signedXml(keys, `<notification>${'<x>y</x>'.repeat(10_000)}</notification>`);
    const res = await deliver(app, path, huge);
    expect(res.status).toBe(413);
    expect(res.body.error.type).toBe('payload_too_large');
    const json = await app.request(path, { method: 'POST', json: sampleNotification(keys, 'check', '') });
    expect(json.status).toBe(415);
    expect(json.body.error.type).toBe('unsupported_media_type');
  });

  it('when the endpoint id is unknown or malformed, then both answer 404 endpoint_not_found alike', async () => {
    const { keys } = await setup();
    const form = sampleNotification(keys, 'check', '');
    const unknown = await deliver(app, `/api/integrations/gwa/webhooks/${randomUUID()}`, form);
    const malformed = await deliver(app, '/api/integrations/gwa/webhooks/not-an-id', form);
    for (const res of [unknown, malformed]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        error: {
          type: 'not_found',
          message: 'No such webhook endpoint',
          issues: [{ code: 'endpoint_not_found', path: 'endpointId', message: 'No such webhook endpoint' }],
        },
      });
    }
  });

  it('when the endpoint is disabled, then 410 endpoint_disabled', async () => {
    const { keys, path, endpoint } = await setup();
    const disabled = await adminCall<any>(app, 'webhookEndpoints.disable', { id: endpoint.id });
    expect(disabled).toMatchObject({ id: endpoint.id, status: 'disabled', disabledAt: expect.any(String) });
    const res = await deliver(app, path, sampleNotification(keys, 'check', ''));
    expect(res.status).toBe(410);
    expect(res.body.error).toMatchObject({ type: 'gone', issues: [{ code: 'endpoint_disabled', path: 'endpointId' }] });
    const rotate = await app.admin<any>('webhookEndpoints.setCredentials', { id: endpoint.id, ...newKeys() });
    expect(rotate.status).toBe(409);
  });

  it('when the endpoint has no key pair, then 409 credentials_required until credentials are set', async () => {
    const { endpoint, path } = await setup({ keys: null });
    expect(endpoint).toMatchObject({ status: 'active', hasCredentials: false, publicKey: null });
    const keys = newKeys();
    const res = await deliver(app, path, sampleNotification(keys, 'check', ''));
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ type: 'conflict', issues: [{ code: 'credentials_required' }] });
    await adminCall(app, 'webhookEndpoints.setCredentials', { id: endpoint.id, ...keys });
    expect((await deliver(app, path, sampleNotification(keys, 'check', ''))).status).toBe(200);
  });

  it("when the endpoint's integration cannot take events (another environment, or an inactive organization), then 409 connection_unavailable", async () => {
    const production = await setup({ environment: 'production' });
    const res = await deliver(app, production.path, sampleNotification(production.keys, 'check', ''));
    expect(res.status).toBe(409);
    expect(res.body.error.issues[0].code).toBe('connection_unavailable');

    const inactive = await setup();
    await sql(app, "update organizations set status = 'inactive' where id = ?", [inactive.tenant.organizationId]);
    const again = await deliver(app, inactive.path, sampleNotification(inactive.keys, 'check', ''));
    expect(again.status).toBe(409);
    expect(again.body.error.issues[0].code).toBe('connection_unavailable');
  });

  it('when credentials are rotated, then the previous key pair verifies during the grace period only', async () => {
    const { keys, path, endpoint } = await setup();
    const next = newKeys();
    const rotated = await adminCall<any>(app, 'webhookEndpoints.setCredentials', { id: endpoint.id, ...next });
    expect(rotated).toMatchObject({ publicKey: next.publicKey, previousPublicKey: keys.publicKey, previousValidUntil: expect.any(String) });
    expect(Date.parse(rotated.previousValidUntil) - Date.now()).toBeGreaterThan(71 * 3600 * 1000);
    expect(JSON.stringify(rotated)).not.toContain(next.privateKey);
    expect((await deliver(app, path, sampleNotification(next, 'transaction_settled', transactionId()))).status).toBe(200);
    expect((await deliver(app, path, sampleNotification(keys, 'transaction_settled', transactionId()))).status).toBe(200);
    await sql(app, "update webhook_endpoints set previous_valid_until = now() - interval '1 second' where id = ?", [endpoint.id]);
    const late = await deliver(app, path, sampleNotification(keys, 'transaction_settled', transactionId()));
    expect(late.status).toBe(400);
    expect(late.body.error.issues[0].code).toBe('invalid_signature');
  });

  it("when the provider sends the verification challenge, then the answer is what the provider's SDK computes", async () => {
    const { keys, path } = await setup();
    const challenge = '0123456789abcdef0123';
    const res = await app.request(`${path}?gwa_challenge=${challenge}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const gateway = new braintree.BraintreeGateway({ environment: braintree.Environment.Sandbox, merchantId: 'm', ...keys });
    expect(res.text).toBe((gateway.webhookNotification as unknown as { verify(c: string): string }).verify(challenge));
    const bad = await app.request(`${path}?gwa_challenge=NOT-HEX`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].code).toBe('invalid_challenge');
    expect((await app.request(`/api/integrations/gwa/webhooks/${randomUUID()}?gwa_challenge=${challenge}`)).status).toBe(404);
  });

  it("when the merchant's report named an enrichment, then the notification's observation is correlated with it too", async () => {
    const { tenant, keys, path } = await setup();
    const requestId = `req_${randomUUID().replace(/-/g, '')}`;
    await sql(
      app,
      `insert into enrichment_records (id, request_id, organization_id, integration_id, environment, provider, amount_minor, currency, invoice_number, created_at)
       values (gen_random_uuid(), ?, ?, ?, 'sandbox', 'gwa', 9000, 'usd', 'INV-1', now())`,
      [requestId, tenant.organizationId, tenant.integrationId],
    );
    const txn = transactionId();
    const report = gwaReport({
      status: 'authorized',
      amountMinor: 10000,
      capturedAmountMinor: 0,
      transactionId: txn,
      enrichmentRequestId: requestId,
    });
    const merchant = await app.request('/api/v1/gwa/payment-reports', { method: 'POST', json: report, key: tenant.key });
    expect(merchant.status).toBe(200);
    const res = await deliver(app, path, sampleNotification(keys, 'transaction_settled', txn));
    expect(res.body).toMatchObject({ status: 'captured', duplicate: false });
    const [event] = await sql(app, 'select observation_id from webhook_events where subject_id = ?', [txn]);
    const listed = await adminCall<any>(app, 'correlationExceptions.list', { organizationId: tenant.organizationId });
    expect(listed.correlationExceptions.map((x: any) => [x.kind, x.expected, x.observed, x.observationId])).toEqual([
      ['amount_mismatch', '9000', '10000', merchant.body.data.id],
      ['amount_mismatch', '9000', '10000', event.observation_id],
    ]);
  });

  it('when the merchant already reported a refund, then a settled notification keeps it (partially_refunded)', async () => {
    const { tenant, keys, path } = await setup();
    const txn = transactionId();
    const refunded = gwaReport({
      status: 'partially_refunded',
      amountMinor: 10000,
      capturedAmountMinor: 10000,
      refundedAmountMinor: 2500,
      transactionId: txn,
      occurredAt: '2026-01-10T10:00:00Z',
    });
    expect((await app.request('/api/v1/gwa/payment-reports', { method: 'POST', json: refunded, key: tenant.key })).status).toBe(200);
    const res = await deliver(app, path, sampleNotification(keys, 'transaction_settled', txn));
    expect(res.body).toEqual({ received: true, kind: 'transaction_settled', status: 'partially_refunded', duplicate: false });
  });

  it("when a notification contradicts the merchant's reports (another amount), then it is recorded as rejected with the reasons", async () => {
    const { tenant, keys, path, endpoint } = await setup();
    const txn = transactionId();
    const report = gwaReport({ status: 'authorized', amountMinor: 999, capturedAmountMinor: 0, transactionId: txn });
    expect((await app.request('/api/v1/gwa/payment-reports', { method: 'POST', json: report, key: tenant.key })).status).toBe(200);
    const res = await deliver(app, path, sampleNotification(keys, 'transaction_settled', txn));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, kind: 'transaction_settled', status: 'rejected', duplicate: false });
    const listed = await adminCall<any>(app, 'webhookEvents.list', { endpointId: endpoint.id });
    expect(listed.events).toHaveLength(1);
    expect(listed.events[0]).toMatchObject({
      status: 'rejected',
      observationId: null,
      issues: [expect.objectContaining({ code: 'amount_conflict' })],
    });
    const [payment] = await sql(app, 'select status, observation_count from tracked_payments where provider_payment_id = ?', [txn]);
    expect(payment).toEqual({ status: 'authorized', observation_count: 1 });
  });

  it('when the operator lists webhook events, then filters and cursors work and no signature or key appears', async () => {
    const { keys, path, endpoint } = await setup();
    const forms = [
      sampleNotification(keys, 'check', ''),
      sampleNotification(keys, 'transaction_settled', transactionId()),
      sampleNotification(keys, 'dispute_opened', transactionId()),
    ];
    for (const form of forms) expect((await deliver(app, path, form)).status).toBe(200);
    const first = await adminCall<any>(app, 'webhookEvents.list', { endpointId: endpoint.id, limit: 2 });
    expect(first.events.map((e: any) => e.kind)).toEqual(['check', 'transaction_settled']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await adminCall<any>(app, 'webhookEvents.list', { endpointId: endpoint.id, limit: 2, cursor: first.nextCursor });
    expect(second).toMatchObject({ events: [{ kind: 'dispute_opened', status: 'no_payment_effect' }], nextCursor: null });
    const byKind = await adminCall<any>(app, 'webhookEvents.list', { endpointId: endpoint.id, kind: 'check' });
    expect(byKind.events).toHaveLength(1);
    expect(byKind.events[0]).toMatchObject({ kind: 'check', subjectId: null, subjectType: 'check', status: 'no_payment_effect' });
    const text = JSON.stringify([first, second]);
    for (const form of forms) expect(text).not.toContain(form.gwa_signature.split('|')[1]);
    expect(text).not.toContain(keys.privateKey);
    const tampered = await app.admin<any>('webhookEvents.list', { cursor: 'bm90LWEtY3Vyc29y' });
    expect(tampered.status).toBe(400);
    const listedEndpoints = await adminCall<any>(app, 'webhookEndpoints.list', { integrationId: endpoint.integrationId });
    expect(listedEndpoints.endpoints.map((e: any) => e.id)).toEqual([endpoint.id]);
    expect(JSON.stringify(listedEndpoints)).not.toContain(keys.privateKey);
  });

  it('when an endpoint is registered for an integration of another provider, then it is refused', async () => {
    const gwb = await createTenant(app, { provider: 'gwb', scopes: ['payments:write'] });
    const res = await app.admin<any>('webhookEndpoints.create', { integrationId: gwb.integrationId, ...newKeys() });
    expect(res.status).toBe(400);
    const half = await app.admin<any>('webhookEndpoints.create', { integrationId: gwb.integrationId, publicKey: 'onlypublic' });
    expect(half.status).toBe(400);
  });
});
