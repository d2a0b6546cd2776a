import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
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

/** A Luhn-valid number of `length` digits starting with `prefix` (random middle, computed check digit). */
function withCheckDigit(prefix: string, middle: readonly number[], length: number): string {
  const body = (prefix + middle.join('')).slice(0, length - 1);
  for (let check = 0; check <= 9; check++) if (passesLuhn(`${body}${check}`)) return `${body}${check}`;
  throw new Error('unreachable: one check digit always passes');
}

/** Issuer prefixes and lengths of the card brands (ISO/IEC 7812 ranges): every length from 13 to 19 occurs. */
const BRANDS: readonly { prefixes: readonly string[]; lengths: readonly number[] }[] = [
  { prefixes: ['4'], lengths: [13, 16, 19] }, // Visa
  { prefixes: ['51', '55', '2221', '2720'], lengths: [16] }, // Mastercard
  { prefixes: ['34', '37'], lengths: [15] }, // American Express
  { prefixes: ['36', '300', '305'], lengths: [14] }, // Diners Club
  { prefixes: ['6011', '65'], lengths: [16, 19] }, // Discover
  { prefixes: ['3528', '3589'], lengths: [16, 17, 18, 19] }, // JCB
  { prefixes: ['62'], lengths: [16, 17, 18, 19] }, // UnionPay
  { prefixes: ['6759', '50'], lengths: [13, 17, 18, 19] }, // Maestro
];

/** How each length is printed on cards and receipts. */
const PRINTED_GROUPS: Readonly<Record<number, readonly number[]>> = {
  13: [4, 4, 5],
  14: [4, 6, 4],
  15: [4, 6, 5],
  16: [4, 4, 4, 4],
  17: [4, 4, 4, 5],
  18: [4, 4, 4, 6],
  19: [4, 4, 4, 4, 3],
};

const testPan = fc
  .constantFrom(...BRANDS.flatMap((b) => b.prefixes.flatMap((prefix) => b.lengths.map((length) => ({ prefix, length })))))
  .chain(({ prefix, length }) =>
    fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 19, maxLength: 19 }).map((middle) => withCheckDigit(prefix, middle, length)),
  );

/** Group sizes adding up to `length`: the printed layout, or any split into groups of 3 to 8 digits. */
const layoutOf = (length: number) =>
  fc.oneof(
    fc.constant(PRINTED_GROUPS[length]!),
    fc.array(fc.integer({ min: 3, max: 8 }), { minLength: 1, maxLength: 7 }).map((sizes) => {
      const groups: number[] = [];
      let left = length;
      for (const size of sizes) {
        if (left - size < 3) break;
        groups.push(size);
        left -= size;
      }
      return [...groups, left];
    }),
  );

/** What people type, print or paste between the groups of a card number (`''`: the groups run together). */
const SEPARATORS = [
  '',
  ' ',
  '  ',
  '-',
  ' - ',
  '.',
  '\t',
  '\n',
  '\r\n',
  '\u00a0', // no-break space
  '\u2009', // thin space
  '\u202f', // narrow no-break space
  '\u3000', // ideographic space
  '\u200b', // zero-width space
  '\u00ad', // soft hyphen
  '\u2013', // en dash
  ' \u2013 ',
  '\u2014', // em dash
  ' \u2014 ',
  '\u2212', // minus sign
  '\uff0d', // full-width hyphen-minus
] as const;

const fullWidth = (text: string) => text.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d)));

/** Text around a card number in a memo or description (never digits glued to its first digit). */
const BEFORE = ['', 'card ', 'Paid by card: ', 'Karte\u00a0', 'カード番号：', 'ref 2025 ', 'exp 12/30 ', '(', '"'];
const AFTER = ['', ' exp 12/30', ', thanks', ' 123', ' CVV 123', '\n', ')', '.'];

/** A test PAN as someone might write it: grouped with random separators, digits glued to the last group, in running text. */
const writtenPan = testPan.chain((pan) =>
  fc
    .record({
      layout: layoutOf(pan.length),
      separators: fc.array(fc.constantFrom(...SEPARATORS), { minLength: 6, maxLength: 6 }),
      glued: fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 3 }),
      fullWidth: fc.boolean(),
      before: fc.constantFrom(...BEFORE),
      after: fc.constantFrom(...AFTER),
    })
    .map(({ layout, separators, glued, fullWidth: wide, before, after }) => {
      let written = '';
      let offset = 0;
      layout.forEach((size, i) => {
        written += (i === 0 ? '' : separators[i - 1]) + pan.slice(offset, offset + size);
        offset += size;
      });
      // A plain 13-19 digit group is checked as a whole only (docs/decisions.md): digits glued to an ungrouped PAN are a separate property.
      const grouped = written !== pan;
      const digits = `${written}${grouped ? glued.join('') : ''}`;
      return { pan, text: `${before}${wide ? fullWidth(digits) : digits}${after}` };
    }),
);

