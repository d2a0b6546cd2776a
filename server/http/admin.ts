import { createExpressMiddleware } from '@trpc/server/adapters/express';
import type { Express } from 'express';
import { isAdminAuthorized } from '../../admin/context.js';
import { adminRouter } from '../../admin/router.js';
import type { AppDeps } from './app.js';

/** Mount the operator surface (tRPC, plain JSON) at /admin/trpc, guarded by the admin token. */
export function mountAdmin(app: Express, deps: AppDeps): void {
  app.use(
    '/admin/trpc',
    createExpressMiddleware({
      router: adminRouter,
      createContext: ({ req }) => ({ orm: deps.orm, ledger: deps.ledger, logger: deps.logger, authorized: isAdminAuthorized(req.headers.authorization, deps.adminToken) }),
      onError: ({ error, req }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') (req as { log?: { error: (o: object, m: string) => void } }).log?.error({ err: error.cause ?? error }, 'admin procedure failed');
      },
    }),
  );
}
