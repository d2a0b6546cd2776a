import type { MikroORM } from '@mikro-orm/postgresql';
import { Router } from 'express';
import type { Logger } from '../logger.js';
import { pendingMigrations } from '../persistence/orm.js';
import { DATABASE_RETRY_AFTER_SECONDS, sendError } from './middleware/error-envelope.js';

/** `/healthz`: the process answers. `/readyz`: the database answers and every migration is applied. */
export function healthRoutes(orm: MikroORM, logger: Logger): Router {
  const router = Router({ caseSensitive: true });
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (req, res) => {
    try {
      await orm.em.getConnection().execute('select 1');
      const pending = await pendingMigrations(orm);
      if (pending.length > 0) {
        sendError(res, 'service_unavailable', `${pending.length} database migration(s) not applied`);
        return;
      }
      res.json({ status: 'ready' });
    } catch (err) {
      logger.warn({ reqId: req.id, err }, 'readiness check failed');
      res.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      sendError(res, 'service_unavailable', 'The database is not reachable');
    }
  });
  return router;
}
