import { formatDecimal, parseDecimal, type Decimal } from '../enrichment/decimal.js';

/**
 * Source decimals (major units, JSON numbers or strings) to exact minor units.
 * Only the number's text is used, never float arithmetic (docs/decisions.md,
 * "Stored invoices: mapping and readiness").
 */

/** ISO 4217 currencies whose minor unit is not 2 digits; every other code has 2. */
const EXPONENTS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/** Fraction digits of a currency's minor unit (case-insensitive code). */
export function currencyExponent(currency: string): number {
  return EXPONENTS[currency.toUpperCase()] ?? 2;
}

/** `String(n)` reproduces the provider's literal only up to 15 significant digits (IEEE 754 double). */
const MAX_SIGNIFICANT_DIGITS = 15;
const PLAIN_DECIMAL = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/**
 * The exact decimal text of a source value, or `null` when there is none: a
 * number whose shortest text needs exponent notation or more than 15 significant
 * digits may not be the literal the provider sent, so it is not trusted.
 */
export function exactDecimalText(value: unknown): string | null {
  const decimal = exactDecimal(value);
  return decimal === null ? null : formatDecimal(decimal);
}

/** The exact decimal of a source value (the rule of `exactDecimalText`), parsed once. */
function exactDecimal(value: unknown): Decimal | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  if (!PLAIN_DECIMAL.test(text)) return null;
  const digits = text.replace(/^-/, '').replace('.', '').replace(/^0+/, '');
  if (digits.length > MAX_SIGNIFICANT_DIGITS) return null;
  return parseDecimal(text);
}

const MAX_MINOR = BigInt(Number.MAX_SAFE_INTEGER);

export type MinorResult = { ok: true; minor: number } | { ok: false; reason: string };

/**
 * Major-unit source value → nonnegative safe integer of minor units, exactly.
 * More fraction digits than the currency has is refused, never rounded.
 */
export function toMinorUnits(value: unknown, exponent: number): MinorResult {
  if (value === undefined || value === null) return { ok: false, reason: 'The value is absent.' };
  const decimal = exactDecimal(value);
  if (decimal === null)
    return { ok: false, reason: `${typeof value === 'string' ? JSON.stringify(value) : String(value)} is not an exact decimal.` };
  if (decimal.scale > exponent) {
    return { ok: false, reason: `${formatDecimal(decimal)} has more than ${exponent} fraction digits.` };
  }
  const minor = decimal.units * 10n ** BigInt(exponent - decimal.scale);
  if (minor < 0n) return { ok: false, reason: `${formatDecimal(decimal)} is negative.` };
  if (minor > MAX_MINOR) return { ok: false, reason: `${formatDecimal(decimal)} is too large.` };
  return { ok: true, minor: Number(minor) };
}
