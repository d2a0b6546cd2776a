import { createHash } from 'node:crypto';
import type { Config } from '../../config.js';
import { DomainError } from '../../domain/errors.js';
import { rateLimitMetrics } from '../../observability/business-metrics.js';
import { createKeyRateLimiter } from '../../domain/rate-limit/key-rate-limiter.js';
import type { RateLimitStore } from '../../domain/rate-limit/ports.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';

type Storage = UnitOfWork<{ rateLimit: RateLimitStore }>;

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
 * A token-bucket limit over the buckets shared in PostgreSQL, leased by single
 * statements outside any transaction (`storage.store`, no ORM context), one bucket per id that
 * `bucketOf` gives. `check` resolves when the caller may proceed and throws 429
 * `rate_limited` with `Retry-After` otherwise (`what` names what is limited).
 */
function sharedBucketLimit(
  storage: Storage,
  bucket: { perSecond: number; burst: number },
  leaseSize: number,
  limited: { what: string; bucketOf: (id: string) => string; counted: boolean },
) {
  const store = storage.store.rateLimit;
  const take = createKeyRateLimiter({ ...bucket, leaseSize, leaseTtlMs: LEASE_TTL_MS }, (bucketId, want) =>
    store.leaseTokens(bucketId, want, bucket),
  );
  return {
    check: async (id: string): Promise<void> => {
      const decision = await take(limited.bucketOf(id));
      if (decision.allowed) return;
      if (limited.counted) rateLimitMetrics.refused();
      throw new DomainError(
        'rate_limited',
        `Too many ${limited.what} (at most ${bucket.perSecond} per second, bursts up to ${bucket.burst}); retry after ${decision.retryAfterSeconds} s`,
        [],
        undefined,
        { 'Retry-After': String(decision.retryAfterSeconds) },
      );
    },
  };
}

/** The per-key limit of every /api/v1 route, for this process (docs/reliability.md, "Rate limits"). */
export function apiRateLimit(storage: Storage, config: RateLimitConfig) {
  const bucket = { perSecond: config.SVC_RATE_LIMIT_PER_SECOND, burst: config.SVC_RATE_LIMIT_BURST };
  return sharedBucketLimit(storage, bucket, config.SVC_RATE_LIMIT_LEASE, {
    what: 'requests for this API key',
    bucketOf: (apiKeyId) => apiKeyId,
    counted: true,
  });
}
export type ApiRateLimit = ReturnType<typeof apiRateLimit>;

/**
 * The bucket id of a webhook endpoint and one source of deliveries in the shared bucket table: a UUID derived from
 * both under its own name, so it never meets an API key's bucket.
 */
function webhookBucketId(endpointAndSource: string): string {
  const h = createHash('sha256').update(`gwa-webhook-endpoint-source:${endpointAndSource}`, 'utf8').digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/**
 * The limit of provider webhook deliveries (gwa and gwc) per endpoint and per source (the client identity,
 * client-identity.ts), over the same shared buckets as the per-key limit (one place for the bucket rules): a flood
 * against one endpoint URL from one source spends that source's budget, not the provider's own addresses'.
 * Checked once the endpoint is known to take deliveries and before its body is read or verified.
 */
export function webhookRateLimit(storage: Storage, config: RateLimitConfig) {
  const bucket = { perSecond: config.SVC_WEBHOOK_RATE_LIMIT_PER_SECOND, burst: config.SVC_WEBHOOK_RATE_LIMIT_BURST };
  const limit = sharedBucketLimit(storage, bucket, Math.min(config.SVC_RATE_LIMIT_LEASE, bucket.burst), {
    what: 'deliveries to this webhook endpoint from this source',
    bucketOf: webhookBucketId,
    counted: false,
  });
  return { check: (endpointId: string, source: string) => limit.check(`${endpointId}\n${source}`) };
}
export type WebhookRateLimit = ReturnType<typeof webhookRateLimit>;
