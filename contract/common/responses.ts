import { ErrorEnvelopeSchema } from './errors.js';

/**
 * Statuses every `/api/v1` route can return whatever it does: bad input,
 * bad credentials, an oversized or non-JSON body, an unexpected failure.
 */
export const commonResponses = {
  400: ErrorEnvelopeSchema,
  401: ErrorEnvelopeSchema,
  403: ErrorEnvelopeSchema,
  413: ErrorEnvelopeSchema,
  415: ErrorEnvelopeSchema,
  500: ErrorEnvelopeSchema,
} as const;
