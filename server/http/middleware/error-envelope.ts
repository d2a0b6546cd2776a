import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { Logger } from '../../logger.js';
import type { ErrorEnvelope, ErrorType, Issue } from '../../../contract/common/index.js';
import { DomainError } from '../../domain/errors.js';
import { ERROR_STATUS } from '../error-status.js';
import { isDatabaseUnavailable } from '../../persistence/database-unavailable.js';

/** Seconds a client waits before retrying while the database is unavailable (the SDK honours it). */
export const DATABASE_RETRY_AFTER_SECONDS = 1;

export function sendError(res: Response, type: ErrorType, message: string, issues: Issue[] = [], status = ERROR_STATUS[type]): void {
  const body: ErrorEnvelope = { error: { type, message, issues } };
  res.status(status).json(body);
}

/** 404 for anything no route matched, in the error envelope. */
export const notFound: RequestHandler = (req, res) => {
  sendError(res, 'not_found', `No route for ${req.method} ${req.path}`);
};

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
}

/**
 * The last middleware: our own errors become their envelope; body-parser
 * failures become 400/413; an unusable database becomes 503; anything else is
 * logged and answered with a generic 500 that names nothing internal (no stack,
 * SQL or class names).
 */
export const errorEnvelope =
  (logger: Logger): ErrorRequestHandler =>
  (err: unknown, req, res, _next) => {
    if (res.headersSent) {
      logger.error({ reqId: req.id, err }, 'error after response was sent');
      res.end();
      return;
    }
    if (err instanceof DomainError) {
      for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
      sendError(res, err.type, err.message, err.issues, err.status ?? ERROR_STATUS[err.type]);
      return;
    }
    const parserError = err as BodyParserError;
    if (parserError?.type === 'entity.parse.failed') {
      sendError(res, 'validation_error', 'The request body is not valid JSON', [
        { code: 'invalid_json', path: '', message: 'The request body is not valid JSON' },
      ]);
      return;
    }
    if (parserError?.type === 'entity.too.large') {
      sendError(res, 'payload_too_large', `The request body exceeds the limit of ${parserError.limit} bytes`);
      return;
    }
    if (parserError?.type === 'encoding.unsupported' || parserError?.type === 'charset.unsupported') {
      sendError(res, 'unsupported_media_type', 'The request body must be UTF-8 JSON');
      return;
    }
    if (parserError?.type === 'request.aborted' || parserError?.type === 'request.size.invalid') {
      sendError(res, 'validation_error', 'The request body was incomplete', [
        { code: 'incomplete_body', path: '', message: 'The request body was incomplete' },
      ]);
      return;
    }
    if (err instanceof URIError) {
      // The router could not percent-decode a path parameter: the client's URL is broken, not the service.
      sendError(res, 'validation_error', 'The URL is not valid percent-encoded UTF-8', [
        { code: 'invalid_url_encoding', path: '', message: 'The URL is not valid percent-encoded UTF-8' },
      ]);
      return;
    }
    if (isDatabaseUnavailable(err)) {
      // Expected during a database outage or restart: not a bug, and the client should retry (docs/errors.md).
      const { message, code } = err as { message?: unknown; code?: unknown };
      // The driver prefixes the statement to the message: keep only the driver's reason.
      const reason = String(message).split('\n')[0]!.split(' - ').pop();
      logger.warn({ reqId: req.id, reason, code }, 'database unavailable');
      res.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      sendError(res, 'service_unavailable', 'The service cannot reach its database right now; retry with back-off.');
      return;
    }
    logger.error({ reqId: req.id, err }, 'unhandled error');
    sendError(res, 'internal_error', 'An unexpected error occurred. It has been logged; retry with back-off.');
  };
