import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/harness.js';
import { adminCall, createTenant } from '../../support/tenants.js';
import { deliver, newKeys, sampleNotification, type GwaKeys } from '../../support/gwa-webhooks.js';
import { deliverGwc, gwcEvent, newPaymentIntentId, newSecret, paymentIntent, signed } from '../../support/gwc-webhooks.js';

const hex = (keys: GwaKeys, payload: string) =>
  createHmac('sha1', createHash('sha1').update(keys.privateKey).digest()).update(payload).digest('hex');

describe('gwa webhook: bounded work per unauthenticated request', () => {
  const app = useTestApp({
    SVC_PUBLIC_URL: 'https://svc.example.test',
    SVC_WEBHOOK_RATE_LIMIT_PER_SECOND: '1',
    SVC_WEBHOOK_RATE_LIMIT_BURST: '3',
  });

  async function endpoint() {
    const tenant = await createTenant(app, { provider: 'gwa', scopes: ['payments:write'] });
    const keys = newKeys();
    const created = await adminCall<{ id: string; url: string }>(app, 'webhookEndpoints.create', {
      integrationId: tenant.integrationId,
      ...keys,
    });
    return { keys, path: new URL(created.url).pathname };
  }

  it('when a signature holds more than 16 pairs, then 400 invalid_signature before any is checked; 16 pairs with the right one last are accepted', async () => {
    const { keys, path } = await endpoint();
    const sample = sampleNotification(keys, 'check', '');
    const wrong = `${keys.publicKey}|${'0'.repeat(40)}`;
    const right = `${keys.publicKey}|${hex(keys, sample.gwa_payload)}`;
    const tooMany = await deliver(app, path, { ...sample, gwa_signature: [...Array<string>(16).fill(wrong), right].join('&') });
    const message = 'gwa_signature holds more than 16 publicKey|signature pairs';
    expect([tooMany.status, tooMany.body]).toEqual([
      400,
      { error: { type: 'validation_error', message, issues: [{ code: 'invalid_signature', path: 'gwa_signature', message }] } },
    ]);
    const sixteen = await deliver(app, path, { ...sample, gwa_signature: [...Array<string>(15).fill(wrong), right].join('&') });
    expect(sixteen.status).toBe(200);
    expect(sixteen.body).toMatchObject({ received: true, kind: 'check' });
  });

  it('when an endpoint gets a burst the provider never sends, then 429 rate_limited with Retry-After, and other endpoints are not affected', async () => {
    const a = await endpoint();
    const b = await endpoint();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await deliver(app, a.path, sampleNotification(a.keys, 'check', ''))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await deliver(app, a.path, sampleNotification(a.keys, 'check', ''));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.body).toEqual({
      error: {
        type: 'rate_limited',
        message: 'Too many deliveries to this webhook endpoint from this source (at most 1 per second, bursts up to 3); retry after 1 s',
        issues: [],
      },
    });
    expect((await deliver(app, b.path, sampleNotification(b.keys, 'check', ''))).status).toBe(200);
  });

  it('when a gwc endpoint gets a burst, then the same per-endpoint limit answers 429 before any signature is checked', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const secret = newSecret();
    const created = await adminCall<{ id: string; url: string }>(app, 'webhookEndpoints.create', {
      integrationId: tenant.integrationId,
      signingSecret: secret,
    });
    const path = new URL(created.url).pathname;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const event = gwcEvent('payment_intent.processing', paymentIntent({ id: newPaymentIntentId() }));
      statuses.push((await deliverGwc(app, path, signed(secret, event))).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    // A delivery with no valid signature is refused by the limit too: no HMAC is computed for it.
    const unsigned = await deliverGwc(app, path, { body: '{}', header: 't=1,v1=00' });
    expect({ status: unsigned.status, retryAfter: unsigned.headers.get('retry-after'), type: unsigned.body.error.type }).toEqual({
      status: 429,
      retryAfter: '1',
      type: 'rate_limited',
    });
  });
});
