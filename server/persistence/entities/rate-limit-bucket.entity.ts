import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * The shared token bucket of one API key (docs/reliability.md, "Rate limits").
 * Processes lease tokens from it in batches; `tokens` is what was left at
 * `refilledAt`, refill is computed from the elapsed time on each lease.
 * `lastGrant` is what the latest lease took (read back by that lease). The table
 * is unlogged (see its migration).
 */
export const RateLimitBucket = defineEntity({
  name: 'RateLimitBucket',
  tableName: 'rate_limit_buckets',
  properties: {
    apiKeyId: p.uuid().primary(),
    tokens: p.double(),
    lastGrant: p.integer(),
    refilledAt: p.datetime(),
  },
});
export type RateLimitBucket = InferEntity<typeof RateLimitBucket>;
