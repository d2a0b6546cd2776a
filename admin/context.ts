import type { ApiKeyMac } from '../server/crypto/api-key-mac.js';
import { secretsEqual } from '../server/crypto/secrets.js';
import type { EvidenceStore } from '../server/domain/evidence/ports.js';
import type { PaymentReportStore } from '../server/domain/payment-reports/ports.js';
import type { SavedPreparationStore } from '../server/domain/preparations/ports.js';
import type { InvoiceStore } from '../server/domain/invoices/ports.js';
import type { LedgerPorts, LedgerStore } from '../server/domain/ledger/ports.js';
import type { InvoicePageStore } from '../server/domain/invoices/ports-import.js';
import type { Logger } from '../server/logger.js';
import type { WebhookRuntime } from '../server/domain/webhooks/runtime.js';
import type { QualificationStore } from '../server/domain/qualification/ports.js';
import type { TenancyStore } from '../server/domain/tenancy/ports.js';
import type { UnitOfWork } from '../server/domain/unit-of-work.js';
import type { WebhookStore } from '../server/domain/webhooks/ports.js';

/** The domain stores operator procedures use, each area's port (server/persistence/unit-of-work.ts implements them). */
export interface AdminStores {
  tenancy: TenancyStore;
  paymentReports: PaymentReportStore;
  preparations: SavedPreparationStore;
  evidence: EvidenceStore;
  invoices: InvoiceStore;
  qualification: QualificationStore;
  ledger: LedgerStore;
  invoicePages: InvoicePageStore;
  webhooks: WebhookStore;
}

export interface AdminContext {
  /** The domain's unit of work on the pool: what procedures pass to use cases. */
  uow: UnitOfWork<AdminStores>;
  /** True when the request carried `Authorization: Bearer <SVC_ADMIN_TOKEN>`. */
  authorized: boolean;
  /** The tag issued API keys carry (server/crypto/api-key-mac.ts). */
  keyMac: ApiKeyMac;
  /** The accounting-source runtime (provider calls such as revoking tokens on disconnect), when configured. */
  ledger?: LedgerPorts | undefined;
  logger?: Logger | undefined;
  /** Cipher and public URL of the gwa webhook endpoints, when configured. */
  webhooks?: WebhookRuntime | undefined;
}

/** Constant-time check of the operator bearer token. */
export function isAdminAuthorized(header: string | undefined, adminToken: string): boolean {
  const match = header ? /^Bearer (\S+)$/.exec(header) : null;
  if (!match) return false;
  return secretsEqual(match[1]!, adminToken);
}
