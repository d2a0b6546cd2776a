import type { Lease } from './types.js';

export interface RateLimitSettings {
  /** Tokens added to a key's shared bucket per second. */
  perSecond: number;
  /** Most tokens a key's shared bucket holds. */
  burst: number;
  /** Most tokens one process takes from the shared bucket per round trip. */
  leaseSize: number;
  /** Leased tokens unused after this long are dropped, so no process hoards an old burst. */
  leaseTtlMs: number;
}

export type Decision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Local {
  tokens: number;
  expiresAt: number;
  /** No token can exist in the shared bucket before this time (it had less than one at the last lease). */
  emptyUntil: number;
  leasing?: Promise<void>;
}

/** Entries kept before expired ones are dropped (one per key seen recently). */
const PRUNE_ABOVE = 10_000;

/**
 * Per-key rate limit of one process over a token bucket shared by every
 * process in PostgreSQL (docs/reliability.md, "Rate limits"). A request spends
 * a locally held token without I/O; only when none is left does the process
 * lease a batch (one statement). The shared bucket never hands out more tokens
 * than its rate and burst allow, so the limit holds across processes; tokens a
 * process leased but did not spend within `leaseTtlMs` are lost, which can only
 * make the limit stricter. A key known to be empty is refused locally until a
 * token can exist again.
 */
export function createKeyRateLimiter(
  settings: RateLimitSettings,
  lease: (apiKeyId: string, want: number) => Promise<Lease>,
  now: () => number = Date.now,
) {
  const keys = new Map<string, Local>();

  const prune = (at: number) => {
    if (keys.size <= PRUNE_ABOVE) return;
    for (const [id, local] of keys) if (!local.leasing && local.expiresAt <= at && local.emptyUntil <= at) keys.delete(id);
  };

  const refill = async (apiKeyId: string, local: Local): Promise<void> => {
    const want = Math.max(1, Math.min(settings.leaseSize, settings.burst));
    const { granted, remaining } = await lease(apiKeyId, want);
    const at = now();
    local.tokens = granted;
    local.expiresAt = at + settings.leaseTtlMs;
    local.emptyUntil = granted > 0 ? 0 : at + Math.ceil(((1 - remaining) / settings.perSecond) * 1000);
  };

  return async function take(apiKeyId: string): Promise<Decision> {
    for (;;) {
      const at = now();
      let local = keys.get(apiKeyId);
      if (!local) {
        prune(at);
        local = { tokens: 0, expiresAt: 0, emptyUntil: 0 };
        keys.set(apiKeyId, local);
      }
      if (local.tokens > 0 && at < local.expiresAt) {
        local.tokens--;
        return { allowed: true };
      }
      if (at < local.emptyUntil) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((local.emptyUntil - at) / 1000)) };
      // One lease per key at a time; concurrent requests wait for it and then try the fresh tokens.
      if (!local.leasing) {
        const entry = local;
        entry.leasing = refill(apiKeyId, entry).finally(() => {
          entry.leasing = undefined;
        });
      }
      await local.leasing;
    }
  };
}
export type KeyRateLimiter = ReturnType<typeof createKeyRateLimiter>;
