import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { connectUrlFromMail, followConsent, invite, ledgerTenant, uniqueEmail } from '../../support/ledger-flow.js';
import { createTokenCipher } from '../../../server/crypto/token-cipher.js';

const app = useLedgerApp();
const sql = (q: string, p: unknown[] = []): Promise<any[]> => app.orm.em.getConnection().execute(q, p);

async function invitation(tenant: Awaited<ReturnType<typeof ledgerTenant>>) {
  const email = uniqueEmail();
  const res = await invite(app, tenant, { recipientEmail: email });
  expect(res.status).toBe(201);
  const mail = app.smtp.messages.find((m) => m.to.includes(email))!;
  return connectUrlFromMail(mail.raw)!;
}

/** Open the connect URL and return the provider authorization URL it redirects to. */
async function authorizeUrl(connectUrl: string): Promise<URL> {
  const res = await fetch(connectUrl, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

describe('consent: connect URL and OAuth callback', () => {
  it('when the recipient opens the emailed link and approves, then the connection is active with encrypted tokens', async () => {
    const tenant = await ledgerTenant(app);
    const url = await authorizeUrl(await invitation(tenant));
    expect(`${url.origin}${url.pathname}`).toBe(app.sandbox.urls.authorize);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'test-client',
      response_type: 'code',
      scope: 'com.intuit.quickbooks.accounting',
      redirect_uri: `${app.url}/ledger/oauth/callback`,
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const done = await followConsent(url.toString());
    expect(done.status).toBe(200);
    expect(done.text).toContain('Connected');
    const [conn] = await sql(`select * from ledger_connections where integration_id = ?`, [tenant.integrationId]);
    const realmId = [...app.sandbox.companies.keys()][0];
    expect(conn).toMatchObject({ realm_id: realmId, status: 'active', organization_id: tenant.organizationId });
    expect(conn.access_token_enc).toMatch(/^v1\./);
    const cipher = createTokenCipher(Buffer.from(app.tokenKey, 'base64'));
    expect(app.sandbox.tokens.checkAccess(cipher.decrypt(conn.access_token_enc))).toEqual({ realmId });
    // The status endpoint knows the connection now, with no run yet.
    const status = await app.request(`/api/v1/integrations/ledger/${realmId}/sync`, { key: tenant.key });
    expect(status.status).toBe(200);
    expect(status.body).toEqual({ object: 'ledger.sync_run', data: null });
    expect(app.logs.text).not.toContain(cipher.decrypt(conn.access_token_enc));
    expect(app.logs.text).not.toContain(cipher.decrypt(conn.refresh_token_enc));
  });

  it('when the state is reused after a completed consent, then an error page and nothing new is activated', async () => {
    const tenant = await ledgerTenant(app);
    const connectUrl = await invitation(tenant);
    const url = await authorizeUrl(connectUrl);
    const first = await followConsent(url.toString());
    expect(first.status).toBe(200);
    const callback = new URL(first.hops.at(-1)!);
    await sql(`delete from ledger_connections where integration_id = ?`, [tenant.integrationId]);
    const replay = await fetch(callback, { redirect: 'manual' });
    expect(replay.status).toBe(410);
    expect(await replay.text()).toContain('already used');
    expect(await sql(`select id from ledger_connections where integration_id = ?`, [tenant.integrationId])).toEqual([]);
    // The connect URL itself is single-purpose too.
    expect((await fetch(connectUrl, { redirect: 'manual' })).status).toBe(410);
  });

  it('when the state is unknown (foreign) or missing, then 404 error page', async () => {
    const foreign = await fetch(`${app.url}/ledger/oauth/callback?code=x&realmId=1&state=${'A'.repeat(43)}`);
    expect(foreign.status).toBe(404);
    expect(await foreign.text()).toContain('not valid');
    expect((await fetch(`${app.url}/ledger/oauth/callback?code=x&realmId=1`)).status).toBe(404);
  });

  it('when the state has expired, then 410 and nothing is activated', async () => {
    const tenant = await ledgerTenant(app);
    const url = await authorizeUrl(await invitation(tenant));
    await sql(`update ledger_invitations set state_expires_at = now() - interval '1 second' where integration_id = ?`, [tenant.integrationId]);
    const done = await followConsent(url.toString());
    expect(done.status).toBe(410);
    expect(await sql(`select id from ledger_connections where integration_id = ?`, [tenant.integrationId])).toEqual([]);
  });

  it('when the invitation expired or the connect secret is unknown, then error pages', async () => {
    const tenant = await ledgerTenant(app);
    const connectUrl = await invitation(tenant);
    await sql(`update ledger_invitations set expires_at = now() - interval '1 second' where integration_id = ?`, [tenant.integrationId]);
    expect((await fetch(connectUrl, { redirect: 'manual' })).status).toBe(410);
    expect((await fetch(`${app.url}/ledger/connect/${'B'.repeat(43)}`, { redirect: 'manual' })).status).toBe(404);
  });

  it('when the recipient denies on the consent page, then nothing is activated', async () => {
    const tenant = await ledgerTenant(app);
    const url = await authorizeUrl(await invitation(tenant));
    app.sandbox.setAutoApprove(false);
    try {
      const consent = await fetch(url);
      expect(consent.status).toBe(200);
      expect(await consent.text()).toContain('Approve');
      const deny = await fetch(`${app.sandbox.url}/connect/oauth2/approve`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ redirect_uri: url.searchParams.get('redirect_uri')!, state: url.searchParams.get('state')!, realmId: '1', decision: 'deny' }).toString(),
      });
      const page = await fetch(deny.headers.get('location')!);
      expect(page.status).toBe(400);
      expect(await sql(`select id from ledger_connections where integration_id = ?`, [tenant.integrationId])).toEqual([]);
    } finally {
      app.sandbox.setAutoApprove(true);
    }
  });

  it('when the token endpoint fails during the code exchange, then 502 page, nothing is activated and the link is spent', async () => {
    const tenant = await ledgerTenant(app);
    const connectUrl = await invitation(tenant);
    const url = await authorizeUrl(connectUrl);
    app.sandbox.injectFault({ target: 'token', kind: 'server_error', count: 1 });
    const done = await followConsent(url.toString());
    expect(done.status).toBe(502);
    expect(done.text).toContain('did not confirm');
    expect(await sql(`select id from ledger_connections where integration_id = ?`, [tenant.integrationId])).toEqual([]);
    expect((await fetch(connectUrl, { redirect: 'manual' })).status).toBe(410);
  });
});
