import { datetimeRegex, type ZodTypeAny } from 'zod';

/** A compiled check's answer when it cannot vouch for the input: zod itself then decides and words the issues. */
export const UNSURE = Symbol('unsure');

/** Returns zod's output (or the input itself when that is equal to it) for an input zod accepts, or UNSURE; never an output for an input zod refuses. */
export type CompiledCheck = (value: unknown) => unknown;

/** zod 3's internal definitions, read as data: only the fields used here. */
interface Def {
  typeName: string;
  coerce?: boolean;
  checks?: Check[];
  values?: string[];
  value?: unknown;
  innerType?: ZodTypeAny;
  type?: ZodTypeAny;
  schema?: ZodTypeAny;
  catchall?: ZodTypeAny;
  unknownKeys?: string;
  minLength?: { value: number } | null;
  maxLength?: { value: number } | null;
  exactLength?: { value: number } | null;
  effect?: { type: string; refinement?: (value: unknown, ctx: unknown) => unknown };
}
interface Check {
  kind: string;
  value?: number;
  inclusive?: boolean;
  regex?: RegExp;
}

/**
 * `schema.safeParse` with the compiled check first and zod itself whenever the
 * check cannot vouch for the value, so a refused value gets exactly zod's
 * issues; each value is still validated once. Request bodies
 * (`server/http/validation/fast-contract.ts`) and the canonical invoice made of
 * a stored one use it.
 */
export function fastSafeParse<S extends ZodTypeAny>(schema: S): S['safeParse'] {
  const check = compileSchema(schema);
  if (!check) return (value: unknown) => schema.safeParse(value);
  return ((value: unknown) => {
    const out = check(value);
    return out === UNSURE ? schema.safeParse(value) : { success: true, data: out };
  }) as S['safeParse'];
}

/**
 * Compile a zod 3 schema into a plain function that accepts exactly what the
 * schema accepts and returns the same output, for the shapes the request
 * contracts use (strict objects, arrays, strings, numbers, enums, literals,
 * nullable, optional, refinements). Anything it does not model — transforms,
 * defaults, unions, uncommon checks — makes it return undefined (use zod), so
 * the schema stays the single definition and every refusal, with its codes,
 * paths and messages, still comes from zod itself.
 */
export function compileSchema(schema: ZodTypeAny): CompiledCheck | undefined {
  try {
    return compile(schema);
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
}

class Unsupported extends Error {}

function compile(schema: ZodTypeAny): CompiledCheck {
  const def = schema._def as Def;
  switch (def.typeName) {
    case 'ZodString':
      return compileString(schema, def);
    case 'ZodNumber':
      return compileNumber(schema, def);
    case 'ZodBoolean':
      if (def.coerce) throw new Unsupported();
      return (v) => (typeof v === 'boolean' ? v : UNSURE);
    case 'ZodEnum': {
      const values = new Set<unknown>(def.values as string[]);
      return (v) => (typeof v === 'string' && values.has(v) ? v : UNSURE);
    }
    case 'ZodLiteral': {
      const literal = def.value as unknown;
      return (v) => (v === literal ? v : UNSURE);
    }
    case 'ZodNullable': {
      const inner = compile(def.innerType as ZodTypeAny);
      return (v) => (v === null ? null : inner(v));
    }
    case 'ZodOptional': {
      const inner = compile(def.innerType as ZodTypeAny);
      return (v) => (v === undefined ? undefined : inner(v));
    }
    case 'ZodBranded':
      return compile(def.type as ZodTypeAny);
    case 'ZodArray':
      return compileArray(def);
    case 'ZodObject':
      return compileObject(schema, def);
    case 'ZodEffects':
      return compileRefinement(def);
    default:
      throw new Unsupported();
  }
}

/** A string leaf with a check this compiler does not model asks zod about the leaf alone (still zod's verdict). */
const leafOf = (schema: ZodTypeAny): CompiledCheck => {
  return (v) => {
    const result = schema.safeParse(v);
    return result.success ? result.data : UNSURE;
  };
};

function compileString(schema: ZodTypeAny, def: Def): CompiledCheck {
  if (def.coerce) throw new Unsupported();
  const checks = def.checks as Check[];
  if (checks.some((c) => c.kind === 'trim' || c.kind === 'toLowerCase' || c.kind === 'toUpperCase')) throw new Unsupported();
  if (checks.some((c) => !['min', 'max', 'length', 'regex', 'datetime'].includes(c.kind))) return leafOf(schema);
  let min = 0;
  let max = Infinity;
  const patterns: RegExp[] = [];
  for (const c of checks) {
    if (c.kind === 'min') min = Math.max(min, c.value as number);
    else if (c.kind === 'max') max = Math.min(max, c.value as number);
    else if (c.kind === 'length') {
      min = Math.max(min, c.value as number);
      max = Math.min(max, c.value as number);
    } else if (c.kind === 'datetime') {
      // The very pattern zod builds for this check (precision, offset, local).
      patterns.push(datetimeRegex(c as Parameters<typeof datetimeRegex>[0]));
    } else patterns.push(c.regex as RegExp);
  }
  return (v) => {
    if (typeof v !== 'string' || v.length < min || v.length > max) return UNSURE;
    for (let i = 0; i < patterns.length; i++) {
      const pattern = patterns[i]!;
      pattern.lastIndex = 0;
      if (!pattern.test(v)) return UNSURE;
    }
    return v;
  };
}

function compileNumber(schema: ZodTypeAny, def: Def): CompiledCheck {
  if (def.coerce) throw new Unsupported();
  const checks = def.checks as Check[];
  if (checks.some((c) => !['int', 'min', 'max', 'finite'].includes(c.kind))) return leafOf(schema);
  const integer = checks.some((c) => c.kind === 'int');
  const finite = checks.some((c) => c.kind === 'finite');
  // The tightest bounds, resolved once: every check must hold, so only the strictest of each side matters.
  let low = -Infinity;
  let lowInclusive = true;
  let high = Infinity;
  let highInclusive = true;
  for (const b of checks) {
    const limit = b.value as number;
    if (b.kind === 'min' && (limit > low || (limit === low && !b.inclusive))) {
      low = limit;
      lowInclusive = b.inclusive === true;
    } else if (b.kind === 'max' && (limit < high || (limit === high && !b.inclusive))) {
      high = limit;
      highInclusive = b.inclusive === true;
    }
  }
  return (v) => {
    if (typeof v !== 'number' || Number.isNaN(v)) return UNSURE;
    if (integer && !Number.isInteger(v)) return UNSURE;
    if (finite && !Number.isFinite(v)) return UNSURE;
    if (lowInclusive ? v < low : v <= low) return UNSURE;
    if (highInclusive ? v > high : v >= high) return UNSURE;
    return v;
  };
}

function compileArray(def: Def): CompiledCheck {
  const item = compile(def.type as ZodTypeAny);
  const min = Math.max((def.minLength?.value as number | undefined) ?? 0, (def.exactLength?.value as number | undefined) ?? 0);
  const max = Math.min(
    (def.maxLength?.value as number | undefined) ?? Infinity,
    (def.exactLength?.value as number | undefined) ?? Infinity,
  );
  return (v) => {
    if (!Array.isArray(v) || v.length < min || v.length > max) return UNSURE;
    // The input itself while every item comes back unchanged: no copy of a large body (see compileObject).
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const value: unknown = v[i];
      const parsed = item(value);
      if (parsed === UNSURE) return UNSURE;
      if (out === undefined && parsed !== value) out = v.slice(0, i);
      if (out !== undefined) out.push(parsed);
    }
    return out ?? v;
  };
}

