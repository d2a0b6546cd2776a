import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { connect, invite, ledgerTenant, uniqueEmail, waitForRun } from '../../support/ledger-flow.js';
import { createTokenCipher } from '../../../server/crypto/token-cipher.js';

const app = useLedgerApp({ sandbox: { invoices: 5, items: 2 } });
const sql = (q: string, p: unknown[] = []): Promise<any[]> => app.orm.em.getConnection().execute(q, p);

/** A new connection and its decrypted tokens. */
async function connectedWithTokens() {
  const tenant = await ledgerTenant(app);
  await connect(app, tenant);
  const [row] = await sql(`select * from ledger_connections where integration_id = ?`, [tenant.integrationId]);
  const cipher = createTokenCipher(Buffer.from(app.tokenKey, 'base64'));
  return { tenant, row, access: cipher.decrypt(row.access_token_enc, row.id), refresh: cipher.decrypt(row.refresh_token_enc, row.id) };
}

describe('admin: connections, sync runs, invitations', () => {
  it('when an operator lists, pauses, resumes and disconnects a connection, then the API follows and no token is shown', async () => {
    const tenant = await ledgerTenant(app);
    const connectionId = await connect(app, tenant);
    const list = await app.admin<any[]>('connections.list', { integrationId: tenant.integrationId });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      {
        id: expect.any(String),
        connectionId,
        organizationId: tenant.organizationId,
        integrationId: tenant.integrationId,
        environment: 'sandbox',
        status: 'active',
        checkedThrough: null,
        purchaseOrderField: null,
        settingsVersion: 1,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    const id = list.body[0].id;
    expect((await app.admin('connections.pause', { id })).body).toMatchObject({ status: 'paused' });
    expect((await app.request(`/api/v1/integrations/ledger/${connectionId}/sync`, { method: 'POST', key: tenant.key })).status).toBe(409);
    expect((await app.admin('connections.resume', { id })).body).toMatchObject({ status: 'active' });
    const queued = await app.request(`/api/v1/integrations/ledger/${connectionId}/sync`, { method: 'POST', key: tenant.key });
    expect(queued.status).toBe(202);
    await waitForRun(app, tenant, connectionId);

    const runs = await app.admin<any>('syncRuns.list', { connectionId, state: 'succeeded', limit: 1 });
    expect(runs.status).toBe(200);
    expect(runs.body.data).toHaveLength(1);
    expect(runs.body.data[0]).toMatchObject({ id: queued.body.data.syncRunId, state: 'succeeded', connectionId });
    const one = await app.admin<any>('syncRuns.get', { id: queued.body.data.syncRunId });
    expect(one.body).toEqual(runs.body.data[0]);
    expect((await app.admin('syncRuns.get', { id: crypto.randomUUID() })).status).toBe(404);

    expect((await app.admin('connections.disconnect', { id })).body).toMatchObject({ status: 'disconnected' });
    expect((await app.admin('connections.resume', { id })).status).toBe(409);
    const blocked = await app.request(`/api/v1/integrations/ledger/${connectionId}/sync`, { method: 'POST', key: tenant.key });
    expect(blocked.status).toBe(409);
    const text = JSON.stringify((await app.admin('connections.list', {})).body);
    expect(text).not.toMatch(/token/i);
  });

  it('when an operator disconnects a connection, then its tokens are erased here and revoked at the provider', async () => {
    const { row, access, refresh } = await connectedWithTokens();
    expect(app.sandbox.tokens.refreshGrant(refresh)).toBeDefined();
    const res = await app.admin('connections.disconnect', { id: row.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: row.id, status: 'disconnected' });
    expect(app.sandbox.tokens.refreshGrant(refresh)).toBeUndefined();
    expect(app.sandbox.tokens.checkAccess(access)).toEqual({ error: 'Token invalid' });
    const [after] = await sql(`select status, access_token_enc, refresh_token_enc from ledger_connections where id = ?`, [row.id]);
    expect(after).toEqual({ status: 'disconnected', access_token_enc: '', refresh_token_enc: '' });
    expect(app.logs.text).toContain('ledger tokens revoked after disconnect');
  });

  it('when the provider refuses the revoke, then the connection is disconnected anyway and the failure is logged without secrets', async () => {
    const { row, refresh } = await connectedWithTokens();
    const revokeUrl = app.runtime.endpoints.revokeUrl;
    app.runtime.endpoints.revokeUrl = `${app.sandbox.url}/v2/oauth2/tokens/revoke-missing`;
    try {
      const res = await app.admin('connections.disconnect', { id: row.id });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: row.id, status: 'disconnected' });
    } finally {
      app.runtime.endpoints.revokeUrl = revokeUrl;
    }
    const [after] = await sql(`select status, access_token_enc, refresh_token_enc from ledger_connections where id = ?`, [row.id]);
    expect(after).toEqual({ status: 'disconnected', access_token_enc: '', refresh_token_enc: '' });
    const line = app.logs.lines
      .map((l) => JSON.parse(l))
      .find((l: any) => l.msg?.startsWith('ledger token revoke failed') && l.connectionId === row.id);
    expect(line).toMatchObject({ level: 40, connectionId: row.id, reason: 'ledger revoke answered 404' });
    expect(app.logs.text).not.toContain(refresh);
    expect(app.logs.text).not.toContain(app.clientSecret);
  });

  it('when runs are paged, then the cursor walks newest to oldest without repeats', async () => {
    const tenant = await ledgerTenant(app);
    const connectionId = await connect(app, tenant);
    for (let i = 0; i < 3; i++) {
      await app.request(`/api/v1/integrations/ledger/${connectionId}/sync`, { method: 'POST', key: tenant.key });
      await waitForRun(app, tenant, connectionId);
    }
    // The realm is shared with the first test's connection (another integration): 1 + 3 runs.
    const ids: string[] = [];
    const created: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await app.admin<any>('syncRuns.list', { connectionId, limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      ids.push(...page.body.data.map((r: { id: string }) => r.id));
      created.push(...page.body.data.map((r: { createdAt: string }) => r.createdAt));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(new Set(ids).size).toBe(4);
    expect([...created].sort().reverse()).toEqual(created);
  });

  it('when invitations are listed, then status and recipient show but never secrets', async () => {
    const tenant = await ledgerTenant(app);
    const email = uniqueEmail();
    const res = await invite(app, tenant, { recipientEmail: email });
    const list = await app.admin<any[]>('invitations.list', { integrationId: tenant.integrationId });
    expect(list.body).toEqual([
      expect.objectContaining({ id: res.body.invitation.id, recipientEmail: email, status: 'sent', connectionId: null, consumedAt: null }),
    ]);
    const secret = res.body.invitation.connectUrl.split('/').at(-1);
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect(JSON.stringify(list.body)).not.toMatch(/hash/i);
  });
});
