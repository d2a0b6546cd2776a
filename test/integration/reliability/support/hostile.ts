import fc from 'fast-check';

/*
 * Request bodies one mutation away from valid, and hostile ones. Each is raw
 * JSON text (so duplicate keys, lone surrogates and out-of-range numbers reach
 * the server as written) with the content type to send it with.
 */

export interface RawBody {
  /** What was done, for the failure message. */
  label: string;
  text: string;
  contentType?: string;
  /** The status the server must answer whatever else holds (nesting, content type). */
  expectStatus?: number;
  /** The issue code the answer must carry. */
  expectIssue?: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

/** Every position in a JSON value: the root, each property and each element. */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const here = [prefix];
  if (Array.isArray(value)) return here.concat(...value.map((v, i) => pathsOf(v, [...prefix, i])));
  if (value !== null && typeof value === 'object') return here.concat(...Object.entries(value).map(([k, v]) => pathsOf(v, [...prefix, k])));
  return here;
}

function getAt(value: unknown, path: Path): unknown {
  return path.reduce<any>((v, key) => v?.[key], value);
}

/** A copy of `value` with the position at `path` replaced (or removed when `replacement` is `REMOVE`). */
const REMOVE = Symbol('remove');
function setAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  if (rest.length === 0 && replacement === REMOVE) {
    if (Array.isArray(copy)) copy.splice(head as number, 1);
    else delete copy[head!];
  } else copy[head!] = setAt(copy[head!], rest, replacement);
  return copy;
}

const WRONG_VALUES: Json[] = [null, 0, -1, 1.5, '', 'x', true, [], {}, '0', 'null'];

/** A body one change away from `valid`: a property dropped or added, a value of another type, or a string too long. */
export function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<RawBody> {
  return fc
    .tuple(valid, fc.nat(), fc.constantFrom('drop', 'unknown', 'retype', 'stretch', 'negate'), fc.constantFrom(...WRONG_VALUES))
    .map(([value, pick, op, wrong]) => {
      const paths = pathsOf(value);
      const path = paths[pick % paths.length]!;
      const at = getAt(value, path);
      let next: unknown;
      switch (op) {
        case 'drop':
          next = path.length === 0 ? {} : setAt(value, path, REMOVE);
          break;
        case 'unknown':
          next =
            at !== null && typeof at === 'object' && !Array.isArray(at)
              ? setAt(value, path, { ...at, extraField: 1 })
              : setAt(value, path, wrong);
          break;
        case 'stretch':
          next = setAt(value, path, typeof at === 'string' ? at.padEnd(5_000, 'a') : wrong);
          break;
        case 'negate':
          next = setAt(value, path, typeof at === 'number' ? -at - 1 : wrong);
          break;
        default:
          next = setAt(value, path, wrong);
      }
      return { label: `${op} at ${JSON.stringify(path)}`, text: JSON.stringify(next) ?? '' };
    });
}

/** One character of each Unicode plane, lone surrogates, NUL, bidi overrides and a BOM. */
const CODE_POINTS = [...Array.from({ length: 17 }, (_, plane) => plane * 0x10000 + 0x4e2d), 0x0000, 0x202e, 0xfeff, 0xffff, 0x10ffff];
const LONE = ['\ud800', '\udbff', '\udc00', '\udfff'];
const anyText = fc
  .array(
    fc.oneof(
      fc.constantFrom(...CODE_POINTS).map((cp) => String.fromCodePoint(cp)),
      fc.constantFrom(...LONE),
      fc.string({ unit: 'binary', minLength: 1 }),
    ),
    {
      minLength: 1,
      maxLength: 12,
    },
  )
  .map((parts) => parts.join(''));

/** Numbers at and beyond what a safe integer or a double holds, written as JSON literals. */
const EDGE_NUMBERS = [
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '-9007199254740991',
  '-9007199254740993',
  '1e308',
  '1e309',
  '-1e309',
  '-0',
  '0.1',
  '1e-7',
  '1.0',
  '123456789012345678901234567890',
];

