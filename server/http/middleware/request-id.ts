import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';

export const REQUEST_ID_HEADER = 'x-svc-request-id';

/**
 * A fresh, unguessable diagnostic id for every request (128 random bits), sent
 * back on every response. The `req_` prefix keeps it apart from record UUIDs:
 * it is never a business identifier (spec: Common conventions).
 */
export function newRequestId(): string {
  return `req_${randomBytes(16).toString('hex')}`;
}

export const requestId: RequestHandler = (req, res, next) => {
  const id = newRequestId();
  req.id = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  next();
};
