import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  containsCardNumber,
  containsSecretValue,
  findSecrets,
  isSecretName,
  MAX_NESTING_DEPTH,
  passesLuhn,
  rememberedNameStats,
} from '../../../server/domain/guard/secrets-guard.js';
import { rememberedNameVerdicts } from '../../../server/domain/guard/name-verdicts.js';

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
    ['4111 1111 1111 1111 123', 'a grouped PAN followed by a CVV group'],
    ['4111-1111-1111-1111-1225', 'a grouped PAN followed by an expiry group'],
    ['2025 4111 1111 1111 1111', 'a grouped PAN preceded by a year group'],
    ['4111 1111 1111 1111 0000', 'a grouped PAN inside a 20-digit run'],
    ['41111111-1111-1111', 'a PAN grouped 8-4-4'],
    ['4111.1111.1111.1111', 'grouped by dots'],
    ['4111\u00a01111\u00a01111\u00a01111', 'grouped by no-break spaces'],
    ['4111\u202f1111\u202f1111\u202f1111', 'grouped by narrow no-break spaces'],
    ['４１１１１１１１１１１１１１１１', 'written in full-width digits'],
    ['４１１１ １１１１ １１１１ １１１１', 'full-width digits grouped by spaces'],
    ['41111111111111111225', 'a PAN glued to an expiry (a 20-digit group)'],
    ['000041111111111111111', 'a PAN after zero padding'],
    ['paid with 4111 1111 1111 1111, thanks', 'a grouped PAN followed by a comma'],
  ])('when a string holds %s (%s), then it is card data', (text) => {
    expect(containsCardNumber(text)).toBe(true);
  });

  it.each([
    ['123456789012', 'a 12-digit reference'],
    ['4111111111111112', 'a 16-digit run failing Luhn'],
    [`${'4111111111111111'.slice(0, 15)}2`, 'a 16-digit group failing Luhn as a whole (its parts are not scanned)'],
    ['2025-01-10', 'an ISO date'],
    ['10.01.2025 12:30', 'a dotted date and a time'],
    ['1 234 567.89', 'an amount grouped by spaces'],
    ['2025-01-10 1234 5679', 'a date followed by two groups (16 digits, not Luhn-valid)'],
    ['0000000000000000', 'zeros (no card number starts with 0)'],
    ['4111 / 1111 / 1111 / 1111', 'groups split by slashes and spaces'],
    ['INV-2026-000123', 'an invoice number'],
    ['2026-01-10T10:00:00.000Z', 'a timestamp'],
    ['41111111  11111111', 'two groups split by a double space'],
    ['12345678-9012-3456-7890-123456789012', 'a UUID made only of digits'],
    ['evt_b6bb288f-1436-4407-9813-021ef4f1bb03', 'a UUID whose middle groups line up as 4-4-4-3 and pass Luhn'],
    ['req_ab4111111111111111cdef0123456789', 'a request id whose hex holds a Luhn-valid run'],
    ['req_4111111111111111aaaaaaaaaaaaaaaa 2025', 'a request id followed by a year'],
    ['r1_ab4111111111111111cdef0123456789abcdefab', 'an invoice revision (echoed as expectedRevision) whose hex holds a Luhn-valid run'],
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
    'authToken',
    'sessionToken',
    'api_token',
    'bearer',
    'sharedSecret',
    'credentials',
    'csrfToken',
  ])('when a property is named %s, then it is refused', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  it.each([
    'invoiceNumber',
    'productCode',
    'idempotencyKey',
    'eventId',
    'transactionId',
    'customerReference',
    'description',
    'quantity',
    'keywords',
  ])('when a property is named %s, then it passes', (name) => {
    expect(isSecretName(name)).toBe(false);
  });
});

describe('secret-shaped values', () => {
  it.each([
    ['sk_live_' + '4eC39HqLyjWDarjtT1zdp7dc', 'a live secret key'],
    ['key: rk_test_51Habcdefghijklmnop', 'a restricted key in text'],
    ['whsec_' + 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'a webhook signing secret'],
    [`svck_sandbox_0123456789abcdef_${'a'.repeat(64)}`, "this service's own API key"],
    ['Authorization: Bearer abcdefghijklmnopqrstuvwx', 'a bearer credential'],
    ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl', 'a JSON Web Token'],
  ])('when a string holds %s (%s), then it is a credential', (text) => {
    expect(containsSecretValue(text)).toBe(true);
  });

  it.each([
    ['task_live_abcdefghijkl', 'a word ending in sk_'],
    ['pk_live_abcdefghijklmnop', 'a publishable key'],
    ['Bearer of good news', 'prose'],
    ['svck_sandbox_0123456789abcdef', 'a key prefix alone (shown in listings)'],
  ])('when a string holds %s (%s), then it passes', (text) => {
    expect(containsSecretValue(text)).toBe(false);
  });
});

describe('name verdict cache', () => {
  it('when bodies carry long or many distinct property names, then the cache keeps only short names within its budget', () => {
    for (let i = 0; i < 50; i++) findSecrets({ [`${'n'.repeat(100_000)}${i}`]: 1 });
    for (let i = 0; i < 30_000; i++) findSecrets({ [`name_${i}_${'x'.repeat(40)}`]: 1 });
    const stats = rememberedNameStats();
    expect(stats.longest).toBeLessThanOrEqual(64);
    expect(stats.names).toBeLessThanOrEqual(10_000);
    expect(stats.chars).toBeLessThanOrEqual(128 * 1024);
    expect(findSecrets({ [`${'n'.repeat(100_000)}password`]: 1 })).toEqual([expect.objectContaining({ code: 'credential_not_allowed' })]);
  });

  it('when 64 bodies each carry a distinct 1 MB property name, then no name stays in memory after the request', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    // The memo itself: a body's object would keep its keys alive through V8's own map transitions for a while.
    const names = rememberedNameVerdicts((name) => name.endsWith('password'));
    for (let i = 0; i < 64; i++) names.verdict(`${i}${'n'.repeat(1024 * 1024)}`);
    gc();
    const retained = process.memoryUsage().heapUsed - before;
    expect(retained).toBeLessThan(16 * 1024 * 1024);
  });
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
      {
        code: 'card_data_not_allowed',
        path: 'invoice.lineItems[1].description',
        message: 'Card numbers must never be sent to this service',
      },
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

  it('when a secret-shaped value sits in a free-text field, then its path is named', () => {
    expect(findSecrets({ note: 'use sk_live_4eC39HqLyjWDarjtT1zdp7dc' })).toEqual([
      {
        code: 'credential_not_allowed',
        path: 'note',
        message: 'Credentials, payment-method nonces and card security data must never be sent to this service',
      },
    ]);
  });

  it('when a body nests 10,000 levels deep, then one issue names where the limit was hit, without exhausting the stack', () => {
    const deep = JSON.parse('['.repeat(10_000) + ']'.repeat(10_000));
    expect(findSecrets(deep)).toEqual([
      {
        code: 'nesting_too_deep',
        path: '[0]'.repeat(MAX_NESTING_DEPTH),
        message: 'Objects and arrays may be nested at most 64 levels deep',
      },
    ]);
    const objects = JSON.parse(`${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`);
    expect(findSecrets(objects)).toEqual([
      {
        code: 'nesting_too_deep',
        path: Array(MAX_NESTING_DEPTH).fill('a').join('.'),
        message: 'Objects and arrays may be nested at most 64 levels deep',
      },
    ]);
  });

  it('when a body nests exactly 64 levels, then it passes', () => {
    expect(findSecrets(JSON.parse('['.repeat(64) + ']'.repeat(64)))).toEqual([]);
  });
});
