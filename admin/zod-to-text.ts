import { z } from 'zod';

/** A compact, readable rendering of a zod input schema for the CLI's help, e.g. `{integrationId: uuid, scopes: [enum]}`. */
export function zodToJsonSchema(schema: unknown): string {
  return render(schema as z.ZodTypeAny);
}

function render(schema: z.ZodTypeAny): string {
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as Record<string, z.ZodTypeAny>;
    return `{${Object.entries(shape)
      .map(([key, value]) => `${key}${value.isOptional() ? '?' : ''}: ${render(value)}`)
      .join(', ')}}`;
  }
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return render(schema.unwrap());
  if (schema instanceof z.ZodEffects) return render(schema.innerType());
  if (schema instanceof z.ZodDefault) return render(schema._def.innerType);
  if (schema instanceof z.ZodArray) return `[${render(schema.element)}, …]`;
  if (schema instanceof z.ZodEnum) return (schema.options as string[]).map((o) => `'${o}'`).join(' | ');
  if (schema instanceof z.ZodString) return schema.isUUID ? 'uuid' : 'string';
  if (schema instanceof z.ZodNumber) return schema.isInt ? 'integer' : 'number';
  if (schema instanceof z.ZodBoolean) return 'boolean';
  return 'value';
}
