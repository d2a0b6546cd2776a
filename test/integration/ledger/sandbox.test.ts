import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  companyInfo,
  exchangeCode,
  LedgerHttpError,
  queryPage,
  refreshTokens,
  revokeToken,
  type LedgerEndpoints,
} from '../../../server/integrations/ledger/ledger-api.js';
import { useLedgerSandbox } from '../../support/ledger-sandbox.js';
import { generateCompany } from '../../../server/ledger-sandbox/demo-company.js';
import { startLedgerSandbox } from '../../../server/ledger-sandbox/sandbox.js';

const sandbox = useLedgerSandbox({ invoices: 25, items: 6 });
const REDIRECT = 'http://127.0.0.1:9/callback';
const endpoints = (): LedgerEndpoints => ({
  authorizeUrl: sandbox.urls.authorize,
  tokenUrl: sandbox.urls.token,
  revokeUrl: sandbox.urls.revoke,
  apiBaseUrl: sandbox.urls.api,
  clientId: sandbox.clientId,
  clientSecret: sandbox.clientSecret,
  redirectUrl: REDIRECT,
  minorVersion: 75,
  timeoutMs: 5000,
});
const realm = () => [...sandbox.companies.keys()][0]!;

async function authorize() {
  const res = await fetch(
    `${sandbox.urls.authorize}?client_id=${sandbox.clientId}&response_type=code&scope=com.intuit.quickbooks.accounting&redirect_uri=${encodeURIComponent(REDIRECT)}&state=s1`,
    { redirect: 'manual' },
  );
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get('location')!);
  expect(location.searchParams.get('state')).toBe('s1');
  expect(location.searchParams.get('realmId')).toBe(realm());
  return exchangeCode(endpoints(), location.searchParams.get('code')!);
}

