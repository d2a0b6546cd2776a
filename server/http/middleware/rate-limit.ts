import type { Config } from '../../config.js';
import { DomainError } from '../../domain/errors.js';
import { rateLimitMetrics } from '../../observability/business-metrics.js';
import { createKeyRateLimiter } from '../../domain/rate-limit/key-rate-limiter.js';
import { leaseTokens } from '../../persistence/sql/rate-limit-buckets.sql.js';
import type { Sql } from '../../persistence/sql/sql.js';

export type RateLimitConfig = Pick<Config, 'SVC_RATE_LIMIT_PER_SECOND' | 'SVC_RATE_LIMIT_BURST' | 'SVC_RATE_LIMIT_LEASE'>;

/** Leased tokens a process has not spent within this time are dropped (docs/reliability.md, "Rate limits"). */
const LEASE_TTL_MS = 1_000;

/**
 * The per-key limit of every /api/v1 route, for this process, over the buckets
 * shared in PostgreSQL, leased by single statements on the pool (`sql`, no ORM
 * context). `check` resolves when the key may proceed and throws 429
 * `rate_limited` with `Retry-After` otherwise.
 */
export function apiRateLimit(sql: Sql, config: RateLimitConfig) {
  const bucket = { perSecond: config.SVC_RATE_LIMIT_PER_SECOND, burst: config.SVC_RATE_LIMIT_BURST };
  const take = createKeyRateLimiter({ ...bucket, leaseSize: config.SVC_RATE_LIMIT_LEASE, leaseTtlMs: LEASE_TTL_MS }, (apiKeyId, want) =>
    leaseTokens(sql, apiKeyId, want, bucket),
  );
  return {
    check: async (apiKeyId: string): Promise<void> => {
      const decision = await take(apiKeyId);
      if (decision.allowed) return;
      rateLimitMetrics.refused();
      throw new DomainError(
        'rate_limited',
        `Too many requests for this API key (at most ${bucket.perSecond} per second, bursts up to ${bucket.burst}); retry after ${decision.retryAfterSeconds} s`,
        [],
        undefined,
        { 'Retry-After': String(decision.retryAfterSeconds) },
      );
    },
  };
}
export type ApiRateLimit = ReturnType<typeof apiRateLimit>;
