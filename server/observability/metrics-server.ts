import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isAdminAuthorized } from '../../admin/context.js';
import { collectProcessMetrics, registry } from './registry.js';
import { observePool } from './saturation-metrics.js';

/**
 * `GET /metrics` of a process without an HTTP API (`npm run worker`): its sync
 * runs, job queue, pool and process metrics, on a port of its own, with the same
 * bearer-token rule as the service's endpoint (server/http/metrics.ts).
 */
export async function serveMetrics(o: {
  port: number;
  host: string;
  token: string;
  /** The process' database pool, for the pool gauges. */
  pool?: Parameters<typeof observePool>[0];
}): Promise<{ port: number; close(): Promise<void> }> {
  collectProcessMetrics();
  if (o.pool) observePool(o.pool);
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    if (!isAdminAuthorized(req.headers.authorization, o.token)) {
      res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      return;
    }
    registry
      .metrics()
      .then((text) => res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(text))
      .catch(() => res.writeHead(503).end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
