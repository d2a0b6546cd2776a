import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import { contract } from '../../../contract/index.js';
import { useTestApp } from '../../support/harness.js';

function routesOf(router: AppRouter): AppRoute[] {
  return Object.values(router).flatMap((value) => (isAppRoute(value) ? [value] : routesOf(value as AppRouter)));
}

/** The contract routes `routeByPath` finds by path (server/http/routing.ts): those without path parameters. */
const STATIC_ROUTES = routesOf(contract).filter((route) => !route.path.includes(':'));

interface Layer {
  name: string;
  route?: { path: string };
  handle: { length: number; stack?: Layer[] };
  match(path: string): unknown;
}

/** Every layer, sub-routers' layers included, in the order a request meets them. */
function flatten(stack: Layer[]): Layer[] {
  return stack.flatMap((layer) => (layer.handle.stack && !layer.route ? [layer, ...flatten(layer.handle.stack)] : [layer]));
}

describe('routing by path', () => {
  const app = useTestApp();

  it('has contract routes without parameters for the hot endpoints', () => {
    const paths = STATIC_ROUTES.map((route) => `${route.method} ${route.path}`);
    expect(paths).toEqual(expect.arrayContaining(['POST /api/v1/gwc/payment-intent-enrichment', 'POST /api/v1/gwc/payment-reports']));
  });

  it('when a request takes the shortcut, then no layer it skips could have answered its path', () => {
    const stack = (app.express as unknown as { router: { stack: Layer[] } }).router.stack;
    const from = stack.findIndex((layer) => layer.name === 'dispatch');
    const to = stack.findIndex((layer) => layer.name === 'notFound');
    expect(from).toBeGreaterThan(0);
    expect(to).toBeGreaterThan(from);
    const skipped = flatten(stack.slice(from + 1, to));
    const answering = skipped.flatMap((layer) => {
      // Error handlers still run: dispatch passes an error on to the app.
      if (layer.handle.length === 4) return [];
      // The contract's routes with parameters stay on the app, where they were.
      if (layer.route && routesOf(contract).some((route) => route.path === layer.route!.path && route.path.includes(':'))) return [];
      // A sub-router's own layer matches every path; what matters is its routes (flattened after it).
      if (layer.handle.stack && !layer.route) return [];
      return STATIC_ROUTES.filter((route) => layer.match(route.path)).map(
        (route) => `${layer.name} ${layer.route?.path ?? ''} answers ${route.path}`,
      );
    });
    expect(answering).toEqual([]);
  });

  it('when each parameterless contract route is called without a key, then its own guard answers 401', async () => {
    const statuses = await Promise.all(
      STATIC_ROUTES.map(async (route) => {
        const res = await app.request(route.path, { method: route.method, ...(route.method === 'GET' ? {} : { json: {} }) });
        return `${route.method} ${route.path} ${res.status} ${(res.body as { error?: { type?: string } }).error?.type}`;
      }),
    );
    expect(statuses).toEqual(STATIC_ROUTES.map((route) => `${route.method} ${route.path} 401 authentication_error`));
  });

  it('when the path has one trailing slash, then it reaches the same route, as Express routes it', async () => {
    const res = await app.request('/api/v1/gwc/payment-reports/', { method: 'POST', json: {} });
    expect(res.status).toBe(401);
    expect((res.body as { error: { type: string } }).error.type).toBe('authentication_error');
  });

  it('when a GET route is asked with HEAD, then it answers as to GET, without a body', async () => {
    const get = STATIC_ROUTES.find((route) => route.method === 'GET');
    expect(get).toBeDefined();
    const res = await fetch(`${app.url}${get!.path}`, { method: 'HEAD' });
    expect(res.status).toBe(401);
    expect(await res.text()).toBe('');
  });

  it('when the method is not the route’s, then 404 in the envelope (OPTIONS included)', async () => {
    for (const method of ['GET', 'PUT', 'OPTIONS']) {
      const res = await app.request('/api/v1/gwc/payment-reports', { method });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { type: 'not_found', message: `No route for ${method} /api/v1/gwc/payment-reports`, issues: [] } });
    }
  });
});
