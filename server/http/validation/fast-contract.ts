import type { AppRoute, AppRouter } from '@ts-rest/core';
import type { ZodTypeAny } from 'zod';
import { compileSchema, UNSURE } from './compile-schema.js';

/**
 * A body schema as ts-rest calls it (`safeParse`): the compiled check first,
 * and zod itself whenever the check cannot vouch for the body, so a refused
 * body gets exactly zod's issues. Each body is still validated once.
 */
export function fastBodySchema(schema: ZodTypeAny): { safeParse: ZodTypeAny['safeParse'] } | ZodTypeAny {
  const check = compileSchema(schema);
  if (!check) return schema;
  return {
    safeParse: (value: unknown) => {
      const out = check(value);
      return out === UNSURE ? schema.safeParse(value) : { success: true, data: out };
    },
  } as Pick<ZodTypeAny, 'safeParse'>;
}

const isRoute = (node: AppRoute | AppRouter): node is AppRoute => 'method' in node && 'path' in node;

/** The contract as the server mounts it: every request body schema compiled once; paths, metadata and responses unchanged. */
export function withFastBodies<T extends AppRouter>(router: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, node] of Object.entries(router) as [string, AppRoute | AppRouter][]) {
    if (!isRoute(node)) out[key] = withFastBodies(node);
    else out[key] = 'body' in node && node.body ? { ...node, body: fastBodySchema(node.body as ZodTypeAny) } : node;
  }
  return out as T;
}
