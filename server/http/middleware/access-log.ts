import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../../logger.js';

/**
 * One structured line per finished request: request id, method, path (never
 * the query string), matched route, status and latency. Headers and bodies
 * are never logged: they may carry keys, tokens or card data.
 */
export function accessLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const status = res.statusCode;
      const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          reqId: req.id,
          method: req.method,
          path: req.originalUrl.split('?')[0],
          route: (req.route?.path as string | undefined) ?? null,
          status,
          ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        },
        'request completed',
      );
    });
    next();
  };
}
