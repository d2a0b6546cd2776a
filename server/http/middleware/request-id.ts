import { randomFillSync } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-svc-request-id';

/** Random bytes for 256 ids at a time: one call into the CSPRNG per 256 requests instead of one per request. */
const ID_BYTES = 16;
const pool = Buffer.alloc(ID_BYTES * 256);
let offset = pool.length;

/**
 * A fresh, unguessable diagnostic id for every request (128 random bits), sent
 * back on every response. The `req_` prefix keeps it apart from record UUIDs:
 * it is never a business identifier (spec: Common conventions).
 */
export function newRequestId(): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = pool.toString('hex', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return `req_${id}`;
}
