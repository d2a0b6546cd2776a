/**
 * FROZEN on 2026-11-25 for Migration20261125183000_redact_card_numbers: card-number
 * detection and redaction, the source identifiers the import keeps and the
 * `card_data_in_source` issue, copied as they were that day
 * (server/domain/guard/card-numbers.ts, server/domain/guard/redact-card-numbers.ts,
 * server/domain/invoices/source-record.ts, server/domain/invoices/issue-categories.ts).
 * A migration must do tomorrow exactly what it did the day it was written, whatever
 * the live code becomes: never edit this file to follow the live domain, and never
 * import from server/domain, server/persistence/sql or the generated schema types
 * here (test/unit/platform/layering.test.ts refuses it).
 */

// Detection: a Luhn-valid window of 13-19 digits in a run of digit groups (the full rule is documented where this was
// copied from).

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

/** What a field holding a card number is stored as, whole. */
export const CARD_NUMBER_REDACTED = '[card number removed]';

/** An own property even for `__proto__` (a name JSON.parse makes an ordinary key), as JSON.parse and Object.fromEntries define it. */
function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

function pathOf(parent: string, key: string | number): string {
  return typeof key === 'number' ? `${parent}[${key}]` : parent === '' ? key : `${parent}.${key}`;
}

export function redactCardNumbers(
  value: unknown,
  o: { root?: string; isIdentifier?: (key: string, parent: string | number | undefined) => boolean } = {},
): { value: unknown; paths: string[] } {
  const root = o.root ?? '';
  const paths: string[] = [];
  // Every record of every import passes here: the keys leading to the current value are kept on one stack and a path
  // is built only for a redacted field, and a container is copied only once something in it changed.
  const trail: (string | number)[] = [];
  const report = () => paths.push(trail.reduce<string>((path, key) => pathOf(path, key), root));
  const visit = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (!containsCardNumber(v)) return v;
      report();
      return CARD_NUMBER_REDACTED;
    }
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        trail.push(i);
        const redacted = visit(v[i]);
        trail.pop();
        if (redacted !== v[i]) (copy ??= [...v])[i] = redacted;
      }
      return copy ?? v;
    }
    const object = v as Record<string, unknown>;
    const keys = Object.keys(object);
    let copy: Record<string, unknown> | undefined;
    let renamed = 0;
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k]!;
      let name = key;
      if (containsCardNumber(key)) {
        // Numbered after the first, so that no two redacted names of one object collide.
        name = renamed++ === 0 ? CARD_NUMBER_REDACTED : `${CARD_NUMBER_REDACTED} ${'#'.repeat(renamed)}`;
      }
      const parent = trail[trail.length - 1];
      trail.push(name);
      if (name !== key) report();
      const element = object[key];
      const redacted = typeof element === 'string' && o.isIdentifier?.(key, parent) ? element : visit(element);
      trail.pop();
      if (copy === undefined && (name !== key || redacted !== object[key])) {
        copy = {};
        for (let earlier = 0; earlier < k; earlier++) define(copy, keys[earlier]!, object[keys[earlier]!]);
      }
      if (copy !== undefined) define(copy, name, redacted);
    }
    return copy ?? v;
  };
  const redacted = visit(value);
  return { value: redacted, paths };
}

/** Identifiers the ledger assigns (a record's Id and SyncToken, a reference's value): kept as the import keeps them. */
export function isProviderIdentifier(key: string, parent: string | number | undefined): boolean {
  if (key === 'Id' || key === 'SyncToken' || key === 'DefinitionId') return true;
  return key === 'value' && typeof parent === 'string' && parent.endsWith('Ref');
}

/** Snapshot fields that are identifiers the source assigned (an Item's or Invoice's Id, a SyncToken). */
export const isSnapshotIdentifier = (key: string): boolean => key === 'externalId' || key === 'sourceItemId' || key === 'version';

/** A stored invoice issue as snapshots held it that day. */
export interface StoredIssue {
  code: string;
  path: string;
  message: string;
  category: string;
}

/** The `card_data_in_source` issue at a path, as the mapper wrote it that day. */
export function cardDataInSource(path: string): StoredIssue {
  return {
    code: 'card_data_in_source',
    path,
    message: `A text field of the source record held a card number; it was not imported and the field is stored as ${CARD_NUMBER_REDACTED}. Remove the number at the source.`,
    category: 'source',
  };
}
