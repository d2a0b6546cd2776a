import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ZodTypeAny } from 'zod';
import { contract } from '../../../contract/index.js';
import { compileSchema, UNSURE } from '../../../server/validation/compile-schema.js';
import { gwcInvoice50 } from '../../../bench/bodies.js';
import { reportFor } from '../../support/reports.js';
import { happyInvoice } from '../enrichment/support/invoices.js';

/**
 * The compiled body checks must never accept what zod refuses, and must give
 * zod's output for what they accept; refusals are always zod's own.
 */
const HOT = {
  'gwa enrichment': { schema: contract.gwa.enrichTransaction.body, valid: () => ({ invoice: happyInvoice(), options: {} }) },
  'gwb enrichment': { schema: contract.gwb.enrichOrder.body, valid: () => ({ invoice: happyInvoice(), taxRepresentation: 'order' }) },
  'gwc enrichment': { schema: contract.gwc.enrichPaymentIntent.body, valid: () => gwcInvoice50() },
  'gwa report': { schema: contract.gwa.reportPayment.body, valid: () => reportFor.gwa({ transactionId: 'abc123' }) },
  'gwb report': { schema: contract.gwb.reportPayment.body, valid: () => reportFor.gwb({ paymentId: 'p-1', orderId: 'o-1' }) },
  'gwc report': {
    schema: contract.gwc.reportPayment.body,
    valid: () => reportFor.gwc({ paymentIntentId: 'pi_abc', enrichmentRequestId: `req_${'a'.repeat(32)}` }),
  },
} as const;

/** Every JSON path of a value, so a mutation can reach any depth. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return [prefix, ...value.flatMap((v, i) => paths(v, [...prefix, i]))];
  if (value !== null && typeof value === 'object') return [prefix, ...Object.entries(value).flatMap(([k, v]) => paths(v, [...prefix, k]))];
  return [prefix];
}

function mutate(
  body: unknown,
  path: (string | number)[],
  mutation: { kind: 'set' | 'delete' | 'extra' | 'reorder'; value: unknown },
): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  if (path.length === 0) return mutation.kind === 'set' ? mutation.value : copy;
  let parent = copy;
  for (const part of path.slice(0, -1)) {
    // An earlier mutation may have replaced this branch: leave the body as it is.
    if (parent === null || typeof parent !== 'object') return copy;
    parent = parent[part] as Record<string | number, unknown>;
  }
  if (parent === null || typeof parent !== 'object') return copy;
  const last = path[path.length - 1]!;
  if (mutation.kind === 'set') parent[last] = mutation.value;
  else if (mutation.kind === 'delete') delete parent[last];
  else if (mutation.kind === 'reorder') moveFirstKeyLast(parent[last]);
  else if (parent[last] !== null && typeof parent[last] === 'object' && !Array.isArray(parent[last]))
    (parent[last] as Record<string, unknown>).unexpected = mutation.value;
  return copy;
}

/** The object's first key moved to the end: the same properties in another order. */
function moveFirstKeyLast(value: unknown): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const object = value as Record<string, unknown>;
  const [first] = Object.keys(object);
  if (first === undefined) return;
  const moved = object[first];
  delete object[first];
  object[first] = moved;
}

const jsonValue = fc.oneof(
  fc.constantFrom('', 'usd', 'USD', '1.5', '2026-01-10T10:00:00.000Z', '2026-01-10', 'x'.repeat(161), 'a\u0001b', 'pi_', 'req_x'),
  fc.string(),
  fc.constantFrom(0, -1, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER, 1e308),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
);

describe.each(Object.entries(HOT))('compiled body check of %s', (_name, { schema, valid }) => {
  const zod = schema as ZodTypeAny;
  const check = compileSchema(zod)!;

  it('compiles, and accepts a valid body with exactly zod’s output', () => {
    expect(check).toBeTypeOf('function');
    const body = valid();
    const parsed = zod.safeParse(body);
    expect(parsed.success).toBe(true);
    expect(check(body)).toEqual(parsed.data);
  });

  it('when every object lists its keys in another order, then it still accepts the body with zod’s output', () => {
    const body = valid();
    for (const path of paths(body)) moveFirstKeyLast(path.reduce<unknown>((at, part) => (at as Record<string, unknown>)[part], body));
    expect(check(body)).toEqual(zod.parse(body));
  });

  it('never accepts a body zod refuses, and agrees on the output of any it accepts', () => {
    const base = valid();
    const all = paths(base);
    fc.assert(
      fc.property(
        fc.array(fc.record({ at: fc.nat(all.length - 1), kind: fc.constantFrom('set', 'delete', 'extra', 'reorder'), value: jsonValue }), {
          minLength: 1,
          maxLength: 3,
        }),
        (mutations) => {
          let body: unknown = base;
          for (const m of mutations) body = mutate(body, all[m.at]!, { kind: m.kind as 'set', value: m.value });
          const out = check(body);
          const parsed = zod.safeParse(body);
          if (out !== UNSURE) {
            expect(parsed.success).toBe(true);
            expect(out).toEqual(parsed.data);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
