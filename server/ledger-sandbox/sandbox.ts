import express from 'express';
import { randomBytes } from 'node:crypto';
import { listen, type RunningServer } from '../http/lifecycle.js';
import { apiRoutes } from './api-routes.js';
import type { SandboxCompany } from './company.js';
import { FaultQueue, type Fault } from './faults.js';
import { SandboxTokens, type SandboxTokenOptions } from './oauth-state.js';
import { oauthRoutes, type TokenRequestLog } from './oauth-routes.js';
import { readSandboxState, writeSandboxState } from './sandbox-state.js';

export interface SandboxOptions extends Partial<SandboxTokenOptions> {
  companies: SandboxCompany[];
  clientId?: string;
  clientSecret?: string;
  autoApprove?: boolean;
  rateLimitPerMinute?: number;
  /**
   * Keep client credentials, companies and issued tokens in this file
   * (server/ledger-sandbox/sandbox-state.ts): when it exists, its companies and
   * credentials replace `companies` and the generated ones.
   */
  stateFile?: string;
  /**
   * Strict protocol checks: behave where the provider documents no guarantee in
   * the least convenient way it may. Rows an ORDERBY leaves tied (same
   * `LastUpdatedTime`, second precision) come back in a new order on every
   * request unless the ORDERBY ends in `Id`. A rotated refresh token sent again
   * ends its whole grant (refresh-token reuse detection) and is recorded in
   * `violations`.
   */
  strict?: boolean;
  /** Random source of strict mode's tie order (a seeded one makes a failure reproducible). */
  random?: () => number;
}

export interface LedgerSandbox {
  url: string;
  clientId: string;
  clientSecret: string;
  companies: Map<string, SandboxCompany>;
  tokens: SandboxTokens;
  /** Provider-shaped URLs of this sandbox. */
  urls: { authorize: string; token: string; revoke: string; api: string };
  /** Every token request, with the refresh token it carried and the status answered. */
  tokenRequests: TokenRequestLog[];
  /** Protocol violations the strict checks saw. */
  violations: string[];
  injectFault(fault: Fault): void;
  clearFaults(): void;
  setAutoApprove(on: boolean): void;
  /** Switch the strict protocol checks on or off (`SandboxOptions.strict`), optionally with a new random source. */
  setStrict(on: boolean, random?: () => number): void;
  /** Run `hook` before each query/CDC answer (tests change records between pages with it); undefined removes it. */
  beforeAnswer(hook: ((req: { kind: 'query' | 'cdc'; statement: string; url: string }) => void) | undefined): void;
  close(): Promise<void>;
}

/**
 * A local HTTP server speaking the subset of the accounting provider's protocol
 * the service uses (docs/provider-facts.md §4): OAuth authorize, token and revoke endpoints, CompanyInfo, query
 * and CDC for Invoice, Item and Preferences, Fault bodies, 429 throttling and
 * injectable faults. `/__sandbox/faults` lets a separate process inject faults.
 */
export async function startLedgerSandbox(options: SandboxOptions, port = 0, host = '127.0.0.1'): Promise<LedgerSandbox> {
  const { stateFile } = options;
  const saved = stateFile ? readSandboxState(stateFile) : undefined;
  const companies = new Map((saved?.companies ?? options.companies).map((c) => [c.realmId, c]));
  const clientId = options.clientId ?? saved?.clientId ?? `sandbox-client-${randomBytes(6).toString('hex')}`;
  const clientSecret = options.clientSecret ?? saved?.clientSecret ?? randomBytes(24).toString('base64url');
  const save = () => {
    if (stateFile)
      writeSandboxState(stateFile, { version: 1, clientId, clientSecret, companies: [...companies.values()], tokens: tokens.state() });
  };
  const tokens = new SandboxTokens(
    {
      accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 3600,
      refreshTokenTtlSeconds: options.refreshTokenTtlSeconds ?? 8_726_400,
      rotateRefreshTokens: options.rotateRefreshTokens ?? true,
    },
    saved?.tokens,
    save,
  );
  save();
  const faults = new FaultQueue();
  const tokenRequests: TokenRequestLog[] = [];
  const violations: string[] = [];
  let autoApprove = options.autoApprove ?? false;
  let strict = options.strict ?? false;
  let random = options.random ?? Math.random;
  let hook: ((req: { kind: 'query' | 'cdc'; statement: string; url: string }) => void) | undefined;

  const app = express();
  app.disable('x-powered-by');
  app.use(
    oauthRoutes({
      companies,
      tokens,
      faults,
      clientId,
      clientSecret,
      autoApprove: () => autoApprove,
      strict: () => strict,
      tokenRequests,
      violations,
    }),
  );
  app.use(
    apiRoutes({
      companies,
      tokens,
      faults,
      rateLimitPerMinute: options.rateLimitPerMinute ?? 500,
      strict: () => strict,
      random: () => random(),
      beforeAnswer: () => hook,
    }),
  );
  app.post('/__sandbox/faults', express.json(), (req, res) => {
    faults.add(req.body as Fault);
    res.status(204).end();
  });
  app.delete('/__sandbox/faults', (_req, res) => {
    faults.clear();
    res.status(204).end();
  });
  const server: RunningServer = await listen(app, port, host);
  const url = `http://${host === '0.0.0.0' ? 'localhost' : host}:${server.port}`;
  return {
    url,
    clientId,
    clientSecret,
    companies,
    tokens,
    urls: {
      authorize: `${url}/connect/oauth2`,
      token: `${url}/oauth2/v1/tokens/bearer`,
      revoke: `${url}/v2/oauth2/tokens/revoke`,
      api: url,
    },
    tokenRequests,
    violations,
    injectFault: (f) => faults.add(f),
    clearFaults: () => faults.clear(),
    setAutoApprove: (on) => {
      autoApprove = on;
    },
    setStrict: (on, source) => {
      strict = on;
      if (source) random = source;
    },
    beforeAnswer: (h) => {
      hook = h;
    },
    close: () => server.close(500),
  };
}
