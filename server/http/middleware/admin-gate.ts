import type { NextFunction, Request, Response } from 'express';
import { isAdminAuthorized } from '../../../admin/context.js';
import { clientOf } from '../client-identity.js';
import type { FailedAuthentications } from './failed-auth-gate.js';
import { sendError } from './error-envelope.js';

/** Most procedures one batched call may name (docs/operations.md, "Operator surface"); the console and CLI send one. */
export const ADMIN_MAX_BATCH = 10;

const UNAUTHORIZED_MESSAGE = 'Send Authorization: Bearer <SVC_ADMIN_TOKEN>';

/**
 * In front of tRPC on `/admin/trpc`: the operator token is checked before anything of the request is read or parsed,
 * and a request without it is a failed authentication of its client (the same per-client limit as API keys, so
 * guessing the token is as slow as guessing a key). The answer is tRPC's own error shape (the console and CLI read
 * it), one small object whatever the request named. An authorized batch may name at most `ADMIN_MAX_BATCH`
 * procedures (400 beyond, in the service's envelope), so one call's work and answer stay bounded.
 */
export function adminGate(adminToken: string, failures: Pick<FailedAuthentications, 'failed'>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!isAdminAuthorized(req.headers.authorization, adminToken)) {
      failures.failed(clientOf(req));
      res.status(401).json({
        error: { message: UNAUTHORIZED_MESSAGE, code: -32001, data: { code: 'UNAUTHORIZED', httpStatus: 401 } },
      });
      return;
    }
    // No procedure name holds a comma: counted whether or not the call says it is a batch.
    const named = req.path.split(',').length;
    if (named > ADMIN_MAX_BATCH) {
      const message = `A batch may name at most ${ADMIN_MAX_BATCH} procedures; this one names ${named}`;
      sendError(res, 'validation_error', message, [{ code: 'batch_too_large', path: 'batch', message }]);
      return;
    }
    next();
  };
}
