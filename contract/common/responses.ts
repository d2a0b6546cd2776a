import { ErrorEnvelopeSchema } from './errors.js';

/**
 * Statuses every `/api/v1` route can return whatever it does: bad input,
 * bad credentials, an oversized or non-JSON body, the key's rate limit (429,
 * `Retry-After`), an unexpected failure, the database unavailable (503,
 * `Retry-After`).
 */
export const commonResponses = {
  400: ErrorEnvelopeSchema,
  401: ErrorEnvelopeSchema,
  403: ErrorEnvelopeSchema,
  413: ErrorEnvelopeSchema,
  415: ErrorEnvelopeSchema,
  429: ErrorEnvelopeSchema,
  500: ErrorEnvelopeSchema,
  503: ErrorEnvelopeSchema,
} as const;
