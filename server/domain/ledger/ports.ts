import type { LedgerSettings } from '../../config.js';
import type { TokenCipher } from '../../crypto/token-cipher.js';
import type { ConnectionStatus, Environment, SyncState } from '../../../contract/common/index.js';
import type { KeyRecord } from '../auth/types.js';
import type { TenantScope } from '../tenant-scope.js';
import type { LedgerConnection, LedgerInvitation, StoredTokens, SyncMode, SyncRun, SyncRunError } from './types.js';

/**
 * What the ledger use cases need from outside the database, declared here and implemented in
 * server/integrations (the provider's client, mail) and server/jobs (the queue); wired once at start-up
 * (server/jobs/ledger-setup.ts).
 */

export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  accessTokenExpiresAt: Date;
  refreshTokenExpiresAt: Date | null;
}

/** One page of the provider's query answer. */
export interface QueryPage {
  rows: Record<string, unknown>[];
  startPosition: number;
  maxResults: number;
}

/** Provider calls for one connection; tokens are refreshed (and stored through a `LedgerTokenStore`) and failures backed off inside. */
export interface LedgerConnectionClient {
  query(o: { entity: string; statement: string }): Promise<QueryPage>;
  /** The change feed: changed and deleted records of the entities since a time (at most 1000 objects). */
  changesSince(o: { entities: string[]; changedSince: Date }): Promise<Record<string, Record<string, unknown>[]>>;
}

/**
 * Where a connection's rotated tokens go the moment the provider issues them: the ledger store's token writes, each
 * committing on its own, at once (the store outside any transaction).
 */
export type LedgerTokenStore = Pick<LedgerStore, 'markReauthorizationRequired' | 'storeTokens'>;

/** The accounting provider's client: OAuth consent and token exchange, revocation, and per-connection queries. */
export interface LedgerClient {
  authorizationUrl(state: string): string;
  exchangeCode(code: string): Promise<TokenSet>;
  /** Revoking the refresh token ends the whole grant. */
  revokeToken(token: string): Promise<void>;
  /** Succeeds only when the access token was granted for `realmId`. */
  companyInfo(o: { realmId: string; accessToken: string }): Promise<{ companyName: string | null }>;
  forConnection(connection: LedgerConnection, tokens: LedgerTokenStore): LedgerConnectionClient;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  /** Where mail goes, for the start-up line (never credentials). */
  describe(): string;
  close(): void;
}

/** Sends a sync run to the background queue; `jobId` is the run's `workflowRunId`. */
export interface SyncQueuePort {
  enqueue(runId: string, jobId: string): Promise<void>;
  /** The job's pg-boss state (`created`, `retry`, `active`, `completed`, `cancelled`, `failed`), or null when it does not exist. */
  jobState(jobId: string): Promise<string | null>;
  /** The job's state and when it was last handed to a worker, or null when it does not exist. */
  job(jobId: string): Promise<{ state: string; startedOn: Date | null } | null>;
  /** Cancel a job so it is never delivered again (a no-op once it is final). */
  cancel(jobId: string): Promise<void>;
}

/** Everything the ledger use cases reach besides the database. */
export interface LedgerPorts {
  settings: LedgerSettings;
  cipher: TokenCipher;
  client: LedgerClient;
  mailer: Mailer;
  queue?: SyncQueuePort;
}

/** A source record of a sync page as it is stored (card numbers already replaced). */
export interface SourceRecordInput {
  sourceId: string;
  syncToken: string | null;
  lastUpdatedAt: Date | null;
  deleted: boolean;
  payload: Record<string, unknown>;
}

/**
 * What the ledger use cases need from storage (connections, invitations, source records, sync runs);
 * server/persistence/stores/ledger-store.ts implements it. `lock` holds the row until the transaction ends.
 */
