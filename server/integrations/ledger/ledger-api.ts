/**
 * The service's client for the accounting provider's protocol (docs/provider-facts.md §4):
 * OAuth 2.0 token endpoint and the query API. The same code talks to the real
 * provider or to the ledger sandbox; only the URLs differ (server/config.ts).
 * Errors never carry raw provider bodies or tokens: only status and Fault codes.
 */
import { inSpan } from '../../observability/spans.js';
import { LedgerHttpError, type LedgerErrorKind } from '../../domain/ledger/provider-errors.js';
import type { QueryPage, TokenSet } from '../../domain/ledger/ports.js';

export { LedgerHttpError };
export type { QueryPage, TokenSet };

export interface LedgerEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  /** Token revocation endpoint (docs/provider-facts.md §4.7: `POST /v2/oauth2/tokens/revoke`). */
  revokeUrl: string;
  apiBaseUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUrl: string;
  /** Provider API minor version (docs/provider-facts.md §4.6: 75 or later). */
  minorVersion: number;
  timeoutMs: number;
}

const SCOPE = 'com.intuit.quickbooks.accounting';

export function authorizationUrl(ep: LedgerEndpoints, state: string): string {
  const url = new URL(ep.authorizeUrl);
  url.searchParams.set('client_id', ep.clientId);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', SCOPE);
  url.searchParams.set('redirect_uri', ep.redirectUrl);
  url.searchParams.set('state', state);
  return url.toString();
}

function kindOf(status: number): LedgerErrorKind {
  if (status === 401) return 'unauthorized';
  if (status === 429) return 'throttled';
  if (status >= 500) return 'server';
  return 'client';
}

/** Connection failures that happen before any byte of the request is sent. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function retryAfter(res: Response): number | undefined {
  const value = res.headers.get('retry-after');
  const seconds = value === null ? NaN : Number(value);
  return Number.isFinite(seconds) ? seconds * 1000 : undefined;
}

function faultCode(body: unknown): string | undefined {
  const b = body as { Fault?: { Error?: { code?: string }[] }; fault?: { error?: { code?: string }[] } } | null;
  return b?.Fault?.Error?.[0]?.code ?? b?.fault?.error?.[0]?.code;
}

/** One provider call, in a span of its own when tracing is on (its URL, body and answer are not recorded). */
export const send = (ep: LedgerEndpoints, url: string, init: RequestInit, what: string): Promise<unknown> =>
  inSpan(`ledger.${what}`, (e, call) => sendOnce(e, call.url, call.init, call.what), ep, { url, init, what });

/** One provider call; non-2xx answers become `LedgerHttpError` with a safe summary. */
async function sendOnce(ep: LedgerEndpoints, url: string, init: RequestInit, what: string): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(ep.timeoutMs) });
  } catch (err) {
    const reason = (err as Error).name === 'TimeoutError' ? 'timed out' : 'could not be reached';
    const code = ((err as Error).cause as { code?: string } | undefined)?.code;
    throw new LedgerHttpError('network', 0, `ledger ${what} ${reason}`, undefined, code !== undefined && NOT_SENT.has(code));
  }
  const body: unknown = await res.json().catch(() => null);
  if (res.ok) return body;
  const oauthError = (body as { error?: unknown } | null)?.error;
  if (what === 'token' && (oauthError === 'invalid_grant' || res.status === 400 || res.status === 401)) {
    throw new LedgerHttpError(
      'invalid_grant',
      res.status,
      `ledger token endpoint refused the grant (${res.status} ${typeof oauthError === 'string' ? oauthError : 'error'})`,
    );
  }
  const code = faultCode(body);
  throw new LedgerHttpError(
    kindOf(res.status),
    res.status,
    `ledger ${what} answered ${res.status}${code ? ` (fault ${code})` : ''}`,
    retryAfter(res),
    res.status === 429 || res.status === 503,
  );
}

