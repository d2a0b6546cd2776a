import { createHash, createHmac } from 'node:crypto';
import braintree from 'braintree';
import { describe, expect, it } from 'vitest';
import {
  challengeResponse,
  isValidChallenge,
  MAX_SIGNATURE_PAIRS,
  signaturePairs,
  verifySignature,
} from '../../../server/domain/webhooks/gwa/signature.js';

const keys = { publicKey: 'pub_one', privateKey: 'private_one' };
const previous = { publicKey: 'pub_old', privateKey: 'private_old' };
const gatewayOf = (k: typeof keys) => new braintree.BraintreeGateway({ environment: braintree.Environment.Sandbox, merchantId: 'm', ...k });
const sample = (k: typeof keys, kind = 'check', id = 'x1') =>
  gatewayOf(k).webhookTesting.sampleNotification(kind as braintree.WebhookNotificationKind, id) as unknown as {
    bt_signature: string;
    bt_payload: string;
  };

describe('gwa webhook signature', () => {
  it("when the provider's SDK signs a payload, then it verifies with and without the trailing newline", () => {
    const s = sample(keys);
    expect(verifySignature(s.bt_signature, s.bt_payload, [keys])).toEqual({ ok: true, publicKey: 'pub_one' });
    expect(verifySignature(s.bt_signature, s.bt_payload.replace(/\n$/, ''), [keys])).toEqual({ ok: true, publicKey: 'pub_one' });
  });

  it('when the signature holds several pairs, then the pair with the merchant key is used and pieces without | are ignored', () => {
    const s = sample(keys);
    const other = sample(previous).bt_signature;
    expect(verifySignature(`garbage&${other}&${s.bt_signature}`, s.bt_payload, [keys])).toEqual({ ok: true, publicKey: 'pub_one' });
    expect(signaturePairs('a|1&nopipe&b|2')).toEqual([
      { publicKey: 'a', hex: '1' },
      { publicKey: 'b', hex: '2' },
    ]);
  });

  it('when no pair names an accepted public key, then no_matching_public_key; when the hex differs, then signature_mismatch', () => {
    const s = sample(keys);
    expect(verifySignature(s.bt_signature, s.bt_payload, [previous])).toEqual({ ok: false, reason: 'no_matching_public_key' });
    expect(verifySignature(s.bt_signature, s.bt_payload, [{ publicKey: 'pub_one', privateKey: 'other' }])).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
    expect(verifySignature(s.bt_signature.toUpperCase().replace('PUB_ONE', 'pub_one'), s.bt_payload, [keys])).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
    const tampered = `${s.bt_payload.slice(0, 10)}A${s.bt_payload.slice(11)}`;
    expect(verifySignature(s.bt_signature, tampered === s.bt_payload ? `B${tampered.slice(1)}` : tampered, [keys]).ok).toBe(false);
  });

  it('when the payload has characters outside base64 and newline, then malformed_payload', () => {
    const s = sample(keys);
    expect(verifySignature(s.bt_signature, `${s.bt_payload} `, [keys])).toEqual({ ok: false, reason: 'malformed_payload' });
    expect(verifySignature(s.bt_signature, '', [keys])).toEqual({ ok: false, reason: 'malformed_payload' });
  });

  it('when the previous key pair is still accepted, then its signatures verify', () => {
    const s = sample(previous);
    expect(verifySignature(s.bt_signature, s.bt_payload, [keys, previous])).toEqual({ ok: true, publicKey: 'pub_old' });
  });

  it("when a challenge is answered, then it equals the provider SDK's own answer", () => {
    const challenge = 'abcdef0123456789abcd';
    expect(isValidChallenge(challenge)).toBe(true);
    expect(challengeResponse(keys, challenge)).toBe(
      (gatewayOf(keys).webhookNotification as unknown as { verify(c: string): string }).verify(challenge),
    );
    for (const bad of ['abc', 'ABCDEF0123456789ABCD', `${'a'.repeat(33)}`, 'g'.repeat(20)]) expect(isValidChallenge(bad)).toBe(false);
  });

  it('when many pairs name the key, then each is checked against signatures computed once, equal to the SDK form over the payload with and without a newline', () => {
    const keys = { publicKey: 'pub_one', privateKey: 'priv_one' };
    const payload = `${Buffer.from('<notification/>'.repeat(2_000)).toString('base64')}`;
    const sign = (data: string) =>
      `pub_one|${createHmac('sha1', createHash('sha1').update('priv_one').digest()).update(data).digest('hex')}`;
    const wrong = `pub_one|${'0'.repeat(40)}`;
    for (const right of [sign(payload), sign(`${payload}\n`)])
      expect(verifySignature([...Array<string>(MAX_SIGNATURE_PAIRS - 1).fill(wrong), right].join('&'), payload, [keys])).toEqual({
        ok: true,
        publicKey: 'pub_one',
      });
    expect(verifySignature(Array<string>(MAX_SIGNATURE_PAIRS).fill(wrong).join('&'), payload, [keys])).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
    expect(
      verifySignature(
        Array<string>(MAX_SIGNATURE_PAIRS + 1)
          .fill(sign(payload))
          .join('&'),
        payload,
        [keys],
      ),
    ).toEqual({
      ok: false,
      reason: 'too_many_pairs',
    });
  });
});
