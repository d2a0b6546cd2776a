import { describe, expect, it } from 'vitest';
import { containsCardNumber, findSecrets, isSecretName, passesLuhn } from '../../../server/domain/guard/secrets-guard.js';

describe('card-number detection', () => {
  it.each([
    ['4111111111111111', 'a Visa test PAN'],
    ['4111 1111 1111 1111', 'grouped by spaces'],
    ['4111-1111-1111-1111', 'grouped by dashes'],
    ['5555555555554444', 'a Mastercard test PAN'],
    ['378282246310005', 'a 15-digit Amex test PAN'],
    ['6011000990139424', 'a Discover test PAN'],
    ['4000056655665556', 'a Visa debit test PAN'],
    ['card 4111111111111111 exp 12/30', 'inside free text'],
    ['4222222222222', 'a 13-digit PAN'],
    ['3782 822463 10005', 'an Amex PAN grouped 4-6-5'],
    ['ref 1234-4111111111111111', 'a plain PAN after a dash'],
  ])('when a string holds %s (%s), then it is card data', (text) => {
    expect(containsCardNumber(text)).toBe(true);
  });

  it.each([
    ['123456789012', 'a 12-digit reference'],
    ['4111111111111112', 'a 16-digit run failing Luhn'],
    ['12345678901234567890123', 'a 23-digit run (longer than any PAN)'],
    ['4111 1111 1111 1111 0000', 'a PAN inside a 20-digit run'],
    ['INV-2026-000123', 'an invoice number'],
    ['2026-01-10T10:00:00.000Z', 'a timestamp'],
    ['41111111  11111111', 'two groups split by a double space'],
    ['12345678-9012-3456-7890-123456789012', 'a UUID made only of digits'],
    ['evt_b6bb288f-1436-4407-9813-021ef4f1bb03', 'a UUID whose middle groups line up as 4-4-4-3 and pass Luhn'],
    ['req_ab4111111111111111cdef0123456789', 'a request id whose hex holds a Luhn-valid run'],
    ['41111111-1111-1111', 'digits grouped 8-4-4, not as a card'],
    ['+1 415-555-0132', 'a phone number'],
  ])('when a string holds %s (%s), then it passes', (text) => {
    expect(containsCardNumber(text)).toBe(false);
  });

  it('when digits are checked, then Luhn is computed from the right', () => {
    expect(passesLuhn('79927398713')).toBe(true);
    expect(passesLuhn('79927398710')).toBe(false);
  });
});

describe('secret-bearing property names', () => {
  it.each([
    'paymentMethodNonce',
    'payment_method_nonce',
    'nonce',
    'cardNumber',
    'card_number',
    'pan',
    'cvv',
    'CVC',
    'cvv2',
    'securityCode',
    'accessToken',
    'refresh_token',
    'clientSecret',
    'client_secret',
    'applicationSecret',
    'apiKey',
    'api_key',
    'password',
    'privateKey',
    'private_key',
    'authorization',
    'Authorization',
    'token',
    'secret',
  ])('when a property is named %s, then it is refused', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  it.each(['invoiceNumber', 'productCode', 'idempotencyKey', 'eventId', 'transactionId', 'customerReference', 'description', 'quantity', 'keywords'])(
    'when a property is named %s, then it passes',
    (name) => {
      expect(isSecretName(name)).toBe(false);
    },
  );
});

describe('findSecrets', () => {
  it('when card data and secrets sit at any depth, then every path is named and no value is echoed', () => {
    const body = {
      invoice: { lineItems: [{ description: 'ok' }, { description: 'pay with 4111 1111 1111 1111' }] },
      options: { nested: { deeper: [{ client_secret: 'pi_123_secret_abc' }] } },
      '5555555555554444': 'key is a PAN',
      note: 'reference 123456789012',
    };
    const issues = findSecrets(body);
    expect(issues).toEqual([
      { code: 'card_data_not_allowed', path: 'invoice.lineItems[1].description', message: 'Card numbers must never be sent to this service' },
      {
        code: 'credential_not_allowed',
        path: 'options.nested.deeper[0].client_secret',
        message: 'Credentials, payment-method nonces and card security data must never be sent to this service',
      },
      { code: 'card_data_not_allowed', path: '5555555555554444', message: 'Card numbers must never be sent to this service' },
    ]);
    expect(JSON.stringify(issues)).not.toContain('pi_123_secret_abc');
  });

  it('when the body holds only ordinary values, then there is nothing to refuse', () => {
    expect(findSecrets({ amountMinor: 4111111111111111, ref: '123456789012', list: [1, 2, 'x'] })).toEqual([]);
    expect(findSecrets(undefined)).toEqual([]);
  });
});
