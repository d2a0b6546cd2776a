import fc from 'fast-check';
import type { ZodTypeAny } from 'zod';

/**
 * A fast-check generator of values a zod (v3) schema accepts, read from the
 * schema itself, so a new field or route is generated without editing a test.
 * Collections stay small (at most 3 elements) to keep runs fast; refinements
 * are honoured by filtering with the schema. A schema kind this does not know
 * throws, naming it, so a new kind is noticed rather than skipped.
 */
export function arbitraryFor(schema: ZodTypeAny): fc.Arbitrary<unknown> {
  return build(schema).filter((value) => schema.safeParse(value).success);
}

interface Check {
  kind: string;
  value?: number;
  inclusive?: boolean;
  regex?: RegExp;
}

const MAX_ITEMS = 3;

function build(schema: ZodTypeAny): fc.Arbitrary<unknown> {
  const def = schema._def as Record<string, any>;
  switch (def.typeName as string) {
    case 'ZodString':
      return stringArbitrary(def.checks as Check[]);
    case 'ZodNumber':
      return numberArbitrary(def.checks as Check[]);
    case 'ZodBoolean':
      return fc.boolean();
    case 'ZodEnum':
      return fc.constantFrom(...(def.values as string[]));
    case 'ZodLiteral':
      return fc.constant(def.value);
    case 'ZodOptional':
      return fc.option(build(def.innerType), { nil: undefined, freq: 3 });
    case 'ZodNullable':
      return fc.option(build(def.innerType), { nil: null, freq: 3 });
    case 'ZodDefault':
      return fc.option(build(def.innerType), { nil: undefined, freq: 3 });
    case 'ZodEffects':
      return build(def.schema);
    case 'ZodArray': {
      const min = (def.exactLength?.value ?? def.minLength?.value ?? 0) as number;
      const max = Math.min((def.exactLength?.value ?? def.maxLength?.value ?? MAX_ITEMS) as number, Math.max(min, MAX_ITEMS));
      return fc.array(build(def.type), { minLength: min, maxLength: max });
    }
    case 'ZodRecord':
      return fc.dictionary(build(def.keyType) as fc.Arbitrary<string>, build(def.valueType), { maxKeys: MAX_ITEMS });
    case 'ZodUnion':
    case 'ZodDiscriminatedUnion':
      return fc.oneof(...(def.options as ZodTypeAny[]).map(build));
    case 'ZodObject': {
      const shape = def.shape() as Record<string, ZodTypeAny>;
      const model = Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, build(field)]));
      // fc.record keeps an optional key with `undefined`; drop those so the JSON matches what a client sends.
      return fc.record(model).map((value) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)));
    }
    default:
      throw new Error(`No generator for zod type ${def.typeName}; teach test/integration/reliability/support/zod-arbitrary.ts`);
  }
}

function stringArbitrary(checks: Check[]): fc.Arbitrary<string> {
  const find = (kind: string) => checks.find((c) => c.kind === kind);
  const min = find('length')?.value ?? find('min')?.value ?? 0;
  const max = find('length')?.value ?? find('max')?.value ?? 40;
  const fits = (s: string) => s.length >= min && s.length <= max;
  if (find('uuid')) return fc.uuid();
  if (find('email')) return fc.emailAddress().filter(fits);
  if (find('url')) return fc.webUrl().filter(fits);
  if (find('datetime')) {
    return fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  const regex = find('regex')?.regex;
  if (regex) return fc.stringMatching(regex).filter(fits);
  return fc.string({ minLength: min, maxLength: Math.min(max, min + 40), unit: 'grapheme' });
}

function numberArbitrary(checks: Check[]): fc.Arbitrary<number> {
  const isInt = checks.some((c) => c.kind === 'int');
  let min = -Number.MAX_SAFE_INTEGER;
  let max = Number.MAX_SAFE_INTEGER;
  for (const check of checks) {
    if (check.kind === 'min') min = Math.max(min, check.inclusive === false ? check.value! + (isInt ? 1 : Number.EPSILON) : check.value!);
    if (check.kind === 'max') max = Math.min(max, check.inclusive === false ? check.value! - (isInt ? 1 : Number.EPSILON) : check.value!);
  }
  if (isInt) {
    // Edges and small values are where the bugs are; a uniform draw over 2^53 would almost never hit them.
    const small = { min: Math.max(min, -1000), max: Math.min(max, Math.max(min, 1000)) };
    return fc.oneof(fc.constantFrom(min, max), fc.integer(small), fc.integer({ min, max }));
  }
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}
