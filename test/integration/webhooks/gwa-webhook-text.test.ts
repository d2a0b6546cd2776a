import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../../support/harness.js';
import { adminCall, createTenant } from '../../support/tenants.js';
import { deliver, newKeys, type GwaKeys } from '../../support/gwa-webhooks.js';

const sql = <T = any>(app: TestApp, query: string, params: unknown[] = []) =>
  app.orm.em.getConnection().execute(query, params) as Promise<T[]>;
const sign = (keys: GwaKeys, payload: string) =>
  `${keys.publicKey}|${createHmac('sha1', createHash('sha1').update(keys.privateKey).digest()).update(payload).digest('hex')}`;
const signedXml = (keys: GwaKeys, xml: string) => {
  const payload = `${Buffer.from(xml, 'utf8').toString('base64')}\n`;
  return { gwa_signature: sign(keys, payload), gwa_payload: payload };
};
const settled = (o: { merchant?: string; status?: string; amount?: string }) =>
  '<notification><timestamp type="datetime">2026-01-10T10:00:00Z</timestamp><kind>transaction_settled</kind>' +
  `<source-merchant-id>${o.merchant ?? 'merchant'}</source-merchant-id><subject><transaction><id>abc1</id>` +
  `<status>${o.status ?? 'settled'}</status><type>sale</type><currency-iso-code>USD</currency-iso-code>` +
  `<amount>${o.amount ?? '10.00'}</amount></transaction></subject></notification>`;

describe('gwa webhook: text the database cannot store or XML does not allow', () => {
  const app = useTestApp({ SVC_PUBLIC_URL: 'https://svc.example.test' });

  it.each([
    ['a NUL byte in <source-merchant-id>', settled({ merchant: 'merch\u0000ant' }), 'U+0000'],
    ['a NUL character reference in <status>', settled({ status: 'settled&#0;' }), 'U+0000'],
    ['a control character in <source-merchant-id>', settled({ merchant: 'merch\u0001ant' }), 'U+0001'],
    ['an escape character reference in <status>', settled({ status: 'settled&#x1B;' }), 'U+001B'],
    ['a non-character in <source-merchant-id>', settled({ merchant: 'merch\uffffant' }), 'U+FFFF'],
  ])('when a signed notification holds %s, then 400 invalid_event and nothing is stored', async (_, xml, code) => {
    const tenant = await createTenant(app, { provider: 'gwa', scopes: ['payments:write'] });
    const keys = newKeys();
    const endpoint = await adminCall<{ id: string; url: string }>(app, 'webhookEndpoints.create', {
      integrationId: tenant.integrationId,
      ...keys,
    });
    const res = await deliver(app, new URL(endpoint.url).pathname, signedXml(keys, xml));
    const message = `The payload is not acceptable XML: The document holds a character XML does not allow (${code})`;
    expect([res.status, res.body]).toEqual([
      400,
      { error: { type: 'validation_error', message, issues: [{ code: 'invalid_event', path: 'gwa_payload', message }] } },
    ]);
    expect(await sql(app, 'select count(*)::int as n from webhook_events where endpoint_id = ?', [endpoint.id])).toEqual([{ n: 0 }]);
  });
});
