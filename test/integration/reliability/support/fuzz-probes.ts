import fc from 'fast-check';
import type { ZodTypeAny } from 'zod';
import { MAX_NESTING_DEPTH } from '../../../../server/domain/guard/secrets-guard.js';
import { DATE_OR_CURSOR, edgeBodies, edgeParams, hostile, hostileParam, mutated, type RawBody } from './hostile.js';
import { objectShape, pathOf, type ContractRoute } from './surface.js';
import { arbitraryFor } from './zod-arbitrary.js';

/** One request of the fuzzer against a contract route. */
export interface ApiProbe {
  kind: 'valid' | 'mutated' | 'hostile';
  label: string;
  /** Path and query string, already encoded. */
  url: string;
  /** False when a path or query parameter is outside its schema. */
  paramsValid: boolean;
  body?: RawBody;
}

const encodeQuery = (query: unknown) =>
  query && typeof query === 'object'
    ? Object.entries(query)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
        .join('&')
    : '';

const MARK = '\u0002mark';

/** A probe before its parameters are judged (`probeParamsValid` re-reads them as the server does). */
type Draft = Omit<ApiProbe, 'paramsValid'>;

/** Valid, one-mutation-away and hostile requests for `route`, from its own schemas. */
export function apiProbes(route: ContractRoute, options: { bodyLimit: number }): fc.Arbitrary<ApiProbe> {
  // An empty path segment addresses another route (`/invoices/` is `/invoices`), so generated parameters are never empty.
  const params = route.pathParams
    ? (arbitraryFor(route.pathParams) as fc.Arbitrary<Record<string, unknown>>).filter((p) => Object.values(p).every((v) => v !== ''))
    : fc.constant({});
  const query = route.query ? arbitraryFor(route.query) : fc.constant(undefined);
  const body = route.body ? arbitraryFor(route.body) : undefined;
  const url = (p: Record<string, unknown>, q: string) => `${pathOf(route, p)}${q ? `?${q}` : ''}`;

  const valid = fc.tuple(params, query, body ?? fc.constant(undefined)).map(([p, q, b]): Draft => ({
    kind: 'valid',
    label: 'valid',
    url: url(p, encodeQuery(q)),
    ...(b !== undefined ? { body: { label: 'valid', text: JSON.stringify(b) } } : {}),
  }));
  const withBody = (kind: 'mutated' | 'hostile', raw: fc.Arbitrary<RawBody>) =>
    fc.tuple(params, query, raw).map(([p, q, b]): Draft => ({ kind, label: b.label, url: url(p, encodeQuery(q)), body: b }));

  const mutatedParams = fc.tuple(params, query, fc.nat(), hostileParam).map(([p, q, pick, bad]): Draft => {
    const names = [...Object.keys(route.pathParams?.shape ?? {}), ...(route.query ? ['query'] : [])];
    const name = names[pick % names.length]!;
    if (name === 'query') {
      const keys = Object.keys(objectShape(route.query));
      const key = keys[pick % keys.length]!;
      const qs = encodeQuery({ ...(q as object | undefined), [key]: MARK }).replace(encodeURIComponent(MARK), bad.encoded);
      return { kind: 'mutated', label: `query ${key}: ${bad.label}`, url: url(p, qs) };
    }
    const path = route.route.path.replace(/:([A-Za-z]+)/g, (_, n: string) =>
      n === name ? bad.encoded : encodeURIComponent(String((p as Record<string, unknown>)[n])),
    );
    return { kind: 'mutated', label: `path ${name}: ${bad.label}`, url: `${path}${q ? `?${encodeQuery(q)}` : ''}` };
  });

  const kinds: fc.Arbitrary<Draft>[] = [valid];
  if (body)
    kinds.push(
      withBody('mutated', mutated(body)),
      withBody('hostile', hostile(body, { ...options, topKeys: Object.keys(objectShape(route.body)) })),
    );
  if (route.pathParams || route.query) kinds.push(mutatedParams);
  if (route.query) {
    const mutatedQuery = mutated(query).map((b) => ({ label: b.label, value: JSON.parse(b.text || 'null') as unknown }));
    kinds.push(
      fc.tuple(params, mutatedQuery).map(([p, q]): Draft => ({
        kind: 'mutated',
        label: `query ${q.label}`,
        url: url(p, encodeQuery(q.value)),
      })),
    );
  }
  return fc.oneof(...kinds).map((probe) => ({ ...probe, paramsValid: probeParamsValid(route, probe) }));
}

