/**
 * Card numbers in free text (docs/decisions.md, "Card-data and credential guard").
 *
 * A digit run is a sequence of digit groups, each pair of neighbouring groups
 * separated by exactly one separator character. Digits are ASCII or full-width
 * (U+FF10-U+FF19); separators are the characters card numbers are printed with:
 * space, no-break space (U+00A0), figure space (U+2007), thin space (U+2009),
 * narrow no-break space (U+202F), hyphen-minus, the Unicode hyphens and dashes
 * U+2010-U+2013 and the full stop. Slashes, commas and colons are not separators
 * (dates, amounts, times). A card number is a Luhn-valid window of 13-19 digits
 * that starts with a non-zero digit and is either
 *  - a whole number of consecutive groups (`4111 1111 1111 1111 123`,
 *    `2025 4111 1111 1111 1111`, `4111.1111.1111.1111`, a plain 16-digit group), or
 *  - any part of a group longer than 19 digits (a card number glued to other digits).
 * A group of 13-19 digits is checked only as a whole: its parts would turn one
 * candidate into up to 28, refusing most numeric identifiers of that length.
 */

/** Identifiers this service issues or accepts by shape: never card data, removed before scanning (docs/decisions.md). */
const KNOWN_IDENTIFIERS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\breq_[0-9a-f]{32}\b|\br1_[0-9a-f]{40}\b/gi;
/** Replaces a known identifier: neither a digit nor a separator, so it also splits the runs around it. */
const IDENTIFIER_MARK = '|';

const MIN_PAN = 13;
const MAX_PAN = 19;

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** The value of a digit character (ASCII or full-width), or -1. */
function digitValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 0xff10 && c <= 0xff19) return c - 0xff10;
  return -1;
}

function isSeparator(c: number): boolean {
  return (
    c === 0x20 || c === 0x2d || c === 0x2e || c === 0xa0 || c === 0x2007 || c === 0x2009 || c === 0x202f || (c >= 0x2010 && c <= 0x2013)
  );
}

/**
 * Whether some run of digits and separators holds 13 digits: most strings (names,
 * dates, amounts) do not, and skip the scan. Looser than the scan (any number of
 * separators in a row continue a run, known identifiers are not removed yet), so
 * it never skips a text the scan would refuse.
 */
function mayHoldCardNumber(text: string): boolean {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Inlined digitValue(c) >= 0: this loop sees every string of every body.
    if (c <= 57 ? c >= 48 : c >= 0xff10 && c <= 0xff19) {
      if (++digits >= MIN_PAN) return true;
    } else if (!isSeparator(c)) digits = 0;
  }
  return false;
}

/**
 * True when the text holds a card number (see above). Linear: a run's digits
 * and group lengths are collected once, and each window end costs one backward
 * pass over at most 19 digits.
 */
export function containsCardNumber(text: string): boolean {
  if (!mayHoldCardNumber(text)) return false;
  const scanned = text.replace(KNOWN_IDENTIFIERS, IDENTIFIER_MARK);
  const digits: number[] = [];
  const groups: number[] = [];
  let afterSeparator = false;
  for (let i = 0; i <= scanned.length; i++) {
    const c = i < scanned.length ? scanned.charCodeAt(i) : -1;
    const d = digitValue(c);
    if (d >= 0) {
      if (afterSeparator || groups.length === 0) groups.push(0);
      groups[groups.length - 1]!++;
      digits.push(d);
      afterSeparator = false;
    } else if (digits.length > 0 && !afterSeparator && isSeparator(c)) {
      afterSeparator = true;
    } else {
      if (digits.length >= MIN_PAN && runHoldsCardNumber(digits, groups)) return true;
      digits.length = 0;
      groups.length = 0;
      afterSeparator = false;
    }
  }
  return false;
}

/** Whether a digit run, split into groups of the given lengths, holds a card number. */
function runHoldsCardNumber(digits: readonly number[], groups: readonly number[]): boolean {
  // Where each group starts and ends, as digit offsets; and for every digit, the start of its group when that group is long.
  const boundary = new Uint8Array(digits.length + 1);
  const longGroupStart = new Int32Array(digits.length).fill(-1);
  let offset = 0;
  boundary[0] = 1;
  for (const length of groups) {
    if (length > MAX_PAN) longGroupStart.fill(offset, offset, offset + length);
    offset += length;
    boundary[offset] = 1;
  }
  for (let end = MIN_PAN; end <= digits.length; end++) {
    const atBoundary = boundary[end] === 1;
    const longStart = longGroupStart[end - 1]!;
    if (!atBoundary && longStart < 0) continue;
    let sum = 0;
    for (let size = 1; size <= MAX_PAN && size <= end; size++) {
      const start = end - size;
      let d = digits[start]!;
      if (size % 2 === 0) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
      if (size < MIN_PAN || sum % 10 !== 0 || digits[start] === 0) continue;
      // No payment card number starts with 0 (ISO/IEC 7812 major industry identifier 0 is not issued for cards).
      const wholeGroups = atBoundary && boundary[start] === 1;
      const insideLongGroup = longStart >= 0 && start >= longStart;
      if (wholeGroups || insideLongGroup) return true;
    }
  }
  return false;
}
