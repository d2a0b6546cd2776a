/**
 * Whether an error means the database cannot be used right now (down, restarting,
 * unreachable, out of connections, or a statement cancelled by the statement
 * timeout), as opposed to a fault of the request or the code. Such a request is
 * answered 503 `service_unavailable` with `Retry-After` (docs/errors.md).
 */
const UNAVAILABLE_CODES = new Set([
  // Node socket errors while connecting or talking to PostgreSQL.
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // PostgreSQL: too many connections, query cancelled (statement timeout), server shutting down or starting.
  '53300',
  '57014',
  '57P01',
  '57P02',
  '57P03',
]);

/** Messages of the pg driver and the pool that carry no code (the pool's acquire timeout is "timeout exceeded …"). */
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /Client has encountered a connection error/i,
  /timeout exceeded when trying to connect/i,
  /Connection is closed/i,
];

export function isDatabaseUnavailable(err: unknown): boolean {
  // Only the error itself: the driver and the pool throw these as they are (the ORM copies `code` onto its own
  // exceptions), while a `cause` chain would also match a failed call to another party (fetch, SMTP).
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => m.test(message));
}
