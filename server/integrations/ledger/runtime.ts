import type { Config, LedgerSettings } from '../../config.js';
import { ledgerSettings } from '../../config.js';
import type { LedgerEndpoints } from './ledger-api.js';
import type { Mailer } from '../mail/mailer.js';
import type { TokenCipher } from '../../crypto/token-cipher.js';

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

/**
 * What the ledger endpoints, the consent pages and the importer need besides the
 * database: settings, provider endpoints (real provider or sandbox), the token
 * cipher, the mailer and the job queue. Built once at start-up (server/service.ts).
 */
export interface LedgerRuntime {
  settings: LedgerSettings;
  endpoints: LedgerEndpoints;
  cipher: TokenCipher;
  mailer: Mailer;
  queue?: SyncQueuePort;
  /** Set when the HTTP port is known (port 0 in tests). */
  setPublicUrl(url: string): void;
}

/**
 * Where tokens are revoked when LEDGER_REVOKE_URL is unset: the real provider's
 * revoke host for its token endpoint (docs/provider-facts.md §4.7), otherwise the token
 * endpoint's own origin (the ledger sandbox serves both).
 */
export function defaultRevokeUrl(tokenUrl: string): string {
  const origin = new URL(tokenUrl).hostname === 'oauth.platform.intuit.com' ? 'https://developer.api.intuit.com' : new URL(tokenUrl).origin;
  return `${origin}/v2/oauth2/tokens/revoke`;
}

export function createLedgerRuntime(options: {
  config: Config;
  provider: { authorizeUrl: string; tokenUrl: string; revokeUrl?: string; apiBaseUrl: string; clientId: string; clientSecret: string };
  cipher: TokenCipher;
  mailer: Mailer;
}): LedgerRuntime {
  const settings = ledgerSettings(options.config);
  const redirect = () => options.config.LEDGER_REDIRECT_URL ?? `${settings.publicUrl}/ledger/oauth/callback`;
  const revokeUrl = options.provider.revokeUrl ?? defaultRevokeUrl(options.provider.tokenUrl);
  const endpoints: LedgerEndpoints = {
    ...options.provider,
    revokeUrl,
    redirectUrl: redirect(),
    minorVersion: 75,
    timeoutMs: settings.httpTimeoutMs,
  };
  return {
    settings,
    endpoints,
    cipher: options.cipher,
    mailer: options.mailer,
    setPublicUrl(url) {
      settings.publicUrl = url.replace(/\/$/, '');
      endpoints.redirectUrl = redirect();
    },
  };
}
