import { randomBytes } from 'node:crypto';

const opaque = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

export interface SandboxTokenOptions {
  /** Access token lifetime (provider: 3600 s). */
  accessTokenTtlSeconds: number;
  /** Refresh token lifetime (provider: 8726400 s, rolling). */
  refreshTokenTtlSeconds: number;
  /** Issue a new refresh token on every refresh (the provider may rotate; always store the latest). */
  rotateRefreshTokens: boolean;
}

export interface Grant {
  realmId: string;
  /** One consent: the code, and every access and refresh token issued from it. */
  grantId: string;
  expiresAt: number;
}

/** What `SandboxTokens` holds, as plain data (server/ledger-sandbox/sandbox-state.ts keeps it in a file). */
export interface SandboxTokenState {
  codes: [string, Grant & { redirectUri: string }][];
  access: [string, Grant][];
  refresh: [string, Grant][];
}

/** Authorization codes, access tokens and refresh tokens the sandbox has issued. */
export class SandboxTokens {
  private codes: Map<string, Grant & { redirectUri: string }>;
  private access: Map<string, Grant>;
  private refresh: Map<string, Grant>;
  /** Refresh tokens replaced by rotation, with their grant (to recognise a replay); not kept across restarts. */
  private rotated = new Map<string, string>();

  /** `onChange` runs after every change (the embedded default saves the state with it). */
  constructor(
    private readonly options: SandboxTokenOptions,
    saved?: SandboxTokenState,
    private readonly onChange: () => void = () => undefined,
  ) {
    this.codes = new Map(saved?.codes);
    this.access = new Map(saved?.access);
    this.refresh = new Map(saved?.refresh);
  }

  /** The unexpired codes and tokens. */
  state(): SandboxTokenState {
    const now = Date.now();
    const live = <G extends Grant>(map: Map<string, G>) => [...map].filter(([, g]) => g.expiresAt >= now);
    return { codes: live(this.codes), access: live(this.access), refresh: live(this.refresh) };
  }

  issueCode(realmId: string, redirectUri: string): string {
    const code = opaque('AB11');
    this.codes.set(code, { realmId, grantId: opaque('G'), redirectUri, expiresAt: Date.now() + 5 * 60_000 });
    this.onChange();
    return code;
  }

  /** A code is single-use and bound to the redirect URI it was issued for. */
  redeemCode(code: string, redirectUri: string): Grant | undefined {
    const grant = this.codes.get(code);
    if (this.codes.delete(code)) this.onChange();
    if (!grant || grant.expiresAt < Date.now() || grant.redirectUri !== redirectUri) return undefined;
    return grant;
  }

  issueTokens({ realmId, grantId }: { realmId: string; grantId: string }, previousRefresh?: string) {
    const accessToken = opaque('eyJsandbox.');
    this.access.set(accessToken, { realmId, grantId, expiresAt: Date.now() + this.options.accessTokenTtlSeconds * 1000 });
    let refreshToken = previousRefresh;
    if (!refreshToken || this.options.rotateRefreshTokens) {
      if (previousRefresh) {
        this.refresh.delete(previousRefresh);
        this.rotated.set(previousRefresh, grantId);
      }
      refreshToken = opaque('RT1-');
    }
    this.refresh.set(refreshToken, { realmId, grantId, expiresAt: Date.now() + this.options.refreshTokenTtlSeconds * 1000 });
    this.onChange();
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: this.options.accessTokenTtlSeconds,
      refresh_token: refreshToken,
      x_refresh_token_expires_in: this.options.refreshTokenTtlSeconds,
    };
  }

  /** The grant a refresh token belonged to before it was rotated, if it was. */
  rotatedFrom(token: string): string | undefined {
    return this.rotated.get(token);
  }

  /** End every token of one grant (refresh-token reuse detection). */
  revokeGrant(grantId: string): void {
    for (const map of [this.access, this.refresh]) for (const [t, g] of map) if (g.grantId === grantId) map.delete(t);
    this.onChange();
  }

  refreshGrant(token: string): Grant | undefined {
    const grant = this.refresh.get(token);
    if (!grant || grant.expiresAt < Date.now()) return undefined;
    return grant;
  }

  /** The realm an access token is valid for, or why not. */
  checkAccess(token: string | undefined): { realmId: string } | { error: string } {
    const grant = token ? this.access.get(token) : undefined;
    if (!grant) return { error: 'Token invalid' };
    if (grant.expiresAt < Date.now()) return { error: 'Token expired' };
    return { realmId: grant.realmId };
  }

  /**
   * Revoke a token: the provider ends its whole grant, so every access and
   * refresh token issued from the same consent stops working.
   */
  revoke(token: string): void {
    const grantId = (this.refresh.get(token) ?? this.access.get(token))?.grantId;
    if (grantId) this.revokeGrant(grantId);
  }

  /** Expire every access token now (tests: force the refresh path). */
  expireAccessTokens(): void {
    for (const g of this.access.values()) g.expiresAt = 0;
    this.onChange();
  }

  /** Revoke every refresh token (tests: force reauthorization). */
  revokeRefreshTokens(): void {
    this.refresh.clear();
    this.onChange();
  }
}
