/**
 * Failed authentications per client, in this process: a token bucket per client
 * address that each failure spends (`perSecond` refill, `burst` capacity). While a
 * client's bucket is empty its requests are refused before any key lookup, except
 * those whose key this process holds cached as valid (docs/decisions.md,
 * "Unknown API keys"). Memory is bounded: beyond `MAX_CLIENTS` the full buckets
 * are dropped (a full bucket is the same as none).
 */
const MAX_CLIENTS = 10_000;

export interface FailureLimitSettings {
  perSecond: number;
  burst: number;
}

export function createFailureLimiter(settings: FailureLimitSettings, now: () => number = Date.now) {
  const clients = new Map<string, { tokens: number; at: number }>();
  const level = (client: string, at: number): number => {
    const b = clients.get(client);
    return b ? Math.min(settings.burst, b.tokens + ((at - b.at) / 1000) * settings.perSecond) : settings.burst;
  };
  return {
    /** Seconds until the client may fail again; 0 when it may be authenticated now. */
    retryAfterSeconds(client: string): number {
      const tokens = level(client, now());
      return tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / settings.perSecond));
    },
    /** Spend one token for a failed authentication. */
    failed(client: string): void {
      const at = now();
      if (clients.size >= MAX_CLIENTS && !clients.has(client))
        for (const [c] of clients) if (level(c, at) >= settings.burst) clients.delete(c);
      clients.set(client, { tokens: Math.max(0, level(client, at) - 1), at });
    },
  };
}
export type FailureLimiter = ReturnType<typeof createFailureLimiter>;
