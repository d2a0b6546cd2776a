import { z } from 'zod';

/**
 * Every `error.type` the service returns. The HTTP status of each is fixed in
 * `server/http/error-status.ts`; docs/errors.md explains when each occurs.
 */
export const ErrorTypeSchema = z.enum([
  /** 400/422: the request or the invoice it carries cannot be accepted as sent. */
  'validation_error',
  /** 401: missing, malformed, unknown or revoked API key. */
  'authentication_error',
  /** 403: the key is valid but its provider, scopes or environment do not allow the call. */
  'permission_error',
  /** 404: no such route or resource in the key's context. */
  'not_found',
  /** 409: the request conflicts with what is already recorded. */
  'conflict',
  /** 410: the resource existed and was retired for good (a disabled gwa webhook endpoint). */
  'gone',
  /** 413: the request body is larger than the route accepts. */
  'payload_too_large',
  /** 415: the request body is not `application/json`. */
  'unsupported_media_type',
  /** 429: too many requests of this kind; retry after the indicated delay. */
  'rate_limited',
  /** 500: an unexpected server failure; safe to retry with back-off. */
  'internal_error',
  /** 502: a party the service depends on (for example email delivery) failed. */
  'upstream_error',
  /** 503: the service is not ready (for example the database is unreachable). */
  'service_unavailable',
]);
export type ErrorType = z.infer<typeof ErrorTypeSchema>;

/** One problem with a request: a stable code, the offending field's path and a readable message. */
export const IssueSchema = z
  .object({
    code: z.string().describe('Stable machine-readable code; see docs/issue-codes.md'),
    path: z.string().describe('Path of the offending field, for example `invoice.lineItems[3].quantity`; empty for the whole body'),
    message: z.string(),
  })
  .strict();
export type Issue = z.infer<typeof IssueSchema>;

/**
 * Kind of problem behind an issue of a stored invoice (spec: StoredInvoice, Issue.category):
 * `source` (deleted, missing dependency), `mapping` (product code, unit, revoked mapping),
 * `validation` (identifiers, quantities, arithmetic), `payment` (not open, not fully unpaid),
 * `freshness` (stale source, sync pending), `access` (connection paused, disconnected, reauthorization).
 */
export const IssueCategorySchema = z.enum(['source', 'mapping', 'validation', 'payment', 'freshness', 'access']);
export type IssueCategory = z.infer<typeof IssueCategorySchema>;

/** An issue with its category: invoice readiness and gwc `optimizationIssues` (docs/issue-codes.md). */
export const CategorizedIssueSchema = IssueSchema.extend({ category: IssueCategorySchema }).strict();
export type CategorizedIssue = z.infer<typeof CategorizedIssueSchema>;

/** The error envelope of payment, enrichment and invoice endpoints (spec: Errors). */
export const ErrorEnvelopeSchema = z
  .object({
    error: z
      .object({
        type: ErrorTypeSchema,
        message: z.string(),
        issues: z.array(IssueSchema),
      })
      .strict(),
  })
  .strict()
  .describe('Error envelope');
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

/**
 * The accounting-source endpoints may answer with a top-level string `error`
 * (spec: Errors). Clients must tolerate both shapes; this service itself always
 * sends `ErrorEnvelopeSchema`, and this schema exists so clients can narrow either.
 */
export const LedgerErrorEnvelopeSchema = z.object({ error: z.string(), message: z.string().optional() });
export type LedgerErrorEnvelope = z.infer<typeof LedgerErrorEnvelopeSchema>;
