import { Router } from 'express';
import { isAdminAuthorized } from '../../admin/context.js';
import { registry } from '../observability/registry.js';
import { sendError } from './middleware/error-envelope.js';

export interface MetricsEndpoint {
  /** Bearer token a scrape must present: SVC_METRICS_TOKEN, else the admin token. */
  token: string;
  /** The exposition text; default this process's registry (a cluster's HTTP process asks its primary). */
  scrape?: () => Promise<string>;
}

/**
 * `GET /metrics` on the service port, Prometheus text format. The public port
 * must not leak it, so it answers only `Authorization: Bearer <token>`
 * (constant-time comparison); anything else is 401.
 */
export function metricsRoutes(endpoint: MetricsEndpoint, onError: (err: unknown) => void): Router {
  const router = Router({ caseSensitive: true });
  const scrape = endpoint.scrape ?? (() => registry.metrics());
  router.get('/metrics', async (req, res) => {
    if (!isAdminAuthorized(req.headers.authorization, endpoint.token)) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      sendError(res, 'authentication_error', 'A bearer token for the metrics endpoint is required');
      return;
    }
    try {
      const text = await scrape();
      res.setHeader('Cache-Control', 'no-store');
      res.type(registry.contentType).send(text);
    } catch (err) {
      onError(err);
      sendError(res, 'service_unavailable', 'The metrics could not be collected');
    }
  });
  return router;
}
