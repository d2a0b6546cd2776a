import express, { type Router } from 'express';
import type { SandboxCompany } from './company.js';
import { delayFor, type FaultQueue } from './faults.js';
import type { SandboxTokens } from './oauth-state.js';

export interface OAuthDeps {
  companies: Map<string, SandboxCompany>;
  tokens: SandboxTokens;
  faults: FaultQueue;
  clientId: string;
  clientSecret: string;
  /** Skip the consent page and approve at once (tests). */
  autoApprove: () => boolean;
  /** Strict protocol checks (`SandboxOptions.strict`). */
  strict: () => boolean;
  /** Every token request, as the sandbox saw and answered it (tests). */
  tokenRequests: TokenRequestLog[];
  /** Protocol violations seen in strict mode (tests assert there are none). */
  violations: string[];
}

export interface TokenRequestLog {
  grantType: string;
  refreshToken?: string;
  status: number;
  at: number;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function approvedRedirect(deps: OAuthDeps, redirectUri: string, state: string, realmId: string): string {
  const url = new URL(redirectUri);
  url.searchParams.set('code', deps.tokens.issueCode(realmId, redirectUri));
  url.searchParams.set('state', state);
  url.searchParams.set('realmId', realmId);
  return url.toString();
}

/** OAuth 2.0 authorize (consent page), token and revoke endpoints, as in docs/provider-facts.md §4.7. */
export function oauthRoutes(deps: OAuthDeps): Router {
  const router = express.Router();
  router.get('/connect/oauth2', (req, res) => {
    const q = req.query as Record<string, string | undefined>;
    if (
      q.client_id !== deps.clientId ||
      q.response_type !== 'code' ||
      !q.redirect_uri ||
      !q.state ||
      !(q.scope ?? '').split(' ').includes('com.intuit.quickbooks.accounting')
    ) {
      return void res.status(400).type('html').send('<h1>Invalid authorization request</h1>');
    }
    const [company] = deps.companies.values();
    if (!company) return void res.status(500).type('html').send('<h1>No company loaded</h1>');
    if (deps.autoApprove()) return void res.redirect(302, approvedRedirect(deps, q.redirect_uri, q.state, company.realmId));
    res.type('html').send(`<!doctype html><title>Connect to ledger sandbox</title>
<h1>Ledger sandbox</h1><p>An application asks for access to the accounting data of <b>${esc(company.companyName)}</b>.</p>
<form method="post" action="/connect/oauth2/approve">
<input type="hidden" name="redirect_uri" value="${esc(q.redirect_uri)}"><input type="hidden" name="state" value="${esc(q.state)}">
<input type="hidden" name="realmId" value="${esc(company.realmId)}">
<button name="decision" value="approve">Approve</button> <button name="decision" value="deny">Deny</button></form>`);
  });

  router.post('/connect/oauth2/approve', express.urlencoded({ extended: false }), (req, res) => {
    const b = req.body as Record<string, string>;
    if (!b.redirect_uri || !b.state || !b.realmId) return void res.status(400).type('html').send('<h1>Invalid form</h1>');
    if (b.decision !== 'approve') {
      const url = new URL(b.redirect_uri);
      url.searchParams.set('error', 'access_denied');
      url.searchParams.set('state', b.state);
      return void res.redirect(302, url.toString());
    }
    res.redirect(302, approvedRedirect(deps, b.redirect_uri, b.state, b.realmId));
  });

  router.post('/oauth2/v1/tokens/bearer', express.urlencoded({ extended: false }), async (req, res) => {
    const b = req.body as Record<string, string>;
    const log: TokenRequestLog = {
      grantType: String(b.grant_type ?? ''),
      ...(b.grant_type === 'refresh_token' ? { refreshToken: String(b.refresh_token ?? '') } : {}),
      status: 0,
      at: Date.now(),
    };
    deps.tokenRequests.push(log);
    const answer = (status: number, body: unknown, retryAfterSeconds?: number) => {
      log.status = status;
      if (retryAfterSeconds !== undefined) res.setHeader('retry-after', String(retryAfterSeconds));
      res.status(status).json(body);
    };
    const fault = deps.faults.take('token');
    await delayFor(fault);
    if (fault?.kind === 'throttle') return answer(429, { error: 'throttled' }, fault.retryAfterSeconds);
    if (fault?.kind === 'server_error' && !fault.afterGrant)
      return answer(fault.status ?? 500, { error: 'server_error' }, fault.retryAfterSeconds);
    if (fault?.kind === 'invalid_grant') return answer(400, { error: 'invalid_grant' });
    const basic = /^Basic (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const [id, secret] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':') : [];
    if (id !== deps.clientId || secret !== deps.clientSecret) return answer(401, { error: 'invalid_client' });
    let tokens: ReturnType<SandboxTokens['issueTokens']>;
    if (b.grant_type === 'authorization_code') {
      const grant = deps.tokens.redeemCode(b.code ?? '', b.redirect_uri ?? '');
      if (!grant) return answer(400, { error: 'invalid_grant' });
      tokens = deps.tokens.issueTokens(grant);
    } else if (b.grant_type === 'refresh_token') {
      const token = b.refresh_token ?? '';
      const grant = deps.tokens.refreshGrant(token);
      const replayedFrom = grant ? undefined : deps.tokens.rotatedFrom(token);
      if (replayedFrom && deps.strict()) {
        // A rotated refresh token sent again: treated as stolen, the whole grant ends (RFC 9700 §4.14.2).
        deps.violations.push('a rotated refresh token was sent again');
        deps.tokens.revokeGrant(replayedFrom);
      }
      if (!grant) return answer(400, { error: 'invalid_grant' });
      tokens = deps.tokens.issueTokens(grant, token);
    } else return answer(400, { error: 'unsupported_grant_type' });
    // The grant was carried out; its answer is lost on the way back.
    if (fault?.kind === 'server_error') return answer(fault.status ?? 500, { error: 'server_error' }, fault.retryAfterSeconds);
    answer(200, tokens);
  });

  // Revocation (docs/provider-facts.md §4.7): revoking a refresh token ends its grant, so it no longer refreshes.
  router.post('/v2/oauth2/tokens/revoke', express.json(), (req, res) => {
    const basic = /^Basic (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const [id, secret] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':') : [];
    if (id !== deps.clientId || secret !== deps.clientSecret) return void res.status(401).json({ error: 'invalid_client' });
    const token = (req.body as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || !token) return void res.status(400).json({ error: 'invalid_request' });
    deps.tokens.revoke(token);
    res.status(200).end();
  });
  return router;
}