const digitText = (min: number, max: number) => fc.integer({ min, max }).map(String);
const twoDigits = (min: number, max: number) => fc.integer({ min, max }).map((n) => String(n).padStart(2, '0'));

const date = fc
  .record({ year: fc.integer({ min: 1990, max: 2099 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 28 }) })
  .chain(({ year, month, day }) => {
    const mm = String(month).padStart(2, '0');
    const dd = String(day).padStart(2, '0');
    return fc.constantFrom(
      `${year}-${mm}-${dd}`,
      `${dd}.${mm}.${year}`,
      `${day}.${month}.${year}`,
      `${mm}/${dd}/${year}`,
      `${dd}-${mm}-${year}`,
      `${mm}-${dd}-${year}`,
      `${year}.${mm}.${dd}`,
      `${year}-${mm}-${dd}T10:00:00.000Z`,
    );
  });
/** A compact date (`20250131`) is 8 plain digits, not removed before scanning: two of them joined by a separator are a 16-digit run. */
const compactDate = fc
  .date({ min: new Date('1990-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10).replace(/-/g, ''));
const dateOrRange = fc.oneof(
  date,
  compactDate,
  fc
    .tuple(date, fc.constantFrom(' - ', ' – ', ' — ', '–', ' to ', ' bis ', '\n', '  '), date)
    .map(([from, joiner, to]) => `${from}${joiner}${to}`),
);

const phoneNumber = fc.oneof(
  fc.tuple(digitText(200, 999), digitText(200, 999), digitText(0, 9999)).map(([a, b, c]) => `+1 (${a}) ${b}-${c.padStart(4, '0')}`),
  fc.tuple(digitText(200, 999), digitText(200, 999), digitText(0, 9999)).map(([a, b, c]) => `+1 ${a}-${b}-${c.padStart(4, '0')}`),
  fc.tuple(digitText(200, 999), digitText(200, 999), digitText(0, 9999)).map(([a, b, c]) => `${a}.${b}.${c.padStart(4, '0')}`),
  fc.tuple(digitText(1000, 9999), digitText(1000, 9999)).map(([a, b]) => `+44 20 ${a} ${b}`),
  fc.tuple(digitText(7000, 7999), digitText(100000, 999999)).map(([a, b]) => `+44 ${a} ${b}`),
  fc.tuple(digitText(10, 99), digitText(1000000, 99999999)).map(([a, b]) => `+49 ${a} ${b}`),
  fc.tuple(digitText(1, 9), twoDigits(0, 99), twoDigits(0, 99), twoDigits(0, 99), twoDigits(0, 99)).map((p) => `+33 ${p.join(' ')}`),
  fc.tuple(digitText(10, 99), digitText(1000, 9999), digitText(1000, 9999)).map(([a, b, c]) => `+81 ${a}-${b}-${c}`),
);

/** Order, invoice and purchase-order numbers of up to 12 digits, with the prefixes and year parts they are printed with. */
const orderNumber = fc.oneof(
  fc
    .tuple(fc.constantFrom('INV-', 'SO-', 'RE-', 'Rechnung '), digitText(2000, 2099), twoDigits(0, 99), digitText(0, 999999))
    .map(([prefix, year, _, n]) => `${prefix}${year}-${n.padStart(6, '0')}`),
  fc
    .tuple(fc.constantFrom('PO ', 'PO-', 'Order #', 'ORD/', 'Bestellung Nr. ', '#'), fc.bigInt({ min: 1n, max: 999_999_999_999n }))
    .map(([prefix, n]) => `${prefix}${n}`),
);

const uuid = fc.oneof(
  fc.uuid(),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.tuple(fc.constantFrom('evt_', 'ord_', 'pi_', ''), fc.uuid()).map(([p, u]) => `${p}${u}`),
);

const amount = fc
  .tuple(fc.integer({ min: 0, max: 9_999_999 }), twoDigits(0, 99))
  .map(([whole, cents]) => `${whole.toLocaleString('en-US').replace(/,/g, ' ')}.${cents} EUR`);

/** Ordinary text with numbers in it, the pieces joined the way sentences and lists join them. */
const ordinaryText = fc
  .array(fc.oneof(uuid, orderNumber, dateOrRange, phoneNumber, amount), { minLength: 1, maxLength: 5 })
  .chain((pieces) =>
    fc
      .array(fc.constantFrom(', ', '; ', ' and ', ' | ', ': ', ' / ', ' on ', ', call '), {
        minLength: pieces.length,
        maxLength: pieces.length,
      })
      .map((joiners) => pieces.map((piece, i) => (i === 0 ? piece : `${joiners[i]}${piece}`)).join('')),
  );

describe('card-number detection', () => {
  it('when a valid test PAN of any brand and length is written in any layout, then it is card data', () => {
    fc.assert(
      fc.property(writtenPan, ({ text }) => {
        expect(containsCardNumber(text)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('when a text is exactly a 13-digit PAN and nothing else, then it is card data: the shortest text the scan reads', () => {
    // Text shorter than 13 characters skips the scan (card-numbers.ts); a bare 13-digit PAN is the boundary.
    expect(containsCardNumber('4222222222222')).toBe(true);
    expect(containsCardNumber('４２２２２２２２２２２２２')).toBe(true);
    expect(containsCardNumber('422222222222')).toBe(false);
  });

  it('when an ungrouped PAN is glued to other digits into a group over 19 digits, then it is card data', () => {
    fc.assert(
      fc.property(
        testPan,
        fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 6 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 6 }),
        (pan, before, after) => {
          fc.pre(before.length + pan.length + after.length > 19);
          expect(containsCardNumber(`card ${before.join('')}${pan}${after.join('')} paid`)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('when text holds UUIDs, order numbers, dates and date ranges, phone numbers and amounts, then it passes', () => {
    fc.assert(
      fc.property(ordinaryText, (text) => {
        expect(containsCardNumber(text)).toBe(false);
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['4111 1111 1111 1111', 'the Visa test PAN in its printed layout'],
    ['41111111  11111111', 'two groups split by a double space'],
    ['4111 - 1111 - 1111 - 1111', 'groups split by spaced dashes'],
    ['4111 1111 1111 1111123', 'a CVV glued to the last group'],
    ['4111\u00ad1111\u200b1111\u30001111', 'soft hyphen, zero-width and ideographic spaces'],
  ])('when a string holds %s (%s), then it is card data', (text) => {
    expect(containsCardNumber(text)).toBe(true);
  });

  it.each([
    ['123456789012', 'a 12-digit reference'],
    ['4111111111111112', 'a 16-digit run failing Luhn'],
    [`${'4111111111111111'.slice(0, 15)}2`, 'a 16-digit group failing Luhn as a whole (its parts are not scanned)'],
    ['41111111111111111', 'a PAN with one digit glued, ungrouped (a 17-digit group is checked whole)'],
    ['2025-01-10 1234 5679', 'a date followed by two groups'],
    ['2025-01-01 - 2025-01-31', 'a date range'],
    ['0000000000000000', 'zeros (no card number starts with 0)'],
    ['4111 / 1111 / 1111 / 1111', 'groups split by slashes and spaces'],
    ['4111    1111 1111 1111', 'a gap of four spaces (a table column) ends a run'],
    ['12345678-9012-3456-7890-123456789012', 'a UUID made only of digits'],
    ['evt_b6bb288f-1436-4407-9813-021ef4f1bb03', 'a UUID whose middle groups line up as 4-4-4-3 and pass Luhn'],
    ['req_ab4111111111111111cdef0123456789', 'a request id whose hex holds a Luhn-valid run'],
    ['req_4111111111111111aaaaaaaaaaaaaaaa 2025', 'a request id followed by a year'],
    ['r1_ab4111111111111111cdef0123456789abcdefab', 'an invoice revision (echoed as expectedRevision) whose hex holds a Luhn-valid run'],
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
  it('when a name has no issue, then that verdict is remembered like any other: each name is judged once', () => {
    const judged: string[] = [];
    const names = rememberedNameVerdicts((name) => (judged.push(name), name === 'password' ? 'refused' : undefined));
    for (let i = 0; i < 3; i++) expect([names.verdict('amount'), names.verdict('password')]).toEqual([undefined, 'refused']);
    expect(judged).toEqual(['amount', 'password']);
  });

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
  it('when objects are not plain (own prototype, none at all), then only their own keys are walked, as in a parsed body', () => {
    const inherited = Object.assign(Object.create({ note: 'pay with 4111 1111 1111 1111' }) as object, { ref: 'ok' });
    expect(findSecrets({ inherited })).toEqual([]);
    const bare = Object.assign(Object.create(null) as object, { note: 'pay with 4111 1111 1111 1111' });
    expect(findSecrets({ bare })).toEqual([
      { code: 'card_data_not_allowed', path: 'bare.note', message: 'Card numbers must never be sent to this service' },
    ]);
  });

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
