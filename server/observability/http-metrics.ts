import type { AppRoute } from '@ts-rest/core';
import type { Request } from 'express';
import { Histogram } from 'prom-client';
import { registry } from './registry.js';

/**
 * RED metrics of every HTTP request: one latency histogram whose `_count` is the
 * request counter, by route template (the ts-rest or Express route path, or the
 * operator procedure's name; never the concrete URL), method and status class.
 */
const requestDuration = new Histogram({
  name: 'svc_http_request_duration_seconds',
  help: 'HTTP requests by route template, method and status class, with their latency in seconds (_count: requests).',
  labelNames: ['route', 'method', 'status_class'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const STATUS_CLASSES = ['other', '1xx', '2xx', '3xx', '4xx', '5xx'] as const;
/** Requests no route matched (404s, probes of arbitrary paths): one series, whatever their URL. */
export const UNMATCHED_ROUTE = 'unmatched';
const ADMIN_PREFIX = '/admin/trpc/';

/** The bound series of one route: per method, per status class (index 1-5; 0 for anything else). */
class RouteSeries {
  private readonly byMethod = new Map<string, Histogram.Internal<string>[]>();
  constructor(private readonly route: string) {}

  child(method: string, status: number): Histogram.Internal<string> {
    let children = this.byMethod.get(method);
    if (!children) {
      const label = METHODS.has(method) ? method : 'OTHER';
      children = STATUS_CLASSES.map((cls) => requestDuration.labels(this.route, label, cls));
      this.byMethod.set(method, children);
    }
    const cls = (status / 100) | 0;
    return children[cls >= 1 && cls <= 5 ? cls : 0]!;
  }
}

/**
 * The observer the request middleware calls once per finished request. Route
 * objects (the mounted ts-rest route, the Express route) key their series, so a
 * request costs two map lookups and prom-client's own observe; no label object
 * or string is built per request. Operator procedures are named from
 * `procedures` (the router's own list); anything else there is `unknown`, and a
 * batched call `batch`.
 */
export function httpRequestMetrics(procedures: ReadonlySet<string>): (req: Request, status: number, seconds: number) => void {
  const byRoute = new WeakMap<object, RouteSeries>();
  const byName = new Map<string, RouteSeries>();
  const named = (name: string) => {
    let series = byName.get(name);
    if (!series) byName.set(name, (series = new RouteSeries(name)));
    return series;
  };
  const routed = (key: object, path: string) => {
    let series = byRoute.get(key);
    if (!series) byRoute.set(key, (series = new RouteSeries(path)));
    return series;
  };
  const adminProcedure = (url: string) => {
    const end = url.indexOf('?');
    const name = url.slice(ADMIN_PREFIX.length, end === -1 ? undefined : end);
    return `trpc:${procedures.has(name) ? name : name.includes(',') ? 'batch' : 'unknown'}`;
  };
  return (req, status, seconds) => {
    const contractRoute = (req as Request & { tsRestRoute?: AppRoute }).tsRestRoute;
    const expressRoute = req.route as { path?: unknown } | undefined;
    let series: RouteSeries;
    if (contractRoute) series = routed(contractRoute, contractRoute.path);
    else if (req.originalUrl.startsWith(ADMIN_PREFIX)) series = named(adminProcedure(req.originalUrl));
    else if (expressRoute && typeof expressRoute.path === 'string') series = routed(expressRoute, expressRoute.path);
    else series = named(UNMATCHED_ROUTE);
    series.child(req.method, status).observe(seconds);
  };
}
