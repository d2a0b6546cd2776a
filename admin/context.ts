import type { MikroORM } from '@mikro-orm/postgresql';
import type { LedgerRuntime } from '../server/integrations/ledger/runtime.js';
import type { Logger } from '../server/logger.js';
import { createHash, timingSafeEqual } from 'node:crypto';

export interface AdminContext {
  orm: MikroORM;
  /** True when the request carried `Authorization: Bearer <SVC_ADMIN_TOKEN>`. */
  authorized: boolean;
  /** The accounting-source runtime (provider calls such as revoking tokens on disconnect), when configured. */
  ledger?: LedgerRuntime | undefined;
  logger?: Logger | undefined;
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Constant-time check of the operator bearer token (digests make the lengths equal). */
export function isAdminAuthorized(header: string | undefined, adminToken: string): boolean {
  const match = header ? /^Bearer (\S+)$/.exec(header) : null;
  if (!match) return false;
  return timingSafeEqual(digest(match[1]!), digest(adminToken));
}
