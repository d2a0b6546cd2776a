import type { LedgerTokenStore } from '../../domain/ledger/ports.js';
import { ConnectionNoLongerActive, ReauthorizationRequired, TokenOutcomeUnknown } from '../../domain/ledger/provider-errors.js';
import type { LedgerConnection } from '../../domain/ledger/types.js';
import { LedgerHttpError, refreshTokens, type LedgerEndpoints } from './ledger-api.js';
import type { LedgerSettings } from '../../config.js';
import type { TokenCipher } from '../../crypto/token-cipher.js';
import { backoffDelayMs } from './backoff.js';

/** Refresh this long before the access token's expiry. */
const REFRESH_MARGIN_MS = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const retryDelay = (err: LedgerHttpError, attempt: number, baseMs: number, maxMs: number) =>
  backoffDelayMs({ attempt, baseMs, maxMs, ...(err.retryAfterMs !== undefined ? { retryAfterMs: err.retryAfterMs } : {}) });

/**
 * Provider calls for one connection: decrypts tokens only in memory, refreshes
 * the access token before expiry or after a 401 (storing the rotated refresh
 * token at once through the domain's `LedgerTokenStore`), and retries 429/5xx/network failures with back-off.
 */
export class LedgerSession {
  private access: string;
  private refresh: string;
  private expiresAt: number;

  constructor(
    private readonly tokens: LedgerTokenStore,
    private readonly runtime: { settings: LedgerSettings; endpoints: LedgerEndpoints; cipher: TokenCipher },
    readonly connection: LedgerConnection,
  ) {
    this.access = runtime.cipher.decrypt(connection.accessTokenEnc, connection.id);
    this.refresh = runtime.cipher.decrypt(connection.refreshTokenEnc, connection.id);
    this.expiresAt = connection.accessTokenExpiresAt.getTime();
  }

  /**
   * Refresh the tokens (docs/ledger-sync.md, "Tokens"). A refresh is retried with
   * the same back-off and Retry-After handling as every provider call, but the
   * refresh token is sent again only when the failure proves the provider did not
   * act on it (429, 503, no connection made): any other failure may have followed
   * a rotation, and sending a rotated refresh token again is a replay the provider
   * may answer by ending the whole grant.
   */
  private async renew(): Promise<void> {
    const { maxRetries, backoffBaseMs, backoffMaxMs } = this.runtime.settings;
    let tokens: Awaited<ReturnType<typeof refreshTokens>>;
    for (let attempt = 0; ; attempt++) {
      try {
        tokens = await refreshTokens(this.runtime.endpoints, this.refresh);
        break;
      } catch (err) {
        if (!(err instanceof LedgerHttpError)) throw err;
        if (err.kind === 'invalid_grant') {
          await this.tokens.markReauthorizationRequired(this.connection.id);
          throw new ReauthorizationRequired();
        }
        const transient = err.kind === 'throttled' || err.kind === 'server' || err.kind === 'network';
        if (transient && !err.notActedOn) {
          await this.tokens.markReauthorizationRequired(this.connection.id);
          throw new TokenOutcomeUnknown();
        }
        if (!transient || attempt >= maxRetries) throw err;
        await sleep(retryDelay(err, attempt, backoffBaseMs, backoffMaxMs));
      }
    }
    const { cipher } = this.runtime;
    const id = this.connection.id;
    // Conditional on the connection still being active (in the same statement): a
    // disconnect that happened meanwhile must not get tokens written back into it.
    const stored = await this.tokens.storeTokens(id, {
      accessEnc: cipher.encrypt(tokens.accessToken, id),
      refreshEnc: cipher.encrypt(tokens.refreshToken, id),
      accessExpiresAt: tokens.accessTokenExpiresAt,
      refreshExpiresAt: tokens.refreshTokenExpiresAt,
    });
    if (!stored) throw new ConnectionNoLongerActive();
    this.access = tokens.accessToken;
    this.refresh = tokens.refreshToken;
    this.expiresAt = tokens.accessTokenExpiresAt.getTime();
  }

  /** Run one provider call with a valid access token, refreshing and backing off as needed. */
  async call<T>(fn: (accessToken: string) => Promise<T>): Promise<T> {
    const { maxRetries, backoffBaseMs, backoffMaxMs } = this.runtime.settings;
    let refreshed = false;
    for (let attempt = 0; ; attempt++) {
      if (this.expiresAt - REFRESH_MARGIN_MS <= Date.now()) {
        await this.renew();
        refreshed = true;
      }
      try {
        return await fn(this.access);
      } catch (err) {
        if (!(err instanceof LedgerHttpError)) throw err;
        if (err.kind === 'unauthorized' && !refreshed) {
          await this.renew();
          refreshed = true;
          continue;
        }
        const retryable = err.kind === 'throttled' || err.kind === 'server' || err.kind === 'network';
        if (!retryable || attempt >= maxRetries) throw err;
        await sleep(retryDelay(err, attempt, backoffBaseMs, backoffMaxMs));
      }
    }
  }
}
