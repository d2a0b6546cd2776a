/**
 * Delay before retrying a provider call: exponential from `baseMs`, capped at
 * `maxMs`, with jitter in [50 %, 100 %]; a 429's Retry-After is honoured as a floor
 * (docs/provider-facts.md §4.8: "429 means wait 60 s" unless told otherwise).
 */
export function backoffDelayMs(o: { attempt: number; baseMs: number; maxMs: number; retryAfterMs?: number; random?: number }): number {
  const exp = Math.min(o.maxMs, o.baseMs * 2 ** o.attempt);
  const jittered = exp * (0.5 + 0.5 * (o.random ?? Math.random()));
  return Math.round(Math.min(o.maxMs, Math.max(jittered, o.retryAfterMs ?? 0)));
}
