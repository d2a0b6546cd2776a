import { randomBytes } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-svc-request-id';

/**
 * A fresh, unguessable diagnostic id for every request (128 random bits), sent
 * back on every response. The `req_` prefix keeps it apart from record UUIDs:
 * it is never a business identifier (spec: Common conventions).
 */
export function newRequestId(): string {
  return `req_${randomBytes(16).toString('hex')}`;
}
