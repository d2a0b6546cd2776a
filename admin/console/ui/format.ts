/** Local time for reading; the exact UTC instant goes in the title (hover). */
export function localTime(iso: string): { text: string; utc: string } {
  const date = new Date(iso);
  return {
    text: date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }),
    utc: `${date
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, '')} UTC`,
  };
}

/** Minor-unit exponent of a currency (2 for USD, 0 for JPY, 3 for KWD), as Intl knows it. */
function exponentOf(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * An integer amount of minor units as money, without float maths: the digits are
 * split at the currency's exponent as a string, and Intl formats that decimal string
 * exactly.
 */
export function formatMinor(minor: number | string | bigint, currency: string, locale?: string): string {
  const value = BigInt(minor);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString();
  const exponent = exponentOf(currency.toUpperCase());
  const padded = digits.padStart(exponent + 1, '0');
  const decimal = exponent === 0 ? padded : `${padded.slice(0, -exponent)}.${padded.slice(-exponent)}`;
  const signed = `${negative ? '-' : ''}${decimal}`;
  try {
    const format = new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() }).format as (
      value: string,
    ) => string;
    return format(signed);
  } catch {
    return `${signed} ${currency.toUpperCase()}`;
  }
}
