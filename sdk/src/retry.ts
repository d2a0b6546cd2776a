/**
 * Retry policy (spec: Errors, retry guidance): bounded exponential back-off with
 * full jitter, only for 408, 429, 5xx and transport errors, honouring
 * `Retry-After`, and only for calls that are safe to repeat.
 */
export interface RetryPolicy {
  /** Total attempts including the first (1 disables retries). Default 4. */
  maxAttempts: number;
  /** Back-off before retry n is a random delay in [0, min(maxDelayMs, baseDelayMs × 2^(n-1))]. Default 250 ms. */
  baseDelayMs: number;
  /** Upper bound of one back-off delay. Default 8000 ms. */
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown instead. Default 60000 ms. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 8000, maxRetryAfterMs: 60_000 };

/** Per call: `true` opts a call that is not retry-safe in, `false` opts out, an object opts in with these bounds. */
export type RetryOption = boolean | Partial<RetryPolicy>;

/**
 * A request body may be repeated without repeating its effect when it carries an
 * idempotency key (preparation) or an event id (payment report): the service
 * replays or deduplicates it. No other body makes a write retry-safe; in
 * particular inline enrichment records a new correlation per call.
 */
export function isRetrySafeBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.idempotencyKey === 'string' || typeof b.eventId === 'string';
}

/**
 * Whether a call is retried implicitly: every GET (a read never changes state,
 * so repeating it after 408, 429, 5xx or a lost response is harmless) and any
 * request whose body is retry-safe (docs/decisions.md, SDK and OpenAPI).
 */
export function isRetrySafeRequest(method: string, body: unknown): boolean {
  return method.toUpperCase() === 'GET' || isRetrySafeBody(body);
}

/** `Retry-After` as delta-seconds or an HTTP date, in milliseconds; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Delay before retry number `retry` (1-based); `random` is injectable for tests. */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

export function resolvePolicy(base: RetryPolicy | false, option: RetryOption | undefined): RetryPolicy | false {
  if (option === false) return false;
  const policy = base === false ? DEFAULT_RETRY_POLICY : base;
  return typeof option === 'object' ? { ...policy, ...option } : policy;
}

export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
