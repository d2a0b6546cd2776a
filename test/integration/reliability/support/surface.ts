import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { z, type ZodTypeAny } from 'zod';
import { contract } from '../../../../contract/index.js';
import { IssueSchema, type RouteAccess } from '../../../../contract/common/index.js';
import { procedureDefinitions, type ProcedureDefinition } from '../../../../admin/procedure-catalog.js';

/** One `/api/v1` route of the contract, with the parts a request is built from. */
export interface ContractRoute {
  /** Dotted name in the router, e.g. `gwa.reportPayment`. */
  name: string;
  route: AppRoute;
  method: string;
  access: RouteAccess;
  pathParams?: z.AnyZodObject;
  query?: ZodTypeAny;
  body?: ZodTypeAny;
}

function walk(router: AppRouter, prefix: string[] = []): ContractRoute[] {
  return Object.entries(router).flatMap(([key, value]) => {
    const name = [...prefix, key];
    if (!isAppRoute(value)) return walk(value, name);
    const zod = (schema: unknown) => (schema instanceof z.ZodType ? schema : undefined);
    return [
      {
        name: name.join('.'),
        route: value,
        method: value.method,
        access: (value.metadata as { access: RouteAccess }).access,
        ...(zod(value.pathParams) ? { pathParams: zod(value.pathParams) as z.AnyZodObject } : {}),
        ...(zod(value.query) ? { query: zod(value.query)! } : {}),
        ...('body' in value && zod(value.body) ? { body: zod(value.body)! } : {}),
      },
    ];
  });
}

/** Every route of the public contract, read from the router (a new route is listed without editing a test). */
export function contractRoutes(): ContractRoute[] {
  return walk(contract);
}

/** Every operator procedure, read from the admin router. */
export function adminProcedures(): ProcedureDefinition[] {
  return procedureDefinitions();
}

/** The URL path of a route with its parameters filled in (each encoded). */
export function pathOf(route: ContractRoute, params: Record<string, unknown>): string {
  return route.route.path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(params[name])));
}

/** The schema a route documents for `status`, or undefined when the status is not documented. */
export function documentedResponse(route: ContractRoute, status: number): ZodTypeAny | undefined {
  const schema = (route.route.responses as Record<string, unknown>)[String(status)];
  return schema instanceof z.ZodType ? schema : undefined;
}

/**
 * The error shape of the operator surface (admin/trpc.ts errorFormatter): tRPC's
 * envelope whose `data` carries the HTTP status and, for bad input, our issues.
 */
export const AdminErrorSchema = z
  .object({
    error: z
      .object({
        message: z.string(),
        code: z.number().int(),
        data: z
          .object({ code: z.string(), httpStatus: z.number().int(), path: z.string().optional(), issues: z.array(IssueSchema).optional() })
          .strict(),
      })
      .strict(),
  })
  .strict();

/** Names of the fields of an object schema (through optional, default and refinement wrappers). */
export function objectShape(schema: ZodTypeAny | undefined): Record<string, ZodTypeAny> {
  let current = schema;
  for (let i = 0; i < 8 && current; i++) {
    const def = current._def as Record<string, any>;
    if (def.typeName === 'ZodObject') return def.shape() as Record<string, ZodTypeAny>;
    current = def.innerType ?? def.schema;
  }
  return {};
}
