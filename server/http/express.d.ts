import type { AuthContext } from '../domain/auth/auth-context.js';
import type { UnitOfWork } from '../domain/unit-of-work.js';
import type { Stores } from '../persistence/unit-of-work.js';

declare global {
  namespace Express {
    interface Request {
      /** The `x-svc-request-id` of this request. */
      id: string;
      /** The domain's unit of work on the pool (one for the app: statements and transactions take their connection when they run). */
      storage: UnitOfWork<Stores>;
      /** The authenticated API key's context, set by the auth middleware on `/api/v1` routes. */
      auth?: AuthContext | undefined;
    }
  }
}
