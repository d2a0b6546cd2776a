import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { connectUrlFromMail, followConsent, invite, ledgerTenant, uniqueEmail } from '../../support/ledger-flow.js';
import { createTokenCipher } from '../../../server/crypto/token-cipher.js';
import { generateCompany } from '../../../server/ledger-sandbox/demo-company.js';

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
    expect(conn.access_token_enc).toMatch(/^v2\./);
    const cipher = createTokenCipher(Buffer.from(app.tokenKey, 'base64'));
    expect(app.sandbox.tokens.checkAccess(cipher.decrypt(conn.access_token_enc, conn.id))).toEqual({ realmId });
    // The status endpoint knows the connection now, with no run yet.
    const status = await app.request(`/api/v1/integrations/ledger/${realmId}/sync`, { key: tenant.key });
    expect(status.status).toBe(200);
    expect(status.body).toEqual({ object: 'ledger.sync_run', data: null });
    expect(app.logs.text).not.toContain(cipher.decrypt(conn.access_token_enc, conn.id));
    expect(app.logs.text).not.toContain(cipher.decrypt(conn.refresh_token_enc, conn.id));
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
    await sql(`update ledger_invitations set state_expires_at = now() - interval '1 second' where integration_id = ?`, [
      tenant.integrationId,
    ]);
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
        body: new URLSearchParams({
          redirect_uri: url.searchParams.get('redirect_uri')!,
          state: url.searchParams.get('state')!,
          realmId: '1',
          decision: 'deny',
        }).toString(),
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

  /** Make `realmId` the company the sandbox's consent page approves (it approves the first one). */
  function approveFirst(realmId: string) {
    const companies = app.sandbox.companies;
    for (const [id, c] of [...companies]) {
      if (id === realmId) continue;
      companies.delete(id);
      companies.set(id, c);
    }
  }

  it('when the callback realmId is edited to another connection of the integration, then 403, that connection keeps its tokens and status', async () => {
    const tenant = await ledgerTenant(app);
    const realmX = [...app.sandbox.companies.keys()][0]!;
    const realmY = '4620816365999001';
    app.sandbox.companies.set(realmY, generateCompany({ invoices: 2, items: 1, linesPerInvoice: 1, realmId: realmY }));
    try {
      // Company Y is connected legitimately, then paused by the operator.
      approveFirst(realmY);
      expect((await followConsent((await authorizeUrl(await invitation(tenant))).toString())).status).toBe(200);
      approveFirst(realmX);
      const [y] = await sql(`select * from ledger_connections where integration_id = ? and realm_id = ?`, [tenant.integrationId, realmY]);
      expect((await app.admin('connections.pause', { id: y.id })).body).toMatchObject({ status: 'paused' });

      // A link holder approves company X, then edits the redirect's realmId to Y.
      const hops = (await followConsent((await authorizeUrl(await invitation(tenant))).toString(), { stopAt: '/ledger/oauth/callback' }))
        .hops;
      const callback = new URL(hops.at(-1)!);
      expect(callback.searchParams.get('realmId')).toBe(realmX);
      callback.searchParams.set('realmId', realmY);
      const res = await fetch(callback, { redirect: 'manual' });
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('did not confirm access to the company');
      const rows = await sql(`select * from ledger_connections where integration_id = ? order by realm_id`, [tenant.integrationId]);
      expect(rows).toEqual([{ ...y, status: 'paused', updated_at: expect.any(String) }]);
      expect(rows[0].access_token_enc).toBe(y.access_token_enc);
      expect(rows[0].refresh_token_enc).toBe(y.refresh_token_enc);
      // The invitation is spent and records no realm.
      const [inv] = await sql(`select realm_id, status from ledger_invitations where integration_id = ? order by created_at desc limit 1`, [
        tenant.integrationId,
      ]);
      expect(inv).toEqual({ realm_id: null, status: 'consumed' });
    } finally {
      app.sandbox.companies.delete(realmY);
    }
  });

  it.each([
    ['paused', 'pause', 'paused this connection'],
    ['disconnected', 'disconnect', 'disconnected this company'],
  ] as const)(
    'when a new consent arrives for a connection the operator %s, then the tokens are stored but its status stays',
    async (status, action, text) => {
      const tenant = await ledgerTenant(app);
      expect((await followConsent((await authorizeUrl(await invitation(tenant))).toString())).status).toBe(200);
      const [before] = await sql(`select * from ledger_connections where integration_id = ?`, [tenant.integrationId]);
      expect((await app.admin(`connections.${action}`, { id: before.id })).body).toMatchObject({ status });
      const done = await followConsent((await authorizeUrl(await invitation(tenant))).toString());
      expect(done.status).toBe(200);
      expect(done.text).toContain('Access approved');
      expect(done.text).toContain(text);
      const [after] = await sql(`select * from ledger_connections where integration_id = ?`, [tenant.integrationId]);
      expect(after).toMatchObject({ id: before.id, status });
      const cipher = createTokenCipher(Buffer.from(app.tokenKey, 'base64'));
      expect(app.sandbox.tokens.checkAccess(cipher.decrypt(after.access_token_enc, after.id))).toEqual({ realmId: before.realm_id });
      // The operator, not the consent, makes it active again.
      expect((await app.admin('connections.resume', { id: before.id })).body).toMatchObject({ status: 'active' });
    },
  );
});
