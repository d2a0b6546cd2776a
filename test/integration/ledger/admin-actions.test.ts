import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { followConsent, ledgerTenant, uniqueEmail, waitForRun } from '../../support/ledger-flow.js';
import { issueKey } from '../../support/tenants.js';

const app = useLedgerApp({ sandbox: { invoices: 3, items: 2 } });
const sql = (q: string, p: unknown[] = []): Promise<any[]> => app.orm.em.getConnection().execute(q, p);

describe('admin: invitations.create, connections.sync, links.list', () => {
  it('when an operator invites on behalf of a ledger key, then the invitation is that key’s, the consent connects and a queued sync succeeds', async () => {
    const tenant = await ledgerTenant(app);
    const email = uniqueEmail();
    const res = await app.admin<any>('invitations.create', { apiKeyId: tenant.keyId, recipientEmail: email, expiresInHours: 2 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ organizationId: tenant.organizationId, environment: 'sandbox', recipientEmail: email });
    expect(res.body.connectUrl).toMatch(/\/ledger\/connect\/[A-Za-z0-9_-]{43}$/);
    const [row] = await sql(`select api_key_id, integration_id, status from ledger_invitations where id = ?`, [res.body.id]);
    expect(row).toEqual({ api_key_id: tenant.keyId, integration_id: tenant.integrationId, status: 'sent' });
    expect((await followConsent(res.body.connectUrl)).status).toBe(200);

    const [connection] = (await app.admin<any[]>('connections.list', { integrationId: tenant.integrationId })).body;
    const queued = await app.admin<any>('connections.sync', { id: connection.id });
    expect(queued.status).toBe(200);
    expect(queued.body).toEqual({ syncRunId: expect.any(String), workflowRunId: expect.any(String), created: true });
    // A second request while the first is queued or running reuses it.
    const again = await app.admin<any>('connections.sync', { id: connection.id });
    if (again.body.created === false) expect(again.body.syncRunId).toBe(queued.body.syncRunId);
    const run = await waitForRun(async () => (await app.admin<any>('syncRuns.get', { id: queued.body.syncRunId })).body);
    expect(run).toMatchObject({ state: 'succeeded', connectionId: connection.connectionId });

    await app.admin('connections.pause', { id: connection.id });
    const paused = await app.admin<any>('connections.sync', { id: connection.id });
    expect(paused.status).toBe(409);
    expect(paused.body.error.message).toBe('The connection is paused; resume it before queueing a sync');
    expect((await app.admin<any>('connections.sync', { id: crypto.randomUUID() })).status).toBe(404);
  });

  it('when the key cannot invite (revoked, read-only, not a ledger key, unknown), then nothing is written and the reason names apiKeyId', async () => {
    const tenant = await ledgerTenant(app);
    const readOnly = await issueKey(app, tenant.integrationId, ['integrations:read']);
    const revoked = await issueKey(app, tenant.integrationId, ['integrations:write']);
    await app.admin('apiKeys.revoke', { id: revoked.id });
    const provider = (
      await app.admin<any>('integrations.create', { organizationId: tenant.organizationId, provider: 'gwb', environment: 'sandbox' })
    ).body;
    const providerKey = await issueKey(app, provider.id, ['enrichment:write']);
    for (const [apiKeyId, message] of [
      [readOnly.id, 'The API key lacks the scope(s): integrations:write'],
      [revoked.id, 'This API key has been revoked'],
      [providerKey.id, 'A gwb key cannot call a ledger endpoint'],
    ] as const) {
      const res = await app.admin<any>('invitations.create', { apiKeyId, recipientEmail: uniqueEmail() });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(message);
      expect(res.body.error.data.issues).toEqual([{ code: 'key_cannot_invite', path: 'apiKeyId', message }]);
    }
    expect((await app.admin<any>('invitations.create', { apiKeyId: crypto.randomUUID(), recipientEmail: uniqueEmail() })).status).toBe(404);
    const bad = await app.admin<any>('invitations.create', { apiKeyId: tenant.keyId, recipientEmail: 'not-an-email' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.data.issues.map((i: any) => i.path)).toEqual(['recipientEmail']);
    expect(await sql(`select id from ledger_invitations where integration_id = ?`, [tenant.integrationId])).toEqual([]);
  });

  it('when links exist, then links.list shows them by organization or by either integration', async () => {
    const tenant = await ledgerTenant(app);
    const make = async (provider: string) =>
      (await app.admin<any>('integrations.create', { organizationId: tenant.organizationId, provider, environment: 'sandbox' })).body
        .id as string;
    const [gwa, gwc] = [await make('gwa'), await make('gwc')];
    const first = (await app.admin<any>('links.create', { ledgerIntegrationId: tenant.integrationId, providerIntegrationId: gwa })).body;
    const second = (await app.admin<any>('links.create', { ledgerIntegrationId: tenant.integrationId, providerIntegrationId: gwc })).body;
    expect((await app.admin<any[]>('links.list', { organizationId: tenant.organizationId })).body).toEqual([first, second]);
    expect((await app.admin<any[]>('links.list', { integrationId: gwc })).body).toEqual([second]);
    expect((await app.admin<any[]>('links.list', { integrationId: tenant.integrationId })).body).toEqual([first, second]);
    expect((await app.admin<any[]>('links.list', { organizationId: crypto.randomUUID() })).body).toEqual([]);
  });
});
