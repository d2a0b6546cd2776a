import { poolUnitOfWork } from '../../persistence/unit-of-work.js';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Express, NextFunction, Request, Response } from 'express';
import type { Logger } from '../../logger.js';
import { newRequestId, REQUEST_ID_HEADER } from './request-id.js';
import { containsCardNumber, containsSecretValue } from '../../domain/guard/secrets-guard.js';

/**
 * One middleware for what every request gets: its request id (header sent
 * on every response) and its access-log line — request id, method, path
 * (never the query string), matched route, status and latency — and its
 * request metrics through `observe`. Headers and
 * bodies are never logged: they may carry keys, tokens or card data.
 */
export function requestContext(logger: Logger, observe?: (req: Request, status: number, seconds: number) => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const id = newRequestId();
    req.id = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const status = res.statusCode;
      const elapsedNs = process.hrtime.bigint() - started;
      // The request metrics (server/observability/http-metrics.ts): latency by route template, method and status class.
      observe?.(req, status, Number(elapsedNs) / 1e9);
      const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          reqId: id,
          method: req.method,
          path: loggedPath(req),
          route: (req.route?.path as string | undefined) ?? null,
          status,
          ms: Number(elapsedNs / 1000n) / 1000,
        },
        'request completed',
      );
    });
    next();
  };
}

/**
 * The request's path for the log, never its query. A path holding a card number or a credential (refused with 400, or
 * naming no route) is logged as its route template, or as a marker when none matched: the value never reaches a log.
 */
function loggedPath(req: Request): string {
  const path = req.originalUrl.split('?')[0]!;
  let text = path;
  try {
    text = decodeURIComponent(path);
  } catch {
    // An undecodable path is logged as received; the scan below still reads its raw text.
  }
  if (!containsCardNumber(text) && !containsSecretValue(text)) return path;
  return (req.route?.path as string | undefined) ?? '[path withheld: card data or credential]';
}

/**
 * `req.storage`: the domain's unit of work, one for the app (it holds no state of a request), defined once on the
 * app's request prototype rather than per request.
 */
export function defineRequestStorage(app: Express, orm: MikroORM): void {
  Object.defineProperty(app.request, 'storage', { configurable: true, value: poolUnitOfWork(orm) });
}
