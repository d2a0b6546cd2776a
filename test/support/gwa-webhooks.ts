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
