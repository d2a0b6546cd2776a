import type { RetryPolicy } from '../../../sdk/src/index.js';

/**
 * The SDK's retry policy (exponential back-off with full jitter, Retry-After
 * honoured, only retry-safe calls) with bounds wide enough to outlast a restart
 * of the service: up to 40 attempts, at most 1 s apart.
 */
export const CRASH_RETRY_POLICY: Partial<RetryPolicy> = { maxAttempts: 40, baseDelayMs: 100, maxDelayMs: 1000 };

/** Resolve once `count()` reaches `threshold` (polled: the clients only bump a counter). */
export async function untilAcknowledged(count: () => number, threshold: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (count() < threshold) {
    if (Date.now() > deadline) throw new Error(`only ${count()} of ${threshold} acknowledged after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
