import { describe, expect, it } from 'vitest';
import {
  formatDecimal,
  formatMinor,
  minus,
  multiplyToMinor,
  parseDecimal,
  parseMinor,
  plus,
  roundHalfEven,
  sameAmount,
  times,
} from '../../../server/domain/enrichment/decimal.js';
import { codePointLength, presentText, shortenText } from '../../../server/domain/enrichment/text.js';

describe('decimal', () => {
  it.each([
    ['2', { units: 2n, scale: 0 }],
    ['2.50', { units: 25n, scale: 1 }],
    ['0.0001', { units: 1n, scale: 4 }],
    ['-1.25', { units: -125n, scale: 2 }],
    ['3.000', { units: 3n, scale: 0 }],
    ['0', { units: 0n, scale: 0 }],
    ['999999999999999', { units: 999999999999999n, scale: 0 }],
    ['12345678901234567890', { units: 12345678901234567890n, scale: 0 }],
  ])('when %s is parsed, then trailing fraction zeros are dropped', (text, expected) => {
    expect(parseDecimal(text)).toStrictEqual(expected);
  });

  it.each(['', '1.', '.5', '01', '00', '1e3', '1,5', ' 1', '1 ', '+1', '1a'])('when %j is parsed, then it is not a decimal', (text) => {
    expect(parseDecimal(text)).toBeNull();
  });

  it.each([
    ['2.50', '2.5'],
    ['0.0100', '0.01'],
    ['10', '10'],
    ['-0.5', '-0.5'],
  ])('when %s is formatted, then it reads %s', (text, expected) => {
    const parsed = parseDecimal(text);
    expect(parsed && formatDecimal(parsed)).toBe(expected);
  });

  it.each([
    ['1.5', 2, 3n],
    ['0.1', 3, null],
    ['0.0001', 10000, 1n],
    ['12345678.9', 9007199254740990, 111199989787351565208111n],
  ])('when %s × %d minor units is multiplied, then the product is %s', (quantity, unit, expected) => {
    const parsed = parseDecimal(quantity);
    expect(parsed && multiplyToMinor(parsed, unit)).toBe(expected);
  });

  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [1234, '12.34'],
    [9007199254740991, '90071992547409.91'],
  ])('when %d minor units are formatted, then they read %s', (minor, text) => {
    expect(formatMinor(minor)).toBe(text);
    expect(parseMinor(text)).toBe(BigInt(minor));
  });

  const MAX = Number.MAX_SAFE_INTEGER;
  it.each([
    ['plus', plus(1, 2), 3],
    ['plus', plus(MAX, 1), 9007199254740992n],
    ['plus', plus(MAX, MAX), 18014398509481982n],
    ['plus', plus(2n ** 60n, -(2n ** 60n)), 0n],
    ['minus', minus(0, MAX), -MAX],
    ['minus', minus(-MAX, 1), -9007199254740992n],
    ['times', times(3, 4), 12],
    ['times', times(MAX, 3), 27021597764222973n],
    ['times', times(2 ** 27, 2 ** 27), 18014398509481984n],
  ])('when exact amounts are combined (%s), then the result is exact: a number only while it is a safe integer', (_, result, expected) => {
    expect(result).toBe(expected);
  });

  it('when an exact amount is not an integer, then it throws as converting it to a bigint does', () => {
    expect(() => plus(0.5, 0.5)).toThrow(RangeError);
    expect(() => times(2, 1.5)).toThrow(RangeError);
  });

  it('when a number and a bigint hold the same amount, then they are the same amount', () => {
    expect(sameAmount(3n, 3)).toBe(true);
    expect(sameAmount(MAX, BigInt(MAX))).toBe(true);
    expect(sameAmount(MAX, 9007199254740992n)).toBe(false);
    expect(sameAmount(0, 0n)).toBe(true);
  });

  it('when a negative amount is formatted, then it throws', () => {
    expect(() => formatMinor(-1)).toThrow(RangeError);
  });

  it.each([
    [585n, 1000n, 1n],
    [5n, 10n, 0n],
    [15n, 10n, 2n],
    [25n, 10n, 2n],
    [26n, 10n, 3n],
    [24n, 10n, 2n],
  ])('when %d / %d is rounded half to even, then it is %d', (numerator, denominator, expected) => {
    expect(roundHalfEven(numerator, denominator)).toBe(expected);
  });
});

describe('text', () => {
  it('when text with an astral character is shortened, then the surrogate pair is never split', () => {
    const name = `${'a'.repeat(34)}😀b`;
    expect(shortenText(name, 35)).toBe(`${'a'.repeat(34)}😀`);
    expect(shortenText('😀'.repeat(40), 35)).toBe('😀'.repeat(35));
    expect(codePointLength('😀'.repeat(40))).toBe(40);
  });

  it('when the cut leaves trailing spaces, then they are dropped', () => {
    expect(shortenText('abc   def', 5)).toBe('abc');
    expect(shortenText('     x', 3)).toBe('   ');
  });

  it('when a value is blank, then it counts as missing', () => {
    expect(presentText('  ')).toBeNull();
    expect(presentText(null)).toBeNull();
    expect(presentText(undefined)).toBeNull();
    expect(presentText(' a ')).toBe(' a ');
  });
});
