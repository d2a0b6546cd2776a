import { createExpressMiddleware } from '@trpc/server/adapters/express';
import type { Express } from 'express';
import { isAdminAuthorized } from '../../admin/context.js';
import { adminRouter } from '../../admin/router.js';
import { consoleRoutes } from '../../admin/console/routes.js';
import { evidenceExportRoute } from '../../admin/evidence-export.js';
import type { AppDeps } from './app.js';
import { poolUnitOfWork } from '../persistence/unit-of-work.js';
import { ADMIN_MAX_BATCH } from './middleware/admin-gate.js';

/** Mount the operator surface (tRPC, plain JSON) at /admin/trpc, guarded by the admin token, its browser console at /admin/, and the evidence CSV download. */
export function mountAdmin(app: Express, deps: AppDeps): void {
  const uow = poolUnitOfWork(deps.orm);
  app.use(consoleRoutes(deps.logger));
  app.use(evidenceExportRoute(uow, deps.adminToken, deps.logger));
  app.use(
    '/admin/trpc',
    createExpressMiddleware({
      router: adminRouter,
      // Checked in front already (admin-gate.ts); tRPC's own bound as well.
      maxBatchSize: ADMIN_MAX_BATCH,
      createContext: ({ req }) => ({
        uow,
        keyMac: deps.keyMac,
        ledger: deps.ledger,
        logger: deps.logger,
        webhooks: deps.webhooks,
        authorized: isAdminAuthorized(req.headers.authorization, deps.adminToken),
      }),
      // The operator is told to see the log for internal errors, so they are logged here with the request id.
      onError: ({ error, req, path }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR')
          deps.logger.error({ reqId: req.id, procedure: path, err: error.cause ?? error }, 'admin procedure failed');
      },
    }),
  );
}
