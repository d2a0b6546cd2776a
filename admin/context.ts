import type { MikroORM } from '@mikro-orm/postgresql';
import { secretsEqual } from '../server/crypto/secrets.js';

export interface AdminContext {
  orm: MikroORM;
  /** True when the request carried `Authorization: Bearer <SVC_ADMIN_TOKEN>`. */
  authorized: boolean;
}

/** Constant-time check of the operator bearer token. */
export function isAdminAuthorized(header: string | undefined, adminToken: string): boolean {
  const match = header ? /^Bearer (\S+)$/.exec(header) : null;
  if (!match) return false;
  return secretsEqual(match[1]!, adminToken);
}
