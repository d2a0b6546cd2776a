import express, { type Request, type RequestHandler, type Response } from 'express';
import { DomainError } from '../../domain/errors.js';
import { findUnsafeStructure, refusalMessage } from '../../domain/guard/secrets-guard.js';

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
}

/** The declared charset, lowercased, when the content type names one. */
function charsetOf(contentType: string | undefined): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
}

/**
 * Bodies must be JSON in UTF-8 (RFC 8259): anything else is refused before
 * parsing (415). A body declared in another charset would otherwise be decoded
 * from it, and a client's UTF-8 bytes read as UTF-16 turn into garbage.
 */
export const requireJsonContentType: RequestHandler = (req, _res, next) => {
  if (!hasBody(req.headers)) return next();
  if (!req.is('application/json')) {
    next(new DomainError('unsupported_media_type', 'Request bodies must be sent as Content-Type: application/json'));
    return;
  }
  const charset = charsetOf(req.headers['content-type']);
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    next(new DomainError('unsupported_media_type', 'The request body must be UTF-8 JSON'));
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

/**
 * After `parseJsonBody` on the operator surface: a body nested deeper than the
 * guard's limit, or holding text PostgreSQL cannot store, is refused (400) before
 * anything walks it (tRPC re-serializes the parsed body recursively).
 */
export const refuseUnsafeBody: RequestHandler = (req, _res, next) => {
  const issues = findUnsafeStructure(req.body);
  if (issues.length > 0) {
    next(new DomainError('validation_error', refusalMessage(issues), issues));
    return;
  }
  next();
};
