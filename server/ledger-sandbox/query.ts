import { SANDBOX_ENTITIES, type QboEntity, type SandboxEntity } from './company.js';

/** The provider caps a page at 1000 rows (docs/provider-facts.md §4.6). */
export const MAX_RESULTS_LIMIT = 1000;

export interface Condition {
  field: string;
  op: '=' | '<' | '>' | '<=' | '>=';
  value: string;
}
export interface ParsedQuery {
  entity: SandboxEntity;
  count: boolean;
  where: Condition[];
  /** ORDERBY keys, most significant first. */
  orderBy?: { field: string; desc: boolean }[];
  startPosition: number;
  maxResults: number;
}

export class QueryParseError extends Error {}

/** The provider's documented dateTime form: seconds precision and an explicit offset (docs/provider-facts.md §4.6). */
const DOCUMENTED_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

/** Strict protocol: a time in another form (milliseconds, `Z`, no offset) is refused. */
export function checkDateTime(field: string, value: string): void {
  if (!DOCUMENTED_DATETIME.test(value))
    throw new QueryParseError(`${field} must be a dateTime like 2026-01-01T00:00:00-00:00, got '${value.slice(0, 40)}'`);
}

const GRAMMAR =
  /^\s*select\s+(\*|count\(\*\))\s+from\s+(\w+)(?:\s+where\s+(.+?))?(?:\s+orderby\s+([\w.]+(?:\s+(?:asc|desc))?(?:\s*,\s*[\w.]+(?:\s+(?:asc|desc))?)*))?(?:\s+startposition\s+(\d+))?(?:\s+maxresults\s+(\d+))?\s*$/i;
const CONDITION = /^\s*([\w.]+)\s*(<=|>=|=|<|>)\s*'([^']*)'\s*$/;

/**
 * Parse the subset of the provider's query grammar the service uses:
 * `SELECT * | count(*) FROM Entity [WHERE a op 'v' AND …] [ORDERBY f [ASC|DESC][, g [ASC|DESC]…]]
 * [STARTPOSITION n] [MAXRESULTS n]`. OR is not supported, as at the provider.
 */
export function parseQuery(statement: string): ParsedQuery {
  const m = GRAMMAR.exec(statement);
  if (!m) throw new QueryParseError(`Error parsing query: ${statement.slice(0, 200)}`);
  const entity = SANDBOX_ENTITIES.find((e) => e.toLowerCase() === m[2]!.toLowerCase());
  if (!entity) throw new QueryParseError(`Unsupported entity: ${m[2]}`);
  const where = m[3]
    ? m[3].split(/\s+and\s+/i).map((part) => {
        if (/\s+or\s+/i.test(part)) throw new QueryParseError('OR is not supported');
        const c = CONDITION.exec(part);
        if (!c) throw new QueryParseError(`Error parsing condition: ${part}`);
        return { field: c[1]!, op: c[2] as Condition['op'], value: c[3]! };
      })
    : [];
  const maxResults = m[6] ? Number(m[6]) : 100;
  if (maxResults > MAX_RESULTS_LIMIT) throw new QueryParseError(`MAXRESULTS must not exceed ${MAX_RESULTS_LIMIT}`);
  return {
    entity,
    count: m[1]!.toLowerCase() !== '*',
    where,
    ...(m[4]
      ? {
          orderBy: m[4].split(',').map((key) => {
            const [field, dir] = key.trim().split(/\s+/);
            return { field: field!, desc: (dir ?? '').toLowerCase() === 'desc' };
          }),
        }
      : {}),
    startPosition: m[5] ? Math.max(1, Number(m[5])) : 1,
    maxResults,
  };
}

function fieldValue(e: QboEntity, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), e);
}

/**
 * A value as the provider compares it: times to the second (two times in the same
 * second are equal), numbers and digit strings by value, anything else as text.
 */
function comparable(v: unknown, field: string): number | string {
  if (/time|date/i.test(field)) return Math.floor(Date.parse(String(v)) / 1000);
  if (typeof v === 'number') return v;
  const x = String(v ?? '');
  return /^\d+$/.test(x) ? Number(x) : x;
}

function compareValues(x: number | string, y: number | string): number {
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  const a = String(x);
  const b = String(y);
  return a < b ? -1 : a > b ? 1 : 0;
}

const TESTS: Record<Condition['op'], (c: number) => boolean> = {
  '=': (c) => c === 0,
  '<': (c) => c < 0,
  '>': (c) => c > 0,
  '<=': (c) => c <= 0,
  '>=': (c) => c >= 0,
};

/**
 * Run a parsed query: filter, order, then the 1-based page. By default rows the
 * ORDERBY leaves tied (and every row without ORDERBY) come in Id order. With
 * `unstableTies` (strict protocol) they come in a new random order on every
 * request, as the provider documents no order among them: only an ORDERBY that
 * ends in the unique `Id` gives a stable order across pages.
 */
export function runQuery(
  rows: QboEntity[],
  q: ParsedQuery,
  options: { unstableTies?: () => number } = {},
): { rows: QboEntity[]; total: number } {
  const where = q.where.map((c) => ({ ...c, value: comparable(c.value, c.field) }));
  const matched = rows.filter((r) => where.every((c) => TESTS[c.op](compareValues(comparable(fieldValue(r, c.field), c.field), c.value))));
  const keys = q.orderBy ?? [];
  const random = options.unstableTies;
  const decorated = matched.map((r) => ({
    r,
    keys: keys.map((k) => comparable(fieldValue(r, k.field), k.field)),
    last: random ? random() : comparable(r.Id, 'Id'),
  }));
  decorated.sort((a, b) => {
    for (const [i, key] of keys.entries()) {
      const c = compareValues(a.keys[i]!, b.keys[i]!);
      if (c !== 0) return key.desc ? -c : c;
    }
    return compareValues(a.last, b.last);
  });
  const page = decorated.slice(q.startPosition - 1, q.startPosition - 1 + q.maxResults);
  return { rows: page.map((x) => x.r), total: matched.length };
}
