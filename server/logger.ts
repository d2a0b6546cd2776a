import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * Paths that may carry a secret. Request bodies are never logged at all; these
 * cover headers and any structured field a log call might include by mistake.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'authorization',
  'apiKey',
  'key',
  'token',
  'accessToken',
  'refreshToken',
  'password',
  'secret',
  '*.authorization',
  '*.apiKey',
  '*.key',
  '*.token',
  '*.accessToken',
  '*.refreshToken',
  '*.password',
  '*.secret',
];

/** SQLSTATE: five digits or capitals; errors carrying one come from PostgreSQL. */
const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * How an error is logged. A database error's message and stack quote the SQL
 * with its parameter values (bodies, emails, provider records), so only its
 * class, SQLSTATE and the names PostgreSQL reports are kept; other errors keep
 * message and stack. Causes are followed the same way.
 */
export function serializeError(err: unknown, depth = 0): Record<string, unknown> {
  if (!(err instanceof Error)) return { type: typeof err, value: typeof err === 'string' ? '[string]' : String(err) };
  const e = err as Error & { code?: unknown; constraint?: unknown; table?: unknown; column?: unknown; cause?: unknown; sqlState?: unknown };
  const code = typeof e.code === 'string' && SQLSTATE.test(e.code) ? e.code : typeof e.sqlState === 'string' ? e.sqlState : undefined;
  const cause = e.cause !== undefined && depth < 3 ? { cause: serializeError(e.cause, depth + 1) } : {};
  if (code !== undefined || /Exception$|DatabaseError/.test(e.name) || e.constructor?.name?.endsWith('Exception')) {
    const names = Object.fromEntries(
      (['constraint', 'table', 'column'] as const).filter((k) => typeof e[k] === 'string').map((k) => [k, e[k]]),
    );
    return { type: e.constructor?.name ?? e.name, ...(code ? { code } : {}), ...names, ...cause };
  }
  return { type: e.constructor?.name ?? e.name, message: e.message, stack: e.stack, ...cause };
}

/**
 * `fields` go on every line (a cluster's HTTP processes add their number).
 * Without a destination, lines go to stdout asynchronously: a request never
 * waits for a write, writes made while one is in flight are coalesced, and
 * what is buffered is flushed when the process exits.
 */
export function createLogger(level: string, destination?: DestinationStream, fields: Record<string, unknown> = {}): Logger {
  return pino(
    {
      level,
      base: { service: 'svc', ...fields },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { err: serializeError },
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
export type { Logger };
