import { Gauge } from 'prom-client';
import { registry } from './registry.js';

/**
 * Saturation gauges, read when Prometheus scrapes (no cost per request): the
 * database pool of the app being served and the depth of the ledger-sync job
 * queue. The sources are set by whoever owns the pool or the queue; the latest
 * one set is read (one service per process; tests may start several).
 */

interface PoolState {
  inUse: number;
  idle: number;
  waiting: number;
}
let poolSource: (() => PoolState) | undefined;
let queueSource: (() => Promise<number>) | undefined;

new Gauge({
  name: 'svc_db_pool_connections',
  help: 'Connections of the database pool, in use by a request or job, or idle.',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    const state = poolSource?.();
    this.set({ state: 'in_use' }, state?.inUse ?? 0);
    this.set({ state: 'idle' }, state?.idle ?? 0);
  },
});

new Gauge({
  name: 'svc_db_pool_waiting',
  help: 'Requests and jobs waiting for a connection of the database pool (above zero for long: the pool is too small or PostgreSQL too slow).',
  registers: [registry],
  collect() {
    this.set(poolSource?.().waiting ?? 0);
  },
});

new Gauge({
  name: 'svc_job_queue_depth',
  help: 'Ledger-sync jobs waiting to be worked (queued or waiting to be retried). Every process sees the same shared queue: the cluster aggregate is the maximum.',
  labelNames: ['queue'] as const,
  aggregator: 'max',
  registers: [registry],
  async collect() {
    if (!queueSource) return;
    try {
      this.set({ queue: 'ledger-sync' }, await queueSource());
    } catch {
      // The database is down: the gauge keeps its last value; the pool and readiness say why.
    }
  },
});

/** The pg pool under MikroORM's connection, as far as the gauges need it. */
interface PgPool {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

/** Report this pool in the gauges; returns the function that stops reporting it. */
export function observePool(pool: () => PgPool | undefined): () => void {
  const source = () => {
    const p = pool();
    return p ? { inUse: p.totalCount - p.idleCount, idle: p.idleCount, waiting: p.waitingCount } : { inUse: 0, idle: 0, waiting: 0 };
  };
  poolSource = source;
  return () => {
    if (poolSource === source) poolSource = undefined;
  };
}

/** Report this queue's depth in the gauge; returns the function that stops reporting it. */
export function observeQueueDepth(depth: () => Promise<number>): () => void {
  queueSource = depth;
  return () => {
    if (queueSource === depth) queueSource = undefined;
  };
}
