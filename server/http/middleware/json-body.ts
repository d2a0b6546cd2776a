import express, { type Request, type RequestHandler, type Response } from 'express';
import { DomainError } from '../../domain/errors.js';

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
}

/** Bodies must be JSON: anything else is refused before parsing (415). */
export const requireJsonContentType: RequestHandler = (req, _res, next) => {
  if (hasBody(req.headers) && !req.is('application/json')) {
    next(new DomainError('unsupported_media_type', 'Request bodies must be sent as Content-Type: application/json'));
    return;
  }
  next();
};

/**
 * Strict JSON parser with a size limit; parse and size failures reach the error
 * middleware. The limit is applied while reading: buffering stops once the body
 * exceeds it (or at once when Content-Length declares more), and the rest of the
 * body is discarded unread into memory before the 413 is sent.
 */
export function parseJsonBody(limitBytes: number): RequestHandler {
  return express.json({ limit: limitBytes, strict: true, type: 'application/json' });
}

/** The parser of `parseJsonBody`, for use inside a middleware that has authenticated first. */
export function readJsonBody(req: Request, res: Response, limitBytes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    parseJsonBody(limitBytes)(req, res, (err?: unknown) => (err ? reject(err) : resolve()));
  });
}
