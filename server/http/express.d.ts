import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuthContext } from '../domain/auth/auth-context.js';

declare global {
  namespace Express {
    interface Request {
      /** The `x-svc-request-id` of this request. */
      id: string;
      /** This request's EntityManager fork (made on first use). */
      em: EntityManager;
      /** The authenticated API key's context, set by the auth middleware on `/api/v1` routes. */
      auth?: AuthContext | undefined;
    }
  }
}
