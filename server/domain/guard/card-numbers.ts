/**
 * Card numbers in free text (docs/decisions.md, "Card-data and credential guard").
 *
 * A digit run is a sequence of digit groups; neighbouring groups are separated by
 * a gap of separator characters holding at most three visible ones (`  `, ` - `,
 * `\r\n`, ` — `) and any number of invisible ones (zero-width spaces, soft
 * hyphens). Digits are ASCII or full-width (U+FF10-U+FF19); separators are the
 * characters card numbers are typed, printed or pasted with: white space (every
 * Unicode space, tab, line and paragraph breaks), the dashes and hyphens (hyphen-
 * minus, U+2010-U+2015, minus sign, the small and full-width hyphens), the full
 * stop and the invisible characters. Slashes, commas and colons are not
 * separators (dates, amounts, times). Dates written with dashes or dots
 * (`2025-01-31`, `31.01.2025`) are removed before scanning, like the identifiers
 * below. A card number is a Luhn-valid window of 13-19 digits that starts with a
 * non-zero digit and is
 *  - a whole number of consecutive groups (`4111 1111 1111 1111 123`,
 *    `2025 4111 1111 1111 1111`, `4111.1111.1111.1111`, a plain 16-digit group), or
 *  - whole groups followed by the start of the next group (digits glued to a
 *    grouped card number's last group: `4111 1111 1111 1111123`), or
 *  - any part of a group longer than 19 digits (a card number glued to other digits).
 * A group of 13-19 digits is checked only as a whole: its parts would turn one
 * candidate into up to 28, refusing most numeric identifiers of that length.
 */

/** Identifiers this service issues or accepts by shape, and dates: never card data, removed before scanning (docs/decisions.md). */
const KNOWN_IDENTIFIERS = new RegExp(
  [
    '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
    '\\breq_[0-9a-f]{32}\\b',
    '\\br1_[0-9a-f]{40}\\b',
    // Year first (ISO) or day first, the same separator twice: no card layout has two-digit groups.
    '(?<![0-9])(?:19|20)[0-9]{2}([-.])(?:0?[1-9]|1[0-2])\\1(?:0?[1-9]|[12][0-9]|3[01])(?![0-9])',
    '(?<![0-9])(?:0?[1-9]|[12][0-9]|3[01])([-.])(?:0?[1-9]|1[0-2])\\2(?:19|20)[0-9]{2}(?![0-9])',
    '(?<![0-9])(?:0?[1-9]|1[0-2])-(?:0?[1-9]|[12][0-9]|3[01])-(?:19|20)[0-9]{2}(?![0-9])',
  ].join('|'),
  'gi',
);
/** Replaces a known identifier: neither a digit nor a separator, so it also splits the runs around it. */
const IDENTIFIER_MARK = '|';

const MIN_PAN = 13;
const MAX_PAN = 19;
/** Visible separator characters allowed between two groups: ` - ` and ` — ` still join, a longer gap (a table column) does not. */
const MAX_VISIBLE_GAP = 3;

const OTHER = 0;
const DIGIT = 1;
const VISIBLE_SEPARATOR = 2;
const INVISIBLE_SEPARATOR = 3;

/** The class of every UTF-16 code unit: one table read per character keeps the prefilter cheap. */
const CLASS = (() => {
  const table = new Uint8Array(0x10000);
  const set = (kind: number, ...codes: number[]) => codes.forEach((c) => (table[c] = kind));
  const range = (kind: number, from: number, to: number) => table.fill(kind, from, to + 1);
  range(DIGIT, 0x30, 0x39);
  range(DIGIT, 0xff10, 0xff19);
  // White space: tab, line feed, vertical tab, form feed, carriage return, space, next line, no-break space,
  // ogham space, en quad to hair space, line and paragraph separators, narrow no-break, medium mathematical, ideographic.
  range(VISIBLE_SEPARATOR, 0x09, 0x0d);
  set(VISIBLE_SEPARATOR, 0x20, 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000);
  range(VISIBLE_SEPARATOR, 0x2000, 0x200a);
  // Dashes and hyphens: hyphen-minus, hyphen to horizontal bar (em dash included), minus sign, small and full-width forms;
  // the full stop and its full-width form.
  set(VISIBLE_SEPARATOR, 0x2d, 0x2e, 0x2212, 0xfe58, 0xfe63, 0xff0d, 0xff0e);
  range(VISIBLE_SEPARATOR, 0x2010, 0x2015);
  // Invisible: soft hyphen, zero-width space, non-joiner and joiner, word joiner, zero-width no-break space.
  set(INVISIBLE_SEPARATOR, 0xad, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff);
  return table;
})();

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

