import type { Config } from '../../config.js';
import { ledgerSettings } from '../../config.js';
import type { LedgerClient, LedgerPorts, Mailer } from '../../domain/ledger/ports.js';
import { authorizationUrl, companyInfo, exchangeCode, queryPage, revokeToken, type LedgerEndpoints } from './ledger-api.js';
import { changesSince } from './ledger-cdc.js';
import { LedgerSession } from './ledger-session.js';
import type { TokenCipher } from '../../crypto/token-cipher.js';

export type { SyncQueuePort } from '../../domain/ledger/ports.js';

/**
 * The ledger ports as this deployment implements them: settings, the provider's client over its
 * endpoints (real provider or sandbox), the token cipher, the mailer and the job queue. Built once at
 * start-up (server/jobs/ledger-setup.ts). `endpoints` is the client's live configuration.
 */
export interface LedgerRuntime extends LedgerPorts {
  endpoints: LedgerEndpoints;
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

/** The domain's `LedgerClient` over these endpoints; each call reads them as they are then. */
function ledgerClient(runtime: Omit<LedgerRuntime, 'client'>): LedgerClient {
  const ep = runtime.endpoints;
  return {
    authorizationUrl: (state) => authorizationUrl(ep, state),
    exchangeCode: (code) => exchangeCode(ep, code),
    revokeToken: (token) => revokeToken(ep, token),
    companyInfo: (o) => companyInfo(ep, o),
    forConnection(connection, tokens) {
      const session = new LedgerSession(tokens, runtime, connection);
      const { realmId } = connection;
      return {
        query: (o) => session.call((accessToken) => queryPage(ep, { ...o, realmId, accessToken })),
        changesSince: (o) => session.call((accessToken) => changesSince(ep, { ...o, realmId, accessToken })),
      };
    },
  };
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
  const runtime: Omit<LedgerRuntime, 'client'> = {
    settings,
    endpoints,
    cipher: options.cipher,
    mailer: options.mailer,
    setPublicUrl(url) {
      settings.publicUrl = url.replace(/\/$/, '');
      endpoints.redirectUrl = redirect();
    },
  };
  return Object.assign(runtime, { client: ledgerClient(runtime) });
}
