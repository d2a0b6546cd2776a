import { z } from 'zod';

/**
 * Every setting the service reads, parsed once at start-up. Nothing else reads
 * `process.env`; the typed result is passed down. Documented in README.md.
 */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));

const port = (fallback: number) =>
  z.coerce
    .number({ invalid_type_error: 'must be a port number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(fallback);

const positiveInt = (fallback: number) =>
  z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').positive('must be positive').default(fallback);

export const ConfigSchema = z.object({
  PORT: port(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .url('must be a postgres:// URL')
      .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must be a postgres:// URL')
      .optional(),
  ),
  SVC_DATA_DIR: z.string().min(1).default('.svc'),
  SVC_EMBEDDED_PG_PORT: port(54329),
  SVC_ENVIRONMENT: z.enum(['sandbox', 'production']).default('sandbox'),
  SVC_ADMIN_TOKEN: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  SVC_BODY_LIMIT_BYTES: positiveInt(1_048_576),
  SVC_SHUTDOWN_TIMEOUT_MS: positiveInt(10_000),
  /** Check every response against the contract before sending (tests turn it on; it costs CPU per request). */
  SVC_RESPONSE_VALIDATION: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parse the environment; on failure, name every bad variable (never its value: it may be a secret). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  throw new ConfigError(problems);
}
