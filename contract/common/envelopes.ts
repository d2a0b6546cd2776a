import { z } from 'zod';

/** `{object, api_version: 'v1', data}`: the success envelope of every business endpoint. */
export function successEnvelope<Name extends string, Data extends z.ZodTypeAny>(object: Name, data: Data) {
  return z
    .object({
      object: z.literal(object),
      api_version: z.literal('v1'),
      data,
    })
    .strict();
}

/** The accounting-source variant: like the success envelope but without `api_version` (spec: Versioning). */
export function ledgerEnvelope<Name extends string, Shape extends z.ZodRawShape>(object: Name, shape: Shape) {
  return z
    .object({ object: z.literal(object) })
    .extend(shape)
    .strict();
}