export interface LedgerStore {
  /** The connection of this integration and realm (the public `connectionId`). */
  findConnection(integrationId: string, realmId: string, lock?: boolean): Promise<LedgerConnection | undefined>;
  connectionById(id: string, lock?: boolean): Promise<LedgerConnection | undefined>;
  /** The connection row of this integration and realm, created without tokens if there is none, locked for the transaction. */
  claimConnection(c: {
    organizationId: string;
    integrationId: string;
    environment: Environment;
    realmId: string;
    now: Date;
  }): Promise<{ id: string; status: ConnectionStatus; created: boolean }>;
  /** A consent's tokens; the status becomes active unless the operator paused or disconnected the connection. */
  storeConsentTokens(
    id: string,
    t: { accessEnc: string; refreshEnc: string; accessExpiresAt: Date; refreshExpiresAt: Date | null; now: Date },
  ): Promise<ConnectionStatus>;
  /** A refresh's rotated tokens, only while the connection is active; false when nothing was stored. */
  storeTokens(
    connectionId: string,
    tokens: { accessEnc: string; refreshEnc: string; accessExpiresAt: Date; refreshExpiresAt: Date | null },
  ): Promise<boolean>;
  /** An active connection becomes `reauthorization_required`; false when it was not active. */
  markReauthorizationRequired(connectionId: string): Promise<boolean>;
  setConnectionStatus(id: string, status: ConnectionStatus): Promise<boolean>;
  listConnections(filter: { integrationId?: string; limit: number }): Promise<LedgerConnection[]>;
  /** False when the settings were already these (the settings version moves only on a change). */
  configureConnection(id: string, s: { purchaseOrderField: string | null }): Promise<boolean>;
  disconnectConnection(id: string): Promise<void>;
  connectionsWithLegacyTokens(): Promise<StoredTokens[]>;
  replaceTokensIfUnchanged(
    id: string,
    was: { access: string; refresh: string },
    now: { access: string; refresh: string },
  ): Promise<boolean>;
  advanceCheckpoint(connectionId: string, through: Date): Promise<void>;

  /** Transaction-scoped locks serializing invitations to one recipient, and those made with one API key. */
  lockRecipient(integrationId: string, email: string): Promise<void>;
  lockApiKey(apiKeyId: string): Promise<void>;
  /** Creation time of the `limit`-th newest invitation this key created since `since`, or undefined under the limit. */
  limitthInvitationOfKey(apiKeyId: string, since: Date, limit: number): Promise<Date | undefined>;
  latestInvitationTo(integrationId: string, email: string): Promise<LedgerInvitation | undefined>;
  insertInvitation(row: {
    id: string;
    organizationId: string;
    integrationId: string;
    environment: Environment;
    email: string;
    secretHash: string;
    expiresAt: Date;
    now: Date;
    apiKeyId: string;
  }): Promise<void>;
  markInvitation(id: string, status: 'sent' | 'failed', at: Date): Promise<void>;
  invitationBySecret(secretHash: string): Promise<LedgerInvitation | undefined>;
  setInvitationState(id: string, stateHash: string, expiresAt: Date): Promise<void>;
  invitationByState(stateHash: string): Promise<LedgerInvitation | undefined>;
  /** True for the one caller that consumed it. */
  consumeInvitation(id: string, stateHash: string, now: Date): Promise<boolean>;
  recordInvitationRealm(id: string, realmId: string): Promise<void>;
  listInvitations(filter: { integrationId?: string; limit: number }): Promise<LedgerInvitation[]>;
  /** The API key an operator invitation is sent on behalf of, as authentication reads it. */
  keyRecordById(apiKeyId: string): Promise<KeyRecord | undefined>;

  upsertSourceRecords(o: {
    scope: TenantScope;
    connectionId: string;
    entityType: string;
    syncRunId: string;
    records: SourceRecordInput[];
    now: Date;
  }): Promise<{ created: number; updated: number; unchanged: number; written: Map<string, string> }>;
  markDeleted(o: { connectionId: string; entityType: string; sourceIds: string[]; syncRunId: string; now: Date }): Promise<number>;
  markSeen(o: { connectionId: string; entityType: string; sourceIds: string[]; syncRunId: string }): Promise<void>;
  markUnseenDeleted(o: { connectionId: string; entityType: string; syncRunId: string; now: Date }): Promise<number>;

  activeRun(connectionId: string): Promise<SyncRun | undefined>;
  latestRun(connectionId: string): Promise<SyncRun | undefined>;
  runById(id: string, lock?: boolean): Promise<SyncRun | undefined>;
  openRunIds(limit: number): Promise<string[]>;
  /** Lock the run's row unless another transaction holds it (SKIP LOCKED); false when it does. */
  lockRunUnlessLocked(id: string): Promise<boolean>;
  insertRun(r: {
    id: string;
    scope: TenantScope;
    connectionId: string;
    workflowRunId: string;
    mode: SyncMode;
    fullReconciliation: boolean;
    periodStart: Date | null;
    periodEnd: Date;
    entities: Record<string, unknown>;
    now: Date;
  }): Promise<void>;
  startRunAttempt(id: string, now: Date): Promise<void>;
  saveRunEntities(id: string, entities: Record<string, unknown>): Promise<void>;
  recordRunError(id: string, error: SyncRunError): Promise<void>;
  /** A queued or running run becomes final (a final run stays as it is). */
  finishRun(id: string, state: 'succeeded' | 'failed', error: SyncRunError | null, now: Date): Promise<void>;
  listRuns(f: { realmId?: string; state?: SyncState; before?: { createdAt: Date; id: string }; limit: number }): Promise<SyncRun[]>;
  /** True when no attempt holds the run's lease; the check holds it until the transaction ends. */
  runLeaseFree(runId: string): Promise<boolean>;
}
