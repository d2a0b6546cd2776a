/** A shared token bucket's rule (table `rate_limit_buckets`). */
export interface BucketSettings {
  /** Tokens added per second. */
  perSecond: number;
  /** Most tokens the bucket holds. */
  burst: number;
}

/** What one lease took from a shared bucket. */
export interface Lease {
  /** Tokens taken (0..want). */
  granted: number;
  /** Tokens left in the shared bucket right after this lease. */
  remaining: number;
}