/** The value of a digit character (ASCII or full-width); only called on a DIGIT. */
function digitValue(c: number): number {
  return c <= 0x39 ? c - 0x30 : c - 0xff10;
}

/**
 * Whether some run of digits and separators holds 13 digits: most strings (names,
 * dates, amounts) do not, and skip the scan. Looser than the scan (any number of
 * separators in a row continue a run, known identifiers and dates are not removed
 * yet), so it never skips a text the scan would refuse.
 */
function mayHoldCardNumber(text: string): boolean {
  // Fewer characters than the shortest card number has digits (most names, codes, quantities and units).
  if (text.length < MIN_PAN) return false;
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const kind = CLASS[text.charCodeAt(i)];
    if (kind === DIGIT) {
      if (++digits >= MIN_PAN) return true;
    } else if (kind === OTHER) digits = 0;
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
  // Visible separators since the last digit, and whether any separator came since it.
  let gap = 0;
  let afterSeparator = false;
  for (let i = 0; i <= scanned.length; i++) {
    const c = i < scanned.length ? scanned.charCodeAt(i) : -1;
    const kind = c < 0 ? OTHER : CLASS[c];
    if (kind === DIGIT) {
      if (afterSeparator || groups.length === 0) groups.push(0);
      groups[groups.length - 1]!++;
      digits.push(digitValue(c));
      gap = 0;
      afterSeparator = false;
      continue;
    }
    if (digits.length > 0 && kind !== OTHER) {
      afterSeparator = true;
      if (kind === INVISIBLE_SEPARATOR || ++gap <= MAX_VISIBLE_GAP) continue;
    }
    if (digits.length >= MIN_PAN && runHoldsCardNumber(digits, groups)) return true;
    digits.length = 0;
    groups.length = 0;
    gap = 0;
    afterSeparator = false;
  }
  return false;
}

/** Whether a digit run, split into groups of the given lengths, holds a card number. */
function runHoldsCardNumber(digits: readonly number[], groups: readonly number[]): boolean {
  // For every digit: the start of its group, and whether that group is long (any part of it may be a card number).
  const groupStart = new Int32Array(digits.length);
  const inLongGroup = new Uint8Array(digits.length);
  // Where each group starts and ends, as digit offsets.
  const boundary = new Uint8Array(digits.length + 1);
  let offset = 0;
  boundary[0] = 1;
  for (const length of groups) {
    groupStart.fill(offset, offset, offset + length);
    if (length > MAX_PAN) inLongGroup.fill(1, offset, offset + length);
    offset += length;
    boundary[offset] = 1;
  }
  for (let end = MIN_PAN; end <= digits.length; end++) {
    const atBoundary = boundary[end] === 1;
    const long = inLongGroup[end - 1] === 1;
    // The group the window ends in; a window ending inside it must start at a boundary before it (glued digits).
    const lastGroupStart = groupStart[end - 1]!;
    if (!atBoundary && !long && lastGroupStart === 0) continue;
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
      const fromBoundary = boundary[start] === 1;
      const wholeGroups = fromBoundary && atBoundary;
      const gluedToLastGroup = fromBoundary && start < lastGroupStart;
      const insideLongGroup = long && start >= lastGroupStart;
      if (wholeGroups || gluedToLastGroup || insideLongGroup) return true;
    }
  }
  return false;
}
