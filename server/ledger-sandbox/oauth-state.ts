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

interface Grant {
  realmId: string;
  /** One consent: the code, and every access and refresh token issued from it. */
  grantId: string;
  expiresAt: number;
}

/** Authorization codes, access tokens and refresh tokens the sandbox has issued. */
export class SandboxTokens {
  private codes = new Map<string, Grant & { redirectUri: string }>();
  private access = new Map<string, Grant>();
  private refresh = new Map<string, Grant>();
  /** Refresh tokens replaced by rotation, with their grant (to recognise a replay). */
  private rotated = new Map<string, string>();

  constructor(private readonly options: SandboxTokenOptions) {}

  issueCode(realmId: string, redirectUri: string): string {
    const code = opaque('AB11');
    this.codes.set(code, { realmId, grantId: opaque('G'), redirectUri, expiresAt: Date.now() + 5 * 60_000 });
    return code;
  }

  /** A code is single-use and bound to the redirect URI it was issued for. */
  redeemCode(code: string, redirectUri: string): Grant | undefined {
    const grant = this.codes.get(code);
    this.codes.delete(code);
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
  }

  /** Revoke every refresh token (tests: force reauthorization). */
  revokeRefreshTokens(): void {
    this.refresh.clear();
  }
}
