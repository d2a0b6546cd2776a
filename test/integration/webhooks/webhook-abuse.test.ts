import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { coalescedRefusalNotes } from '../../../server/persistence/refusal-notes.js';
import { sql } from 'kysely';
import { poolDatabase } from '../../../server/persistence/kysely.js';
import { recordingDatabase } from '../../support/recording-database.js';
import { useTestApp, type TestApp } from '../../support/harness.js';
import { adminCall, createTenant } from '../../support/tenants.js';
import { gwcEvent, newPaymentIntentId, newSecret, paymentIntent, signed } from '../../support/gwc-webhooks.js';
import { until } from '../../support/until.js';

/** A gwc delivery from the local address `from` (its own client identity). */
function deliverFrom(app: TestApp, from: string, path: string, delivery: { body: string; header?: string }) {
  const url = new URL(path, app.url);
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      agent: false,
      localAddress: from,
      headers: { 'content-type': 'application/json', ...(delivery.header ? { 'gwc-signature': delivery.header } : {}) },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(delivery.body);
  });
}

async function gwcEndpoint(app: TestApp) {
  const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
  const secret = newSecret();
  const created = await adminCall<{ id: string; url: string }>(app, 'webhookEndpoints.create', {
    integrationId: tenant.integrationId,
    signingSecret: secret,
  });
  return { id: created.id, secret, path: new URL(created.url).pathname };
}

const genuine = (secret: string) => signed(secret, gwcEvent('payment_intent.processing', paymentIntent({ id: newPaymentIntentId() })));
const FAILURES = 'Too many failed authentications from this client (at most 1 per second, bursts up to 3); retry after 1 s';

describe('webhook routes under abuse: refusals are limited per client before any database work', () => {
  const app = useTestApp({
    SVC_PUBLIC_URL: 'https://svc.example.test',
    SVC_AUTH_FAILURE_BURST: '3',
    SVC_AUTH_FAILURES_PER_SECOND: '1',
    SVC_AUTH_REFUSAL_HOLD_MS: '0',
  });

  it('when one client sends deliveries to unknown endpoint ids or with refused signatures, then past its burst it gets 429 at the front; the provider from its own address is still served', async () => {
    const endpoint = await gwcEndpoint(app);
    const prober = '127.0.0.41';
    const unknown = [];
    for (let i = 0; i < 4; i++)
      unknown.push((await deliverFrom(app, prober, `/api/integrations/gwc/webhooks/${crypto.randomUUID()}`, { body: '{}' })).status);
    expect(unknown).toEqual([404, 404, 404, 429]);
    // Even a genuine delivery from the blocked client waits (the block is per client, before the endpoint is read).
    const blocked = await deliverFrom(app, prober, endpoint.path, genuine(endpoint.secret));
    expect(blocked).toEqual({ status: 429, body: { error: { type: 'rate_limited', message: FAILURES, issues: [] } } });

    const forger = '127.0.0.42';
    const forged = [];
    for (let i = 0; i < 4; i++) forged.push((await deliverFrom(app, forger, endpoint.path, { body: '{}', header: 't=1,v1=00' })).status);
    expect(forged).toEqual([400, 400, 400, 429]);
    expect((await deliverFrom(app, forger, `/api/integrations/gwa/webhooks/${crypto.randomUUID()}`, { body: '' })).status).toBe(429);

    expect((await deliverFrom(app, '127.0.0.43', endpoint.path, genuine(endpoint.secret))).status).toBe(200);
  });
});

describe('webhook routes under abuse: the delivery budget is per endpoint and source', () => {
  const app = useTestApp({
    SVC_PUBLIC_URL: 'https://svc.example.test',
    SVC_WEBHOOK_RATE_LIMIT_PER_SECOND: '1',
    SVC_WEBHOOK_RATE_LIMIT_BURST: '3',
  });

  it('when one source floods an endpoint URL, then that source gets 429 and the provider delivering from its own address keeps its budget', async () => {
    const endpoint = await gwcEndpoint(app);
    const flood = [];
    for (let i = 0; i < 4; i++)
      flood.push((await deliverFrom(app, '127.0.0.44', endpoint.path, { body: '{}', header: 't=1,v1=00' })).status);
    expect(flood).toEqual([400, 400, 400, 429]);
    const limited = await deliverFrom(app, '127.0.0.44', endpoint.path, genuine(endpoint.secret));
    expect(limited.body).toEqual({
      error: {
        type: 'rate_limited',
        message: 'Too many deliveries to this webhook endpoint from this source (at most 1 per second, bursts up to 3); retry after 1 s',
        issues: [],
      },
    });
    const provider = [];
    for (let i = 0; i < 3; i++) provider.push((await deliverFrom(app, '127.0.0.45', endpoint.path, genuine(endpoint.secret))).status);
    expect(provider).toEqual([200, 200, 200]);
  });

  it('when many deliveries to one endpoint are refused, then their notes are coalesced: one write at once, the newest at the end of the window', async () => {
    const endpoint = await gwcEndpoint(app);
    // The real pool, with every statement noted.
    const counting = recordingDatabase(poolDatabase(app.orm));
    const writes = () => counting.sent.filter((query) => /^update "webhook_endpoints"/.test(query));
    const notes = coalescedRefusalNotes(counting.db, (err) => {
      throw err;
    });
    for (let i = 0; i < 50; i++) notes.note(endpoint.id, { code: 'invalid_signature', message: `refusal ${i}`, at: new Date() });
    expect(writes()).toHaveLength(1);
    const stored = () =>
      sql<{
        code: string;
        message: string;
      }>`select last_refusal_code as code, last_refusal_message as message from webhook_endpoints where id = ${endpoint.id}`
        .execute(poolDatabase(app.orm))
        .then((result) => result.rows[0]);
    expect(await until('the newest refusal written', stored, (row) => row?.message === 'refusal 49')).toEqual({
      code: 'invalid_signature',
      message: 'refusal 49',
    });
    expect(writes()).toHaveLength(2);
  });
});
