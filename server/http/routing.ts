import { Router, type Express, type IRouter, type NextFunction, type Request, type RequestHandler, type Response } from 'express';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
const METHODS: readonly Method[] = ['get', 'post', 'put', 'patch', 'delete'];

/** A path as non-strict routing matches it: one trailing slash dropped. */
function routedPath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * Routes registered on `target` reach their handlers by a map lookup instead of a walk through the app's stack.
 *
 * Express matches a request by trying every layer of the app in order (each router, then each route's path
 * pattern), which costs the contract's hot endpoints more than their own middleware does. A route whose path has no
 * parameter (every hot endpoint) is kept in its own router, found by method and exact path by `dispatch`; a route
 * with parameters is registered on the app where it would have been, in the same order. Mount `dispatch` after the
 * middleware every request must pass, and register the routes through `target` where they stood before. Invariant: no
 * layer between `dispatch` and the routes' registration answers a parameterless contract path, so skipping those
 * layers changes no answer (test/integration/platform/routing.test.ts). HEAD reaches a GET route, as in Express; a
 * path registered for other methods only falls through to the app (404).
 */
export function routeByPath(app: Express): { target: IRouter; dispatch: RequestHandler } {
  // The lookup compares paths exactly: an app that matched them in any case would answer spellings this misses.
  if (app.get('case sensitive routing') !== true) throw new Error('routeByPath needs case-sensitive routing');
  // By method as Node reports it (upper case), then by path: no key built per request.
  const routes = new Map<string, Map<string, Router>>();
  const routesOf = (method: string) => {
    let byPath = routes.get(method);
    if (byPath === undefined) routes.set(method, (byPath = new Map()));
    return byPath;
  };
  const add = (method: Method, path: string, handlers: RequestHandler[]) => {
    if (path.includes(':') || path.includes('*')) {
      app[method](path, ...handlers);
      return;
    }
    // The app's own settings: a trailing slash is accepted unless routing is strict (canonical-path.ts decides spelling).
    const router = Router({ caseSensitive: true, strict: app.get('strict routing') === true });
    router[method](path, ...handlers);
    const byPath = routesOf(method.toUpperCase());
    if (byPath.has(path)) throw new Error(`route ${method.toUpperCase()} ${path} registered twice`);
    byPath.set(path, router);
    if (method === 'get' && !routesOf('HEAD').has(path)) routesOf('HEAD').set(path, router);
  };
  const target = {
    ...Object.fromEntries(
      METHODS.map((method) => [
        method,
        (path: string, ...handlers: RequestHandler[]) => {
          add(method, path, handlers);
          return target;
        },
      ]),
    ),
    use: (...args: Parameters<Express['use']>) => {
      app.use(...args);
      return target;
    },
  } as unknown as IRouter;
  const dispatch = (req: Request, res: Response, next: NextFunction): void => {
    const router = routes.get(req.method)?.get(routedPath(req.path));
    if (router === undefined) return next();
    router(req, res, next);
  };
  return { target, dispatch };
}
