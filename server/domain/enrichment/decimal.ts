/**
 * Exact decimal arithmetic on bigint. Money never touches floating point: a
 * quantity of "0.1" times 3 minor units must be exactly 0.3, which a double cannot hold.
 */

/** `units / 10^scale`, normalized so the fraction has no trailing zeros. */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

const DECIMAL_PATTERN = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/** Parses a decimal string such as `"2"`, `"0.50"` or `"-1.25"`; `null` when it is not one. */
export function parseDecimal(text: string): Decimal | null {
  const plain = shortWholeNumber(text);
  if (plain !== null) return { units: BigInt(plain), scale: 0 };
  const match = DECIMAL_PATTERN.exec(text);
  if (!match) return null;
  const [, sign, whole = '0', rawFraction = ''] = match;
  let scale = rawFraction.length;
  while (scale > 0 && rawFraction.charCodeAt(scale - 1) === ZERO) scale -= 1;
  const magnitude = BigInt(scale === 0 ? whole : whole + rawFraction.slice(0, scale));
  return { units: sign === '-' ? -magnitude : magnitude, scale };
}

const ZERO = 0x30;
const NINE = 0x39;

/**
 * The value of a whole number written plainly (`"0"`, `"42"`: no sign, fraction or
 * leading zero) in at most 15 digits, so always a safe integer; else `null`. Most
 * quantities are such numbers: read digit by digit, they need no pattern match, no
 * captured parts and no string-to-bigint parse.
 */
function shortWholeNumber(text: string): number | null {
  if (text.length === 0 || text.length > 15 || (text.length > 1 && text.charCodeAt(0) === ZERO)) return null;
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < ZERO || code > NINE) return null;
    value = value * 10 + (code - ZERO);
  }
  return value;
}

/** Canonical text of a decimal: no trailing fraction zeros (`"2.50"` becomes `"2.5"`). */
export function formatDecimal(value: Decimal): string {
  const negative = value.units < 0n;
  const digits = (negative ? -value.units : value.units).toString().padStart(value.scale + 1, '0');
  const whole = digits.slice(0, digits.length - value.scale);
  const fraction = digits.slice(digits.length - value.scale);
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

export function isPositive(value: Decimal): boolean {
  return value.units > 0n;
}

/**
 * quantity × unit amount in minor units, or `null` when the product is not a
 * whole number of minor units (the caller reports it; rounding would invent money).
 */
export function multiplyToMinor(quantity: Decimal, unitAmountMinor: number | bigint): bigint | null {
  const product = quantity.units * BigInt(unitAmountMinor);
  if (quantity.scale === 0) return product;
  const divisor = 10n ** BigInt(quantity.scale);
  return product % divisor === 0n ? product / divisor : null;
}

/** Minor units as a major-unit decimal string with exactly `fractionDigits` digits: 1234 → `"12.34"`. */
export function formatMinor(minor: number | bigint, fractionDigits = 2): string {
  const value = BigInt(minor);
  if (value < 0n) throw new RangeError('formatMinor expects a nonnegative amount');
  const digits = value.toString().padStart(fractionDigits + 1, '0');
  const whole = digits.slice(0, digits.length - fractionDigits);
  return fractionDigits === 0 ? whole : `${whole}.${digits.slice(digits.length - fractionDigits)}`;
}

/** Inverse of `formatMinor`: `"12.34"` → 1234n; `null` unless exactly `fractionDigits` digits follow the point. */
export function parseMinor(text: string, fractionDigits = 2): bigint | null {
  const pattern = new RegExp(`^(0|[1-9][0-9]*)\\.([0-9]{${fractionDigits}})$`);
  const match = pattern.exec(text);
  return match ? BigInt(`${match[1]}${match[2]}`) : null;
}

/**
 * Rounds numerator / denominator (both nonnegative) half to even: exact halves go
 * to the even neighbour, everything else to the nearest integer.
 */
export function roundHalfEven(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const twiceRemainder = (numerator % denominator) * 2n;
  if (twiceRemainder > denominator) return quotient + 1n;
  if (twiceRemainder < denominator) return quotient;
  return quotient % 2n === 0n ? quotient : quotient + 1n;
}

/**
 * An exact integer amount: a plain number while it is a safe integer, a bigint past that.
 * Arithmetic on safe integers is exact whenever its result is a safe integer too (a
 * double rounds only from 2^53 on, and a rounded result is never a safe integer), so
 * amounts of ordinary size are added without making a bigint for each.
 */
export type ExactAmount = number | bigint;

export function plus(a: ExactAmount, b: ExactAmount): ExactAmount {
  if (typeof a === 'number' && typeof b === 'number' && Number.isSafeInteger(a) && Number.isSafeInteger(b)) {
    const result = a + b;
    if (Number.isSafeInteger(result)) return result;
  }
  return BigInt(a) + BigInt(b);
}

export function minus(a: ExactAmount, b: ExactAmount): ExactAmount {
  if (typeof a === 'number' && typeof b === 'number' && Number.isSafeInteger(a) && Number.isSafeInteger(b)) {
    const result = a - b;
    if (Number.isSafeInteger(result)) return result;
  }
  return BigInt(a) - BigInt(b);
}

export function times(a: ExactAmount, b: ExactAmount): ExactAmount {
  if (typeof a === 'number' && typeof b === 'number' && Number.isSafeInteger(a) && Number.isSafeInteger(b)) {
    const result = a * b;
    if (Number.isSafeInteger(result)) return result;
  }
  return BigInt(a) * BigInt(b);
}

export function sameAmount(a: ExactAmount, b: ExactAmount): boolean {
  return typeof a === typeof b ? a === b : BigInt(a) === BigInt(b);
}

export function sum(values: Iterable<bigint>): bigint {
  let total = 0n;
  for (const value of values) total += value;
  return total;
}
