import { createHash, createHmac } from 'node:crypto';
import braintree from 'braintree';
import type { TestApp, TestResponse } from './harness.js';

/** Test keys of a gwa merchant; signatures are produced by the provider's own SDK with them. */
export interface GwaKeys {
  publicKey: string;
  privateKey: string;
}

let counter = 0;
export const newKeys = (): GwaKeys => ({
  publicKey: `pubkey${++counter}x${Date.now() % 100000}`,
  privateKey: `privkey_${counter}_${Math.random().toString(36).slice(2)}`,
});

/**
 * `{gwa_signature, gwa_payload}` built by the official SDK's `webhookTesting.sampleNotification`
 * (its field names renamed), for a kind and subject id.
 */
export function sampleNotification(keys: GwaKeys, kind: string, id: string): { gwa_signature: string; gwa_payload: string } {
  const gateway = new braintree.BraintreeGateway({
    environment: braintree.Environment.Sandbox,
    merchantId: 'test_merchant',
    publicKey: keys.publicKey,
    privateKey: keys.privateKey,
  });
  const sample = gateway.webhookTesting.sampleNotification(kind as braintree.WebhookNotificationKind, id) as unknown as {
    bt_signature: string;
    bt_payload: string;
  };
  return { gwa_signature: sample.bt_signature, gwa_payload: sample.bt_payload };
}

/** POST a form-encoded delivery to an endpoint path. */
export function deliver(app: TestApp, path: string, form: Record<string, string>): Promise<TestResponse> {
  return app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
}

/** `{gwa_signature, gwa_payload}` for a notification document, signed as the provider's SDK signs (docs/provider-facts.md §1.4). */
export function signNotification(keys: GwaKeys, xml: string): { gwa_signature: string; gwa_payload: string } {
  const payload = `${Buffer.from(xml, 'utf8').toString('base64')}\n`;
  const hmac = createHmac('sha1', createHash('sha1').update(keys.privateKey).digest()).update(payload).digest('hex');
  return { gwa_signature: `${keys.publicKey}|${hmac}`, gwa_payload: payload };
}

/**
 * A transaction notification of the SDK's sample document with the fields a real one of ours would carry: its time,
 * the transaction's amount (the sample's fixed 100 is no invoice total) and one merchant account (the sample draws a
 * new one each time), signed with `signNotification`.
 */
export function transactionNotification(
  keys: GwaKeys,
  kind: string,
  transactionId: string,
  fields: { amountMinor: number; timestamp: Date; merchantAccountId: string },
): { gwa_signature: string; gwa_payload: string } {
  const sample = sampleNotification(keys, kind, transactionId);
  const xml = Buffer.from(sample.gwa_payload, 'base64')
    .toString('utf8')
    .replace(/<timestamp type="datetime">[^<]*<\/timestamp>/, `<timestamp type="datetime">${fields.timestamp.toISOString()}</timestamp>`)
    .replace(
      '<amount>100</amount>',
      `<amount>${Math.floor(fields.amountMinor / 100)}.${String(fields.amountMinor % 100).padStart(2, '0')}</amount>`,
    )
    .replace(/<merchant-account-id>[^<]*<\/merchant-account-id>/, `<merchant-account-id>${fields.merchantAccountId}</merchant-account-id>`);
  return signNotification(keys, xml);
}
