import type { ConnectionStatus, Environment, SyncState } from '../../../contract/common/index.js';
import type { SyncRunView } from '../../../contract/ledger.js';
import type { TenantScope } from '../tenant-scope.js';

/**
 * A connection to one company (realm) of the accounting source (table `ledger_connections`).
 * The tokens stay encrypted, bound to the connection's id (server/crypto/token-cipher.ts).
 */
export interface LedgerConnection {
  readonly id: string;
  readonly organizationId: string;
  readonly integrationId: string;
  readonly environment: Environment;
  /** The provider's company id: the public `connectionId`. */
  readonly realmId: string;
  readonly companyName: string | null;
  readonly status: ConnectionStatus;
  readonly accessTokenEnc: string;
  readonly refreshTokenEnc: string;
  readonly accessTokenExpiresAt: Date;
  readonly refreshTokenExpiresAt: Date | null;
  readonly checkedThrough: Date | null;
  readonly purchaseOrderField: string | null;
  readonly settingsVersion: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The tenant a connection belongs to: what its source records, runs and mappings are written under. */
export const scopeOfConnection = (c: Pick<LedgerConnection, 'organizationId' | 'integrationId' | 'environment'>): TenantScope => ({
  organizationId: c.organizationId,
  integrationId: c.integrationId,
  environment: c.environment,
});

/** A connection's tokens as stored, for the start-up step that rebinds legacy ciphertexts. */
export interface StoredTokens {
  readonly id: string;
  readonly accessTokenEnc: string;
  readonly refreshTokenEnc: string;
}

export type InvitationStatus = 'pending' | 'sent' | 'failed' | 'consumed';

/** An invitation to approve access to a company (table `ledger_invitations`); its secret and state are held only as hashes, never read back. */
export interface LedgerInvitation {
  readonly id: string;
  readonly organizationId: string;
  readonly integrationId: string;
  readonly environment: Environment;
  readonly recipientEmail: string;
  readonly status: InvitationStatus;
  readonly expiresAt: Date;
  readonly stateExpiresAt: Date | null;
  /** The realm whose consent consumed it. */
  readonly realmId: string | null;
  readonly createdAt: Date;
  readonly sentAt: Date | null;
  readonly consumedAt: Date | null;
}

export type SyncMode = SyncRunView['mode'];

/** A safe failure summary of a run (no tokens, no provider bodies); a type literal, so it is a stored JSON object. */
export type SyncRunError = {
  code: string;
  message: string;
};

/** One sync run of a connection (table `ledger_sync_runs`), with the connection's realm. */
export interface SyncRun {
  readonly id: string;
  readonly connectionId: string;
  /** The connection's realm: the public `connectionId`. */
  readonly realmId: string;
  readonly workflowRunId: string;
  readonly state: SyncState;
  readonly mode: SyncMode;
  readonly fullReconciliation: boolean;
  readonly periodStart: Date | null;
  readonly periodEnd: Date | null;
  /** Per-entity progress as stored (`EntityProgress` by entity name, server/domain/ledger/sync-rules.ts). */
  readonly entities: Record<string, unknown>;
  readonly error: SyncRunError | null;
  readonly attempts: number;
  readonly createdAt: Date;
  readonly startedAt: Date | null;
  readonly completedAt: Date | null;
}

/** One confirmed version of an item's mapping (table `item_mappings`). */
export interface ItemMappingVersion {
  readonly id: string;
  readonly organizationId: string;
  readonly integrationId: string;
  readonly environment: Environment;
  readonly connectionId: string;
  readonly sourceItemId: string;
  readonly productCode: string;
  readonly unitOfMeasure: string;
  readonly commodityCode: string | null;
  readonly version: number;
  readonly evidence: string;
  readonly approvedBy: string;
  readonly approvedAt: Date;
  readonly revokedAt: Date | null;
}
