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
  orderBy?: { field: string; desc: boolean };
  startPosition: number;
  maxResults: number;
}

export class QueryParseError extends Error {}

const GRAMMAR =
  /^\s*select\s+(\*|count\(\*\))\s+from\s+(\w+)(?:\s+where\s+(.+?))?(?:\s+orderby\s+([\w.]+)(?:\s+(asc|desc))?)?(?:\s+startposition\s+(\d+))?(?:\s+maxresults\s+(\d+))?\s*$/i;
const CONDITION = /^\s*([\w.]+)\s*(<=|>=|=|<|>)\s*'([^']*)'\s*$/;

/**
 * Parse the subset of the provider's query grammar the service uses:
 * `SELECT * | count(*) FROM Entity [WHERE a op 'v' AND …] [ORDERBY f [ASC|DESC]]
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
  const maxResults = m[7] ? Number(m[7]) : 100;
  if (maxResults > MAX_RESULTS_LIMIT) throw new QueryParseError(`MAXRESULTS must not exceed ${MAX_RESULTS_LIMIT}`);
  return {
    entity,
    count: m[1]!.toLowerCase() !== '*',
    where,
    ...(m[4] ? { orderBy: { field: m[4], desc: (m[5] ?? '').toLowerCase() === 'desc' } } : {}),
    startPosition: m[6] ? Math.max(1, Number(m[6])) : 1,
    maxResults,
  };
}

function fieldValue(e: QboEntity, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), e);
}

function compare(a: unknown, b: string, field: string): number {
  if (/time|date/i.test(field)) return Date.parse(String(a)) - Date.parse(b);
  if (typeof a === 'number') return a - Number(b);
  const x = String(a ?? '');
  if (/^\d+$/.test(x) && /^\d+$/.test(b)) return Number(x) - Number(b);
  return x < b ? -1 : x > b ? 1 : 0;
}

const TESTS: Record<Condition['op'], (c: number) => boolean> = {
  '=': (c) => c === 0,
  '<': (c) => c < 0,
  '>': (c) => c > 0,
  '<=': (c) => c <= 0,
  '>=': (c) => c >= 0,
};

/** Run a parsed query: filter, order (by Id when no ORDERBY), then the 1-based page. */
export function runQuery(rows: QboEntity[], q: ParsedQuery): { rows: QboEntity[]; total: number } {
  const matched = rows.filter((r) => q.where.every((c) => TESTS[c.op](compare(fieldValue(r, c.field), c.value, c.field))));
  const order = q.orderBy ?? { field: 'Id', desc: false };
  const sorted = matched
    .map((r, i) => ({ r, i }))
    .sort((a, b) => {
      const v = fieldValue(b.r, order.field);
      const c =
        compare(fieldValue(a.r, order.field), typeof v === 'number' ? String(v) : String(v ?? ''), order.field) ||
        compare(a.r.Id, b.r.Id, 'Id');
      return order.desc ? -c : c;
    })
    .map((x) => x.r);
  return { rows: sorted.slice(q.startPosition - 1, q.startPosition - 1 + q.maxResults), total: matched.length };
}