/**
 * Instants JavaScript reads but PostgreSQL refuses or that roll over (year 0000,
 * negative and six-digit years, a 30th of February, hour 24), and the edges of the
 * range, in the forms a client could send.
 */
const EDGE_DATES = [
  '0000-01-01T00:00:00.000Z',
  '0000-01-01T00:00:00Z',
  '-000001-01-01T00:00:00.000Z',
  '+275760-09-13T00:00:00.000Z',
  '+010000-01-01T00:00:00.000Z',
  '0001-01-01T00:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
  '2026-02-30T00:00:00.000Z',
  '2026-13-01T00:00:00.000Z',
  '2026-01-01T24:00:00.000Z',
  '1969-12-31T23:59:59.999Z',
  '2026-02-29',
  '0000-00-00',
];

/** Control characters: NUL, the other C0 controls, DEL, C1 (NEL), line and paragraph separators, and CR LF. */
const CONTROLS = ['\u0000', '\u0001', '\u0008', '\u000b', '\u001b', '\u001f', '\u007f', '\u0085', '\u2028', '\r\n', '\t'];
const controlText = fc
  .tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...CONTROLS), fc.string({ maxLength: 8 }))
  .map(([a, c, b]) => `${a}${c}${b}`);

/**
 * A list cursor as a client could forge it: the service's own form
 * (`base64url(<ISO instant>|<uuid>[|<check>])`) around an out-of-range or
 * rolling-over date, or around control characters.
 */
const forgedCursor = fc
  .tuple(fc.oneof(fc.constantFrom(...EDGE_DATES), controlText), fc.uuid(), fc.constantFrom('', '|AAAAAAAAAAAAAAAAAAAAAA'))
  .map(([date, id, check]) => Buffer.from(`${date}|${id}${check}`, 'utf8').toString('base64url'));

/** The edge dates PostgreSQL refuses or that roll over, and the range's ends: tried on every date or cursor field. */
const BREAKING_DATES = [
  '0000-01-01T00:00:00.000Z',
  '-000001-01-01T00:00:00.000Z',
  '+275760-09-13T00:00:00.000Z',
  '2026-02-30T00:00:00.000Z',
  '2026-01-01T24:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
];
const forge = (date: string) => Buffer.from(`${date}|00000000-0000-4000-8000-000000000000`, 'utf8').toString('base64url');

/**
 * Not random: for one valid value, every breaking date and a cursor forged around
 * each on every top-level field named like a date or a cursor, and a control
 * character (NUL, then the others in turn) in every string leaf, so both classes
 * reach every route and procedure on every run.
 */
export function edgeBodies(value: unknown, topKeys: string[]): RawBody[] {
  const out: RawBody[] = [];
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const key of topKeys.filter((k) => DATE_OR_CURSOR.test(k)))
      for (const text of [...BREAKING_DATES, ...BREAKING_DATES.slice(0, 5).map(forge)])
        out.push({ label: `${key}: ${JSON.stringify(text)}`, text: JSON.stringify({ ...value, [key]: text }) });
  }
  const strings = pathsOf(value).filter((p) => p.length > 0 && typeof getAt(value, p) === 'string');
  strings.slice(0, 8).forEach((path, i) => {
    for (const control of ['\u0000', CONTROLS[(i + 1) % CONTROLS.length]!]) {
      const text = `${String(getAt(value, path))}${control}x`;
      out.push({ label: `${JSON.stringify(path)}: control ${JSON.stringify(control)}`, text: JSON.stringify(setAt(value, path, text)) });
    }
  });
  return out;
}

/** Edge values for query-string and path parameters: breaking dates, forged cursors and control characters. */
export const edgeParams: string[] = [...BREAKING_DATES, ...BREAKING_DATES.slice(0, 5).map(forge), 'a\u0000b', 'a\u001bb', 'a\u007fb'];