function compileObject(schema: ZodTypeAny, def: Def): CompiledCheck {
  if ((def.catchall as ZodTypeAny)._def.typeName !== 'ZodNever') throw new Unsupported();
  if (def.unknownKeys !== 'strict' && def.unknownKeys !== 'strip') throw new Unsupported();
  const strict = def.unknownKeys === 'strict';
  const shape = (schema as unknown as { shape: Record<string, ZodTypeAny> }).shape;
  const fields = Object.entries(shape).map(([key, field]) => ({ key, check: compile(field) }));
  const known = new Set(fields.map((f) => f.key));
  const keys = fields.map((f) => f.key);
  const checks = fields.map((f) => f.check);

  /** Any key order, unknown and absent keys: zod's rules one by one. */
  const checkAnyOrder = (input: Record<string, unknown>): unknown => {
    if (strict) for (const key in input) if (!known.has(key)) return UNSURE;
    let out: Record<string, unknown> | undefined;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const value = input[key];
      const parsed = checks[i]!(value);
      if (parsed === UNSURE) return UNSURE;
      if (out === undefined && parsed !== value) out = copyFields(input, fields, i);
      if (out !== undefined && (parsed !== undefined || key in input)) out[key] = parsed;
    }
    if (out !== undefined) return out;
    // Every property came back unchanged and none is unknown: the input holds exactly zod's output (only the key
    // order may differ, which nothing reads), so it is returned as it is instead of being copied.
    if (!strict) for (const key in input) if (!known.has(key)) return copyFields(input, fields, fields.length);
    return input;
  };

  return (v) => {
    // Only plain objects, as JSON.parse makes them; anything else is zod's to judge.
    if (typeof v !== 'object' || v === null || Array.isArray(v) || Object.getPrototypeOf(v) !== Object.prototype) return UNSURE;
    const input = v as Record<string, unknown>;
    // Most bodies hold exactly the shape's keys, in its order. Walking the input's own keys then reads each value by
    // position (V8 loads `input[key]` inside `for…in` from the object's layout, with no lookup by name); any other
    // order, key or changed value is left to checkAnyOrder.
    let at = 0;
    let inOrder = true;
    for (const key in input) {
      if (key !== keys[at]) {
        inOrder = false;
        break;
      }
      const value = input[key];
      const parsed = checks[at]!(value);
      if (parsed === UNSURE) return UNSURE;
      if (parsed !== value) {
        inOrder = false;
        break;
      }
      at += 1;
    }
    return inOrder && at === keys.length ? input : checkAnyOrder(input);
  };
}

/** The first `count` shape properties of an input, as zod copies them: a key absent from the input stays absent. */
function copyFields(input: Record<string, unknown>, fields: { key: string }[], count: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const { key } = fields[i]!;
    if (input[key] !== undefined || key in input) out[key] = input[key];
  }
  return out;
}

function compileRefinement(def: Def): CompiledCheck {
  const effect = def.effect as { type: string; refinement?: (value: unknown, ctx: unknown) => unknown };
  if (effect.type !== 'refinement' || !effect.refinement) throw new Unsupported();
  const inner = compile(def.schema as ZodTypeAny);
  const refinement = effect.refinement;
  // One context for every call (refinements run synchronously): no closure made per value.
  let refused = false;
  const ctx = {
    addIssue: () => {
      refused = true;
    },
    path: [],
  };
  return (v) => {
    const parsed = inner(v);
    if (parsed === UNSURE) return UNSURE;
    refused = false;
    const result = refinement(parsed, ctx);
    // An asynchronous refinement is zod's to run.
    if (result instanceof Promise) return UNSURE;
    return refused ? UNSURE : parsed;
  };
}
