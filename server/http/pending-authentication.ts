import type { ErrorRequestHandler, Request } from 'express';
import type { AuthContext } from '../domain/auth/auth-context.js';

/**
 * A request let through on its key's cached record (`provisionalAuthentication`)
 * whose epoch check is left to the first statement the handler sends (the
 * preparation routes' context read). Until confirmed, nothing is stored and
 * nothing is answered for it (docs/decisions.md, "Authentication confirmed by
 * the preparation read").
 */
export interface PendingAuthentication {
  /** The auth epoch of the cached key record. */
  epoch: string;
  /** Authenticate the request strictly: against the current epoch, re-reading the key when it moved. */
  strict(): Promise<AuthContext>;
}

/**
 * Confirm a request's provisional authentication: by `epochRead` when a statement
 * of this request read the epoch unchanged (it started after the request
 * arrived, so it is as fresh as a read of its own), otherwise strictly, which
 * replaces `req.auth` or throws the refusal (401, 403, 404). Nothing to do for a
 * request authenticated strictly or already confirmed.
 */
export async function confirmAuthentication(req: Request, epochRead?: string): Promise<void> {
  const pending = req.pendingAuthentication;
  if (!pending) return;
  req.pendingAuthentication = undefined;
  if (epochRead !== undefined && epochRead === pending.epoch) return;
  req.auth = undefined;
  req.auth = await pending.strict();
}

/**
 * Error middleware of the routes that may authenticate provisionally: a request
 * refused before its handler's read confirmed it (bad JSON, too large, card
 * data, contract violations, a failing read) is confirmed first, so a key revoked
 * since it was cached gets its 401 whatever its body, as with strict
 * authentication.
 */
export const confirmBeforeRefusal: ErrorRequestHandler = (err, req, _res, next) => {
  if (!req.pendingAuthentication) {
    next(err);
    return;
  }
  confirmAuthentication(req).then(
    () => next(err),
    (refusal: unknown) => next(refusal),
  );
};
