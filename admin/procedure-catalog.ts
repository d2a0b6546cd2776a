import type { AnyProcedure } from '@trpc/server';
import { zodToJsonSchema } from './zod-to-text.js';
import { adminRouter } from './router.js';

export interface ProcedureInfo {
  name: string;
  type: 'query' | 'mutation';
  /** A readable description of the input, for `--help`. */
  input: string;
}

/** Every operator procedure with its kind and input shape, read from the router itself. */
export function procedureCatalog(): ProcedureInfo[] {
  const procedures = adminRouter._def.procedures as unknown as Record<string, AnyProcedure>;
  return Object.entries(procedures)
    .map(([name, procedure]) => {
      const def = procedure._def as unknown as { type: 'query' | 'mutation'; inputs: unknown[] };
      return { name, type: def.type, input: def.inputs.length > 0 ? zodToJsonSchema(def.inputs[0]) : '(none)' };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function procedureType(name: string): 'query' | 'mutation' | undefined {
  return procedureCatalog().find((p) => p.name === name)?.type;
}