/** Strings that reach SQL as dates or as text: edge dates, forged cursors and control characters. */
const sqlEdgeText = fc.oneof(fc.constantFrom(...EDGE_DATES), forgedCursor, controlText);

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', '__defineGetter__', 'toString', 'hasOwnProperty'];

const PLACEHOLDER = '\u0001placeholder\u0001';

/** Leaves named like a date, a time or a cursor (`createdAfter`, `occurredAt`, `cursor`, …). */
export const DATE_OR_CURSOR = /cursor|date|time|at$|after|before|since|until|from|to$/i;

/** Replace one string or number leaf of `value` (optionally one whose key matches `named`) by raw JSON text. */
function replaceLeaf(value: unknown, pick: number, raw: string, kind: 'string' | 'number' | 'any', named?: RegExp): string | undefined {
  const leaves = pathsOf(value).filter((p) => {
    const v = getAt(value, p);
    if (named && !named.test(String(p[p.length - 1]))) return false;
    return p.length > 0 && (kind === 'any' ? v === null || typeof v !== 'object' : typeof v === kind);
  });
  if (leaves.length === 0) return undefined;
  return JSON.stringify(setAt(value, leaves[pick % leaves.length]!, PLACEHOLDER)).replace(JSON.stringify(PLACEHOLDER), raw);
}

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json-patch+json',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
];

