import type { MikroORM } from '@mikro-orm/postgresql';
import { createHash, timingSafeEqual } from 'node:crypto';

export interface AdminContext {
  orm: MikroORM;
  /** True when the request carried `Authorization: Bearer <SVC_ADMIN_TOKEN>`. */
  authorized: boolean;
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Constant-time check of the operator bearer token (digests make the lengths equal). */
export function isAdminAuthorized(header: string | undefined, adminToken: string): boolean {
  const match = header ? /^Bearer (\S+)$/.exec(header) : null;
  if (!match) return false;
  return timingSafeEqual(digest(match[1]!), digest(adminToken));
}
