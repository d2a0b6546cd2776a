import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuthContext } from '../domain/auth/auth-context.js';
import type { PendingAuthentication } from './pending-authentication.js';

declare global {
  namespace Express {
    interface Request {
      /** The `x-svc-request-id` of this request. */
      id: string;
      /** This request's EntityManager fork (made on first use). */
      em: EntityManager;
      /** The authenticated API key's context, set by the auth middleware on `/api/v1` routes. */
      auth?: AuthContext | undefined;
      /** Set while `auth` rests on a cached key record its handler's first read must confirm (`confirmAuthentication`). */
      pendingAuthentication?: PendingAuthentication | undefined;
    }
  }
}
