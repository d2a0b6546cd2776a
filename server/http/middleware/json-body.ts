import express, { type RequestHandler } from 'express';
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

/** Strict JSON parser with a size limit; parse and size failures reach the error middleware. */
export function parseJsonBody(limitBytes: number): RequestHandler {
  return express.json({
    limit: limitBytes,
    strict: true,
    type: 'application/json',
    verify: (req, _res, buf) => {
      (req as express.Request).rawBodyLength = buf.length;
    },
  });
}
