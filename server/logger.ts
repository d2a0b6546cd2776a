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

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'svc' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    destination,
  );
}
export type { Logger };