const CONTROL_PARAMS = edgeParams.filter((v) => [...v].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f'));
const one = <T>(arbitrary: fc.Arbitrary<T>, seed: number): T => fc.sample(arbitrary, { seed, numRuns: 1 })[0]!;

/**
 * The fixed edge probes of a route (not random, so every route gets them on every
 * run): `edgeBodies` of one valid body, every edge date and forged cursor in each
 * query parameter named like a date or a cursor, and control characters in every
 * other query and path parameter.
 */
export function apiEdgeProbes(route: ContractRoute, seed: number): ApiProbe[] {
  const p = route.pathParams
    ? one(
        (arbitraryFor(route.pathParams) as fc.Arbitrary<Record<string, unknown>>).filter((v) => Object.values(v).every((x) => x !== '')),
        seed,
      )
    : {};
  const q = route.query ? (one(arbitraryFor(route.query), seed) as Record<string, unknown>) : undefined;
  const url = (params: Record<string, unknown>, query: unknown) => {
    const qs = encodeQuery(query);
    return `${pathOf(route, params)}${qs ? `?${qs}` : ''}`;
  };
  const drafts: Draft[] = [];
  if (route.body)
    for (const body of edgeBodies(one(arbitraryFor(route.body), seed), Object.keys(objectShape(route.body))))
      drafts.push({ kind: 'hostile', label: body.label, url: url(p, q), body });
  for (const key of Object.keys(objectShape(route.query)))
    for (const v of DATE_OR_CURSOR.test(key) ? edgeParams : CONTROL_PARAMS)
      drafts.push({ kind: 'mutated', label: `query ${key}: ${JSON.stringify(v)}`, url: url(p, { ...q, [key]: v }) });
  for (const key of Object.keys(route.pathParams?.shape ?? {}))
    for (const v of CONTROL_PARAMS)
      drafts.push({ kind: 'mutated', label: `path ${key}: ${JSON.stringify(v)}`, url: url({ ...p, [key]: v }, q) });
  return drafts.map((d) => ({ ...d, paramsValid: probeParamsValid(route, d) }));
}

/** The fixed edge probes of an operator procedure: `edgeBodies` of one valid input. */
export function adminEdgeProbes(input: ZodTypeAny | undefined, seed: number): AdminProbe[] {
  if (!input) return [];
  const value = one(arbitraryFor(input), seed) ?? {};
  return edgeBodies(value, Object.keys(objectShape(input))).map((body) => ({ kind: 'hostile', label: body.label, body }));
}

/** Re-read the parameters of a built URL the way the server does, to know whether they are valid. */
function probeParamsValid(route: ContractRoute, probe: Draft): boolean {
  const [pathname, search = ''] = probe.url.split('?');
  const names = [...route.route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
  const pattern = new RegExp(`^${route.route.path.replace(/:([A-Za-z]+)/g, '([^/]+)')}$`);
  const match = pattern.exec(pathname!);
  if (!match) return false;
  try {
    const params = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match[i + 1]!)]));
    const query = Object.fromEntries(new URLSearchParams(search));
    return (!route.pathParams || route.pathParams.safeParse(params).success) && (!route.query || route.query.safeParse(query).success);
  } catch {
    return false;
  }
}

/** The deepest nesting of a parsed JSON value, without recursion. */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, depth);
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * The status the server must answer a request with a body, when the request
 * itself decides it (wrong content type, over the limit, broken JSON, too deep,
 * outside the schema); undefined when only the service's state decides.
 */
export function expectedRejection(
  body: RawBody | undefined,
  schema: ZodTypeAny | undefined,
  options: { limitBytes: number; nestingGuard: boolean },
): number | undefined {
  if (!body) return undefined;
  if (body.expectStatus === 415) return 415;
  if (Buffer.byteLength(body.text) > options.limitBytes) return 413;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.text);
  } catch {
    return 400;
  }
  if (options.nestingGuard && nestingDepth(parsed) > MAX_NESTING_DEPTH) return 400;
  if (schema && !schema.safeParse(parsed).success) return 400;
  return undefined;
}

/** One call of the fuzzer to an operator procedure: its input as raw JSON text. */
export interface AdminProbe {
  kind: 'valid' | 'mutated' | 'hostile';
  label: string;
  body?: RawBody;
}

/** Valid, one-mutation-away and hostile inputs of an operator procedure, from its input schema. */
export function adminProbes(input: ZodTypeAny | undefined, options: { bodyLimit: number; query: boolean }): fc.Arbitrary<AdminProbe> {
  const valid = input ? arbitraryFor(input) : fc.constant(undefined);
  // An absent input is valid for some procedures; mutations and hostile inputs start from an object.
  const base = valid.map((v) => v ?? {});
  const kinds: fc.Arbitrary<AdminProbe>[] = [
    valid.map((v) => ({
      kind: 'valid',
      label: 'valid',
      ...(v !== undefined ? { body: { label: 'valid', text: JSON.stringify(v) } } : {}),
    })),
    mutated(base).map((b) => ({ kind: 'mutated', label: b.label, body: b })),
    // A query's input travels in the URL: Node refuses a request line over 16 KiB before any code of ours runs.
    hostile(base, { ...options, topKeys: Object.keys(objectShape(input)) })
      .filter((b) => !options.query || (b.contentType === undefined && encodeURIComponent(b.text).length < 12_000))
      .map((b) => ({ kind: 'hostile', label: b.label, body: b })),
  ];
  return fc.oneof(...kinds);
}

export { type RawBody };
