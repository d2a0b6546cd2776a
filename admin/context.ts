import type { MikroORM } from '@mikro-orm/postgresql';
import type { ApiKeyMac } from '../server/crypto/api-key-mac.js';
import { secretsEqual } from '../server/crypto/secrets.js';
import type { LedgerRuntime } from '../server/integrations/ledger/runtime.js';
import type { Logger } from '../server/logger.js';
import type { WebhookRuntime } from '../server/domain/gwa-webhooks/runtime.js';
import type { QualificationStore } from '../server/domain/qualification/ports.js';

export interface AdminContext {
  orm: MikroORM;
  /** True when the request carried `Authorization: Bearer <SVC_ADMIN_TOKEN>`. */
  authorized: boolean;
  /** The tag issued API keys carry (server/crypto/api-key-mac.ts). */
  keyMac: ApiKeyMac;
  /** The accounting-source runtime (provider calls such as revoking tokens on disconnect), when configured. */
  ledger?: LedgerRuntime | undefined;
  logger?: Logger | undefined;
  /** Cipher and public URL of the gwa webhook endpoints, when configured. */
  webhooks?: WebhookRuntime | undefined;
  /** What the qualification figures read (server/persistence/qualification-store.ts). */
  qualification: QualificationStore;
}

/** Constant-time check of the operator bearer token. */
export function isAdminAuthorized(header: string | undefined, adminToken: string): boolean {
  const match = header ? /^Bearer (\S+)$/.exec(header) : null;
  if (!match) return false;
  return secretsEqual(match[1]!, adminToken);
}
