import type { LedgerSettings } from '../../config.js';
import type { TokenCipher } from '../../crypto/token-cipher.js';
import type { LedgerConnection } from './types.js';

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

/** Where a connection's rotated tokens go the moment the provider issues them. */
export interface LedgerTokenStore {
  markReauthorizationRequired(connectionId: string): Promise<void>;
  /** False when the connection stopped being active meanwhile: nothing was stored. */
  storeTokens(
    connectionId: string,
    tokens: { accessEnc: string; refreshEnc: string; accessExpiresAt: Date; refreshExpiresAt: Date | null },
  ): Promise<boolean>;
}

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
