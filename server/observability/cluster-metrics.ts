import cluster from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';

/**
 * `/metrics` of a cluster (SVC_WORKERS > 1, server/cluster.ts). The HTTP
 * processes share the port, so whichever gets the scrape asks the primary over
 * the cluster's IPC channel; the primary asks every process for its registry
 * (prom-client's `AggregatorRegistry`) and answers with the aggregate: counters
 * and histograms summed, gauges as each declares (sum, or max for the shared
 * queue). Prometheus sees one target whose figures cover all processes.
 */

const REQUEST = 'svc:metrics-request';
const ANSWER = 'svc:metrics-answer';
const TIMEOUT_MS = 5_000;

interface MetricsRequest {
  type: typeof REQUEST;
  id: number;
}
interface MetricsAnswer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

/** In the primary: answer the HTTP processes' requests for the aggregate. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: MetricsRequest) => {
    if (message?.type !== REQUEST) return;
    aggregator
      .clusterMetrics()
      .then((text) => worker.send({ type: ANSWER, id: message.id, text } satisfies MetricsAnswer))
      .catch((err: unknown) => worker.send({ type: ANSWER, id: message.id, error: (err as Error).message } satisfies MetricsAnswer));
  });
}

let nextId = 0;
const pending = new Map<number, { resolve(text: string): void; reject(err: Error): void }>();
let listening = false;

/**
 * In an HTTP process of a cluster: the aggregate of every process, from the
 * primary. Constructing the `AggregatorRegistry` makes this process answer the
 * primary's requests for its own metrics.
 */
export function clusterMetricsFromPrimary(): () => Promise<string> {
  if (!listening) {
    listening = true;
    new AggregatorRegistry();
    process.on('message', (message: MetricsAnswer) => {
      if (message?.type !== ANSWER) return;
      const waiter = pending.get(message.id);
      if (!waiter) return;
      pending.delete(message.id);
      if (message.text !== undefined) waiter.resolve(message.text);
      else waiter.reject(new Error(`cluster metrics failed: ${message.error ?? 'no answer'}`));
    });
  }
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error('the cluster primary did not answer the metrics request'));
      }, TIMEOUT_MS);
      pending.set(id, {
        resolve: (text) => (clearTimeout(timer), resolve(text)),
        reject: (err) => (clearTimeout(timer), reject(err)),
      });
      process.send!({ type: REQUEST, id } satisfies MetricsRequest);
    });
}