function toTokenSet(body: unknown, now = Date.now()): TokenSet {
  const b = body as { access_token?: string; refresh_token?: string; expires_in?: number; x_refresh_token_expires_in?: number };
  if (!b?.access_token || !b.refresh_token || typeof b.expires_in !== 'number')
    throw new LedgerHttpError('server', 200, 'ledger token response is incomplete');
  return {
    accessToken: b.access_token,
    refreshToken: b.refresh_token,
    accessTokenExpiresAt: new Date(now + b.expires_in * 1000),
    refreshTokenExpiresAt: typeof b.x_refresh_token_expires_in === 'number' ? new Date(now + b.x_refresh_token_expires_in * 1000) : null,
  };
}

async function tokenRequest(ep: LedgerEndpoints, form: Record<string, string>): Promise<TokenSet> {
  const body = await send(
    ep,
    ep.tokenUrl,
    {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${ep.clientId}:${ep.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams(form).toString(),
    },
    'token',
  );
  return toTokenSet(body);
}

export const exchangeCode = (ep: LedgerEndpoints, code: string) =>
  tokenRequest(ep, { grant_type: 'authorization_code', code, redirect_uri: ep.redirectUrl });
export const refreshTokens = (ep: LedgerEndpoints, refreshToken: string) =>
  tokenRequest(ep, { grant_type: 'refresh_token', refresh_token: refreshToken });

/**
 * Revoke a token at the provider (`POST /v2/oauth2/tokens/revoke`, Basic client auth,
 * JSON `{"token": <refresh token>}`); revoking the refresh token ends the whole grant.
 */
export async function revokeToken(ep: LedgerEndpoints, token: string): Promise<void> {
  await send(
    ep,
    ep.revokeUrl,
    {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${ep.clientId}:${ep.clientSecret}`).toString('base64')}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({ token }),
    },
    'revoke',
  );
}

/**
 * `GET /v3/company/{realmId}/companyinfo/{realmId}` with the given access token: the
 * provider answers 401/403 unless the token was granted for that company, so a 2xx
 * proves the callback's `realmId` is the company the person approved.
 */
export async function companyInfo(
  ep: LedgerEndpoints,
  options: { realmId: string; accessToken: string },
): Promise<{ companyName: string | null }> {
  const body = (await companyGet(ep, {
    ...options,
    path: `companyinfo/${encodeURIComponent(options.realmId)}`,
    operation: 'companyinfo',
  })) as {
    CompanyInfo?: { CompanyName?: unknown };
  };
  const name = body?.CompanyInfo?.CompanyName;
  return { companyName: typeof name === 'string' ? name : null };
}

/**
 * `GET /v3/company/{realmId}/<path>` with the bearer token and the minor version
 * (docs/provider-facts.md §4.6); the parsed JSON body.
 */
export function companyGet(
  ep: LedgerEndpoints,
  o: { realmId: string; accessToken: string; path: string; params?: Record<string, string>; operation: string },
): Promise<unknown> {
  const url = new URL(`/v3/company/${encodeURIComponent(o.realmId)}/${o.path}`, ep.apiBaseUrl);
  for (const [name, value] of Object.entries(o.params ?? {})) url.searchParams.set(name, value);
  url.searchParams.set('minorversion', String(ep.minorVersion));
  return send(ep, url.toString(), { headers: { authorization: `Bearer ${o.accessToken}`, accept: 'application/json' } }, o.operation);
}

/** One page of `GET /v3/company/{realmId}/query` (`QueryResponse {<Entity>[], startPosition, maxResults}`). */
export async function queryPage(
  ep: LedgerEndpoints,
  options: { realmId: string; accessToken: string; entity: string; statement: string },
): Promise<QueryPage> {
  const body = (await companyGet(ep, { ...options, path: 'query', params: { query: options.statement }, operation: 'query' })) as {
    QueryResponse?: Record<string, unknown>;
  };
  const qr = body?.QueryResponse ?? {};
  const rows = Array.isArray(qr[options.entity]) ? (qr[options.entity] as Record<string, unknown>[]) : [];
  return { rows, startPosition: Number(qr.startPosition ?? 1), maxResults: Number(qr.maxResults ?? rows.length) };
}
