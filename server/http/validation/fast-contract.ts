import type { AppRoute, AppRouter } from '@ts-rest/core';
import type { ZodTypeAny } from 'zod';
import { compileSchema, fastSafeParse } from '../../validation/compile-schema.js';

/** A body schema as ts-rest calls it (`safeParse`): the compiled check first (`fastSafeParse`), zod when it cannot compile. */
export function fastBodySchema(schema: ZodTypeAny): { safeParse: ZodTypeAny['safeParse'] } | ZodTypeAny {
  return compileSchema(schema) ? { safeParse: fastSafeParse(schema) } : schema;
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