describe('ledger sandbox', () => {
  it('when CompanyInfo is read, then only the token of that realm is accepted (403 otherwise), and a revoked refresh token no longer refreshes', async () => {
    const tokens = await authorize();
    expect(await companyInfo(endpoints(), { realmId: realm(), accessToken: tokens.accessToken })).toEqual({
      companyName: expect.any(String),
    });
    const other = '4620816365999002';
    sandbox.companies.set(other, generateCompany({ invoices: 1, items: 1, linesPerInvoice: 1, realmId: other }));
    try {
      await expect(companyInfo(endpoints(), { realmId: other, accessToken: tokens.accessToken })).rejects.toMatchObject({
        kind: 'client',
        status: 403,
      });
    } finally {
      sandbox.companies.delete(other);
    }
    await expect(companyInfo(endpoints(), { realmId: realm(), accessToken: 'not-a-token' })).rejects.toMatchObject({
      kind: 'unauthorized',
      status: 401,
    });
    await revokeToken(endpoints(), tokens.refreshToken);
    await expect(refreshTokens(endpoints(), tokens.refreshToken)).rejects.toMatchObject({ kind: 'invalid_grant', status: 400 });
    await expect(companyInfo(endpoints(), { realmId: realm(), accessToken: tokens.accessToken })).rejects.toMatchObject({ status: 401 });
    await expect(revokeToken({ ...endpoints(), clientSecret: 'nope' }, 'x')).rejects.toMatchObject({ status: 401 });
  });

  it('when a code is exchanged and pages are queried, then QueryResponse pages follow startPosition/maxResults', async () => {
    const tokens = await authorize();
    const statement = (start: number) => `select * from Invoice orderby MetaData.LastUpdatedTime startposition ${start} maxresults 10`;
    const pages = [];
    for (let start = 1; ; start += 10) {
      const page = await queryPage(endpoints(), {
        realmId: realm(),
        accessToken: tokens.accessToken,
        entity: 'Invoice',
        statement: statement(start),
      });
      pages.push(page);
      if (page.rows.length < 10) break;
    }
    expect(pages.map((p) => [p.startPosition, p.rows.length])).toEqual([
      [1, 10],
      [11, 10],
      [21, 5],
    ]);
    expect(pages[0]!.rows[0]).toMatchObject({
      Id: expect.any(String),
      SyncToken: '0',
      DocNumber: expect.stringMatching(/^INV-/),
      MetaData: { LastUpdatedTime: expect.any(String) },
    });
  });

  it('when a code is reused or the client secret is wrong, then the token endpoint refuses the grant', async () => {
    const res = await fetch(
      `${sandbox.urls.authorize}?client_id=${sandbox.clientId}&response_type=code&scope=com.intuit.quickbooks.accounting&redirect_uri=${encodeURIComponent(REDIRECT)}&state=s2`,
      { redirect: 'manual' },
    );
    const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
    await exchangeCode(endpoints(), code);
    await expect(exchangeCode(endpoints(), code)).rejects.toMatchObject({ kind: 'invalid_grant', status: 400 });
    const bad = await fetch(sandbox.urls.token, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${sandbox.clientId}:nope`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=refresh_token&refresh_token=x',
    });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ error: 'invalid_client' });
  });

  it('when a token is refreshed, then the refresh token rotates and the old one stops working', async () => {
    const first = await authorize();
    const second = await refreshTokens(endpoints(), first.refreshToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.accessToken).not.toBe(first.accessToken);
    await expect(refreshTokens(endpoints(), first.refreshToken)).rejects.toMatchObject({ kind: 'invalid_grant' });
  });

  it('when faults are injected or the token expired, then the provider status and Fault body come back', async () => {
    const tokens = await authorize();
    const q = { realmId: realm(), accessToken: tokens.accessToken, entity: 'Item', statement: 'select * from Item' };
    sandbox.injectFault({ target: 'api', kind: 'throttle', count: 1 });
    await expect(queryPage(endpoints(), q)).rejects.toMatchObject({
      kind: 'throttled',
      status: 429,
      summary: 'ledger query answered 429 (fault 3001)',
    });
    sandbox.injectFault({ target: 'api', kind: 'server_error', count: 1 });
    await expect(queryPage(endpoints(), q)).rejects.toMatchObject({ kind: 'server', status: 500 });
    sandbox.injectFault({ target: 'api', kind: 'expired_token', count: 1 });
    const err = await queryPage(endpoints(), q).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LedgerHttpError);
    expect(err).toMatchObject({ kind: 'unauthorized', status: 401, summary: 'ledger query answered 401 (fault 3200)' });
    expect((await queryPage(endpoints(), q)).rows).toHaveLength(6);
    const parse = await fetch(
      `${sandbox.url}/v3/company/${realm()}/query?query=${encodeURIComponent('select * from Invoice where a = 1 or b = 2')}`,
      { headers: { authorization: `Bearer ${tokens.accessToken}` } },
    );
    expect(parse.status).toBe(400);
    expect(((await parse.json()) as any).Fault).toMatchObject({ type: 'ValidationFault', Error: [{ code: '4000' }] });
  });

  it('when CDC is asked for changes, then CDCResponse lists changed and deleted entities', async () => {
    const tokens = await authorize();
    const company = sandbox.companies.get(realm())!;
    company.deleted.push({ entity: 'Item', Id: '999', at: new Date().toISOString() });
    const since = new Date(Date.now() - 25 * 86_400_000).toISOString();
    const res = await fetch(`${sandbox.url}/v3/company/${realm()}/cdc?entities=Invoice,Item&changedSince=${since}`, {
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    const [items, invoices] = body.CDCResponse[0].QueryResponse;
    expect(invoices.Invoice).toHaveLength(25);
    expect(items.Item.at(-1)).toEqual({ Id: '999', status: 'Deleted', MetaData: { LastUpdatedTime: expect.any(String) } });
  });

  it('when a realm exceeds its requests per minute, then 429 with the throttle Fault', async () => {
    const limited = await startLedgerSandbox({
      companies: [generateCompany({ invoices: 1, items: 1, linesPerInvoice: 1, realmId: '42' })],
      autoApprove: true,
      rateLimitPerMinute: 2,
    });
    try {
      const auth = await fetch(
        `${limited.urls.authorize}?client_id=${limited.clientId}&response_type=code&scope=com.intuit.quickbooks.accounting&redirect_uri=${encodeURIComponent(REDIRECT)}&state=s`,
        { redirect: 'manual' },
      );
      const code = new URL(auth.headers.get('location')!).searchParams.get('code')!;
      const ep = {
        ...endpoints(),
        tokenUrl: limited.urls.token,
        apiBaseUrl: limited.urls.api,
        clientId: limited.clientId,
        clientSecret: limited.clientSecret,
      };
      const tokens = await exchangeCode(ep, code);
      const q = { realmId: '42', accessToken: tokens.accessToken, entity: 'Item', statement: 'select * from Item' };
      await queryPage(ep, q);
      await queryPage(ep, q);
      await expect(queryPage(ep, q)).rejects.toMatchObject({ kind: 'throttled', status: 429 });
    } finally {
      await limited.close();
    }
  });

  it('when a sandbox with a state file restarts, then its credentials, company, tokens and pending codes carry over', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-sandbox-state-'));
    const stateFile = path.join(dir, 'ledger-sandbox.json');
    const company = generateCompany({ invoices: 2, items: 1, linesPerInvoice: 1, realmId: '77' });
    const start = () =>
      startLedgerSandbox({
        companies: [generateCompany({ invoices: 9, items: 3, linesPerInvoice: 1, realmId: '77' })],
        autoApprove: true,
        stateFile,
      });
    const consent = async (s: { urls: { authorize: string }; clientId: string }) => {
      const res = await fetch(
        `${s.urls.authorize}?client_id=${s.clientId}&response_type=code&scope=com.intuit.quickbooks.accounting&redirect_uri=${encodeURIComponent(REDIRECT)}&state=s9`,
        { redirect: 'manual' },
      );
      return new URL(res.headers.get('location')!).searchParams.get('code')!;
    };
    const first = await startLedgerSandbox({ companies: [company], autoApprove: true, stateFile });
    const before = {
      ...endpoints(),
      tokenUrl: first.urls.token,
      apiBaseUrl: first.urls.api,
      clientId: first.clientId,
      clientSecret: first.clientSecret,
    };
    let tokens: Awaited<ReturnType<typeof exchangeCode>>;
    let pending: string;
    try {
      tokens = await exchangeCode(before, await consent(first));
      pending = await consent(first);
    } finally {
      await first.close();
    }
    expect(statSync(stateFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(stateFile, 'utf8')).toContain(tokens.refreshToken);

    const second = await start();
    try {
      // The saved company wins over the one passed in: a restart does not change the provider's data.
      expect([second.clientId, second.clientSecret, second.companies.get('77')!.Invoice.length]).toEqual([
        first.clientId,
        first.clientSecret,
        2,
      ]);
      const after = { ...before, tokenUrl: second.urls.token, apiBaseUrl: second.urls.api };
      expect(await companyInfo(after, { realmId: '77', accessToken: tokens.accessToken })).toEqual({ companyName: company.companyName });
      const refreshed = await refreshTokens(after, tokens.refreshToken);
      expect(await companyInfo(after, { realmId: '77', accessToken: refreshed.accessToken })).toEqual({ companyName: company.companyName });
      await expect(exchangeCode(after, pending)).resolves.toMatchObject({ refreshToken: expect.stringMatching(/^RT1-/) });
    } finally {
      await second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when the state file is not a sandbox state, then the sandbox does not start and names the file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-sandbox-state-'));
    const stateFile = path.join(dir, 'ledger-sandbox.json');
    try {
      for (const text of ['{"version":1', '{"version":2}', 'null']) {
        writeFileSync(stateFile, text);
        await expect(startLedgerSandbox({ companies: [], stateFile })).rejects.toThrow(
          `${stateFile} is not a ledger sandbox state (remove it to start the sandbox afresh; its connections must then be invited again)`,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
