import type { BucketSettings, Lease } from './types.js';

/** The shared token buckets (server/persistence/stores/rate-limit-store.ts implements it). */
export interface RateLimitStore {
  /** Take up to `want` whole tokens from the bucket `bucketId`, refilled first for the time elapsed; created full on first use. */
  leaseTokens(bucketId: string, want: number, settings: BucketSettings): Promise<Lease>;
}
