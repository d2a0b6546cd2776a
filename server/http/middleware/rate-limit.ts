import { createHash } from 'node:crypto';
import type { Config } from '../../config.js';
import { DomainError } from '../../domain/errors.js';
import { rateLimitMetrics } from '../../observability/business-metrics.js';
import { createKeyRateLimiter } from '../../domain/rate-limit/key-rate-limiter.js';
import { leaseTokens } from '../../persistence/sql/rate-limit-buckets.sql.js';
import type { Sql } from '../../persistence/sql/sql.js';

export type RateLimitConfig = Pick<
  Config,
  | 'SVC_RATE_LIMIT_PER_SECOND'
  | 'SVC_RATE_LIMIT_BURST'
  | 'SVC_RATE_LIMIT_LEASE'
  | 'SVC_WEBHOOK_RATE_LIMIT_PER_SECOND'
  | 'SVC_WEBHOOK_RATE_LIMIT_BURST'
>;

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

/**
 * The bucket id of a webhook endpoint in the shared bucket table: a UUID derived
 * from the endpoint id under its own name, so it never meets an API key's bucket.
 */
function webhookBucketId(endpointId: string): string {
  const h = createHash('sha256').update(`gwa-webhook-endpoint:${endpointId}`, 'utf8').digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/**
 * The per-endpoint limit of gwa webhook deliveries, over the same shared buckets
 * as the per-key limit (one place for the bucket rules). Checked once the endpoint
 * is known to take deliveries and before its body is read or verified.
 */
export function webhookRateLimit(sql: Sql, config: RateLimitConfig) {
  const bucket = { perSecond: config.SVC_WEBHOOK_RATE_LIMIT_PER_SECOND, burst: config.SVC_WEBHOOK_RATE_LIMIT_BURST };
  const take = createKeyRateLimiter(
    { ...bucket, leaseSize: Math.min(config.SVC_RATE_LIMIT_LEASE, bucket.burst), leaseTtlMs: LEASE_TTL_MS },
    (bucketId, want) => leaseTokens(sql, bucketId, want, bucket),
  );
  return {
    check: async (endpointId: string): Promise<void> => {
      const decision = await take(webhookBucketId(endpointId));
      if (decision.allowed) return;
      throw new DomainError(
        'rate_limited',
        `Too many deliveries to this webhook endpoint (at most ${bucket.perSecond} per second, bursts up to ${bucket.burst}); retry after ${decision.retryAfterSeconds} s`,
        [],
        undefined,
        { 'Retry-After': String(decision.retryAfterSeconds) },
      );
    },
  };
}
export type WebhookRateLimit = ReturnType<typeof webhookRateLimit>;
