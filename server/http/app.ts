import { RequestContext, type MikroORM } from '@mikro-orm/postgresql';
import express, { type Express } from 'express';
import { pinoHttp } from 'pino-http';
import { buildOpenApiDocument } from '../../contract/openapi.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { mountAdmin } from './admin.js';
import { healthRoutes } from './health.js';
import { errorEnvelope, notFound } from './middleware/error-envelope.js';
import { parseJsonBody, requireJsonContentType } from './middleware/json-body.js';
import { requestId } from './middleware/request-id.js';
import { mountApi } from './router.js';

export interface AppDeps {
  orm: MikroORM;
  config: Pick<Config, 'SVC_BODY_LIMIT_BYTES' | 'SVC_ENVIRONMENT'>;
  logger: Logger;
  /** Bearer token of the operator surface at /admin/trpc. */
  adminToken: string;
}

/**
 * The whole HTTP application, without listening, so tests can mount it.
 * Order matters: request id first (every response carries it), then logging,
 * then body parsing, then routes, then 404 and the error envelope.
 */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.set('query parser', 'simple');

  app.use(requestId);
  app.use(
    pinoHttp({
      logger: deps.logger,
      genReqId: (req) => req.id,
      quietReqLogger: true,
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
      serializers: {
        // Path only: no query strings, no headers, no bodies (they may carry secrets).
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      customSuccessObject: (req, res, val: Record<string, unknown>) => ({
        ...val,
        route: (req as express.Request).route?.path ?? null,
      }),
    }),
  );
  app.use((_req, _res, next) => RequestContext.create(deps.orm.em, next));
  app.use(requireJsonContentType);
  app.use(parseJsonBody(deps.config.SVC_BODY_LIMIT_BYTES));

  app.use(healthRoutes(deps.orm));
  const openApiDocument = buildOpenApiDocument();
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.json(openApiDocument);
  });
  mountAdmin(app, deps);
  mountApi(app, deps);

  app.use(notFound);
  app.use(errorEnvelope);
  return app;
}
