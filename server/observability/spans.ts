import { SpanStatusCode, type Tracer } from '@opentelemetry/api';

/**
 * Spans of the domain steps (docs/operations.md, "Traces"). Off unless tracing
 * started (server/observability/tracing.ts): then `inSpan` calls the step
 * directly, with no closure, span or context object made, so the hot paths pay
 * one branch. Steps take at most two arguments so that none is allocated to pass them.
 */
let tracer: Tracer | undefined;

/** Called once tracing is on; the domain steps start recording spans. */
export function enableDomainSpans(t: Tracer): void {
  tracer = t;
}

/**
 * Run one domain step in a span of its own, a child of the active (request or
 * job) span. A failure marks the span with its error type only (a DomainError's
 * `type`, or the error's class): messages and values are never recorded.
 */
export function inSpan<A, B, T>(name: string, step: (a: A, b: B) => Promise<T>, a: A, b: B): Promise<T> {
  if (!tracer) return step(a, b);
  return tracer.startActiveSpan(name, async (span) => {
    try {
      return await step(a, b);
    } catch (err) {
      const type = (err as { type?: unknown }).type;
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute('error.type', typeof type === 'string' ? type : ((err as Error)?.name ?? 'Error'));
      throw err;
    } finally {
      span.end();
    }
  });
}
