import type { RateLimitStore } from '../../domain/rate-limit/ports.js';
import type { Database } from '../kysely.js';
import { leaseTokens } from '../sql/rate-limit-buckets.sql.js';

export function rateLimitStore(db: Database): RateLimitStore {
  return { leaseTokens: (bucketId, want, settings) => leaseTokens(db, bucketId, want, settings) };
}
