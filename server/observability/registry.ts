import { AggregatorRegistry, collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The service's one Prometheus registry (docs/operations.md, "Metrics"). Every
 * metric of the service registers here; nothing uses prom-client's global
 * registry, so a library that does cannot add series to `/metrics`.
 */
export const registry = new Registry();

let defaultsCollected = false;

/**
 * Process metrics (CPU, memory, heap, GC, handles) and the event-loop lag
 * (`nodejs_eventloop_lag_*`, from `monitorEventLoopDelay`), once per process.
 * In a cluster's HTTP processes the registry also answers the primary's
 * requests for their metrics (`AggregatorRegistry`, server/observability/cluster-metrics.ts).
 */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: registry });
  AggregatorRegistry.setRegistries([registry]);
}

/** A label value from a known set, or `other`: no label can take an unbounded value. */
export function boundedLabel(allowed: ReadonlySet<string>, value: string): string {
  return allowed.has(value) ? value : 'other';
}