/** Bodies a hostile or broken client sends, built around a valid one. */
export function hostile(valid: fc.Arbitrary<unknown>, options: { bodyLimit: number; topKeys?: string[] }): fc.Arbitrary<RawBody> {
  // Top-level fields of the schema named like a date or a cursor: set even when the valid value left them out (optional).
  const dateKeys = (options.topKeys ?? []).filter((k) => DATE_OR_CURSOR.test(k));
  const withValid = <T>(extra: fc.Arbitrary<T>, build: (value: unknown, extra: T) => RawBody | undefined) =>
    fc.tuple(valid, extra).map(([value, e]) => build(value, e) ?? { label: 'valid (no leaf to replace)', text: JSON.stringify(value) });
  return fc.oneof(
    withValid(fc.tuple(fc.integer({ min: 65, max: 5_000 }), fc.nat()), (value, [depth, pick]) => ({
      label: `nested ${depth} deep`,
      text: replaceLeaf(value, pick, '['.repeat(depth) + ']'.repeat(depth), 'any') ?? `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      expectStatus: 400,
      expectIssue: 'nesting_too_deep',
    })),
    withValid(fc.tuple(fc.constantFrom(4_096, 20_000, options.bodyLimit + 1), fc.nat()), (value, [length, pick]) => {
      const text = replaceLeaf(value, pick, JSON.stringify('x'.repeat(length)), 'string');
      return text === undefined ? undefined : { label: `a ${length}-character string`, text };
    }),
    withValid(fc.tuple(anyText, fc.nat()), (value, [text, pick]) => {
      const body = replaceLeaf(value, pick, JSON.stringify(text), 'string');
      return body === undefined ? undefined : { label: `text ${JSON.stringify(text)}`, text: body };
    }),
    withValid(fc.tuple(sqlEdgeText, fc.nat()), (value, [text, pick]) => {
      const body = replaceLeaf(value, pick, JSON.stringify(text), 'string');
      return body === undefined ? undefined : { label: `edge text ${JSON.stringify(text)}`, text: body };
    }),
    withValid(fc.tuple(sqlEdgeText, fc.nat()), (value, [text, pick]) => {
      // Where the schema takes a date or a cursor, that field: the likeliest way such text reaches SQL.
      const key = dateKeys[pick % Math.max(1, dateKeys.length)];
      if (key !== undefined && value !== null && typeof value === 'object' && !Array.isArray(value))
        return { label: `${key}: ${JSON.stringify(text)}`, text: JSON.stringify({ ...value, [key]: text }) };
      const body = replaceLeaf(value, pick, JSON.stringify(text), 'string', DATE_OR_CURSOR);
      return body === undefined ? undefined : { label: `date or cursor field ${JSON.stringify(text)}`, text: body };
    }),
    withValid(fc.tuple(fc.constantFrom(...EDGE_NUMBERS), fc.nat()), (value, [number, pick]) => {
      const text = replaceLeaf(value, pick, number, 'number');
      return text === undefined ? undefined : { label: `number ${number}`, text };
    }),
    withValid(fc.tuple(fc.constantFrom(...PROTO_KEYS), fc.constantFrom<Json>({ polluted: true }, null, 1, 'x')), (value, [key, inner]) => {
      const text = JSON.stringify(value);
      return {
        label: `key ${key}`,
        text: text.replace(/^\{/, `{${JSON.stringify(key)}:${JSON.stringify(inner)}${text === '{}' ? '' : ','}`),
      };
    }),
    withValid(fc.constantFrom<Json>(null, 'x', -1, [], { nested: true }), (value, first) => {
      const entries = value !== null && typeof value === 'object' ? Object.entries(value) : [];
      if (entries.length === 0) return undefined;
      const [key] = entries[0]!;
      // The same key twice: the parser keeps the last, so the body means what the valid one means.
      return { label: `duplicate key ${key}`, text: `{${JSON.stringify(key)}:${JSON.stringify(first)},${JSON.stringify(value).slice(1)}` };
    }),
    withValid(fc.constantFrom(...WRONG_CONTENT_TYPES), (value, contentType) => ({
      label: `content type ${contentType}`,
      text: JSON.stringify(value),
      contentType,
      expectStatus: 415,
    })),
    withValid(fc.constantFrom('truncate', 'trailing', 'nan', 'quotes', 'comment'), (value, how) => {
      const text = JSON.stringify(value);
      const broken = {
        truncate: text.slice(0, Math.max(1, text.length - 1)),
        trailing: `${text},`,
        nan: text.replace(/^\{/, '{"n":NaN,'),
        quotes: text.replace(/"/g, "'"),
        comment: `/* c */${text}`,
      }[how];
      return { label: `invalid JSON (${how})`, text: broken, expectStatus: 400, expectIssue: 'invalid_json' };
    }),
  );
}

/** Hostile values for a query-string or path parameter, already percent-encoded where that matters. */
export const hostileParam: fc.Arbitrary<{ label: string; encoded: string }> = fc.oneof(
  fc.constantFrom('%ED%A0%80', '%FF', '%', '%E0%A4%A', '%00', '..%2F..%2Fetc', '%2e%2e', '__proto__', 'constructor').map((encoded) => ({
    label: `raw ${encoded}`,
    encoded,
  })),
  fc.constantFrom(...EDGE_NUMBERS).map((n) => ({ label: `number ${n}`, encoded: encodeURIComponent(n) })),
  fc.integer({ min: 65, max: 4_000 }).map((n) => ({ label: `${n} characters`, encoded: 'a'.repeat(n) })),
  anyText.map((text) => ({ label: `text ${JSON.stringify(text)}`, encoded: encodeUtf16Units(text) })),
  sqlEdgeText.map((text) => ({ label: `edge text ${JSON.stringify(text)}`, encoded: encodeURIComponent(text) })),
);

/** Percent-encode a string unit by unit as WTF-8, so lone surrogates reach the server as the bytes a broken client sends. */
function encodeUtf16Units(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const pair = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
    const cp = pair >= 0xdc00 && pair <= 0xdfff ? 0x10000 + ((code - 0xd800) << 10) + (pair - 0xdc00) : code;
    if (cp > 0xffff) i++;
    const bytes =
      cp < 0x80
        ? [cp]
        : cp < 0x800
          ? [0xc0 | (cp >> 6), 0x80 | (cp & 63)]
          : cp < 0x10000
            ? [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)]
            : [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
    out += bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}
