import type { AnyProcedure } from '@trpc/server';
import type { ZodTypeAny } from 'zod';
import { zodToJsonSchema } from './zod-to-text.js';
import { adminRouter } from './router.js';

export interface ProcedureInfo {
  name: string;
  type: 'query' | 'mutation';
  /** A readable description of the input, for `--help`. */
  input: string;
}

export interface ProcedureDefinition {
  name: string;
  type: 'query' | 'mutation';
  /** The zod schema of the input; absent for a procedure that takes none. */
  input?: ZodTypeAny;
}

/** Every operator procedure with its kind and input schema, read from the router itself. */
export function procedureDefinitions(): ProcedureDefinition[] {
  const procedures = adminRouter._def.procedures as unknown as Record<string, AnyProcedure>;
  return Object.entries(procedures)
    .map(([name, procedure]) => {
      const def = procedure._def as unknown as { type: 'query' | 'mutation'; inputs: ZodTypeAny[] };
      return { name, type: def.type, ...(def.inputs.length > 0 ? { input: def.inputs[0] } : {}) };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Every operator procedure with its kind and a readable input shape. */
export function procedureCatalog(): ProcedureInfo[] {
  return procedureDefinitions().map(({ name, type, input }) => ({ name, type, input: input ? zodToJsonSchema(input) : '(none)' }));
}

export function procedureType(name: string): 'query' | 'mutation' | undefined {
  return procedureDefinitions().find((p) => p.name === name)?.type;
}
