import { describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN, useTestApp } from '../../support/harness.js';
import { adminCall, createTenant } from '../../support/tenants.js';
import { gwcReport } from '../../support/reports.js';

describe('admin surface', () => {
  const app = useTestApp();

  it('when the admin token is missing or wrong, then 401 and nothing is created', async () => {
    const missing = await fetch(`${app.url}/admin/trpc/organizations.create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Nope' }),
    });
    expect(missing.status).toBe(401);
    const wrong = await app.admin('organizations.create', { name: 'Nope' }, 'wrong-token');
    expect(wrong.status).toBe(401);
    expect((wrong.body as any).error.data.code).toBe('UNAUTHORIZED');
    const list = await app.admin<{ name: string }[]>('organizations.list');
    expect(list.body.map((o) => o.name)).not.toContain('Nope');
  });

  it('when an operator sets up a tenant, then the procedures return exactly the documented shapes', async () => {
    const org = await adminCall<any>(app, 'organizations.create', { name: 'Acme Supplies' });
    expect(Object.keys(org).sort()).toEqual(['createdAt', 'id', 'name', 'status']);
    expect(org.name).toBe('Acme Supplies');
    const integration = await adminCall<any>(app, 'integrations.create', {
      organizationId: org.id,
      provider: 'gwc',
      environment: 'sandbox',
    });
    expect(integration).toEqual({
      id: integration.id,
      organizationId: org.id,
      provider: 'gwc',
      environment: 'sandbox',
      createdAt: integration.createdAt,
    });
    const issued = await adminCall<any>(app, 'apiKeys.issue', {
      integrationId: integration.id,
      scopes: ['enrichment:write', 'payments:write'],
    });
    expect(Object.keys(issued).sort()).toEqual(['createdAt', 'id', 'key', 'prefix', 'scopes']);
    expect(issued.key).toMatch(/^svck_sandbox_[0-9a-f]{16}_[0-9a-f]{64}$/);
    expect(issued.key.startsWith(issued.prefix)).toBe(true);
    const listed = await adminCall<any[]>(app, 'apiKeys.list', { integrationId: integration.id });
    expect(listed).toEqual([
      {
        id: issued.id,
        integrationId: integration.id,
        prefix: issued.prefix,
        scopes: ['enrichment:write', 'payments:write'],
        createdAt: issued.createdAt,
        lastUsedAt: null,
        revokedAt: null,
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(issued.key.slice(-64));
    const stored = await app.orm.em.getConnection().execute(`select secret_hash from api_keys where id = '${issued.id}'`);
    expect(stored[0]!.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0]!.secret_hash).not.toBe(issued.key.slice(-64));
    expect(await adminCall<any[]>(app, 'integrations.list', { organizationId: org.id })).toEqual([integration]);
  });

  it('when scopes do not fit the provider, then BAD_REQUEST naming each scope', async () => {
    const org = await adminCall<any>(app, 'organizations.create', { name: 'Scopes' });
    const gwc = await adminCall<any>(app, 'integrations.create', { organizationId: org.id, provider: 'gwc', environment: 'sandbox' });
    const ledger = await adminCall<any>(app, 'integrations.create', { organizationId: org.id, provider: 'ledger', environment: 'sandbox' });
    const onProvider = await app.admin<any>('apiKeys.issue', { integrationId: gwc.id, scopes: ['integrations:write', 'invoices:read'] });
    expect(onProvider.status).toBe(400);
    expect(onProvider.body.error.data.issues).toEqual([
      { code: 'scope_not_allowed', path: 'scopes[0]', message: 'integrations:write is only available on a ledger key' },
      {
        code: 'link_required',
        path: 'scopes[1]',
        message: 'invoices:read needs an explicit link between this integration and a ledger integration (links.create)',
      },
    ]);
    const onLedger = await app.admin<any>('apiKeys.issue', { integrationId: ledger.id, scopes: ['payments:write'] });
    expect(onLedger.status).toBe(400);
    expect(onLedger.body.error.data.issues[0].code).toBe('scope_not_allowed');
    const bad = await app.admin<any>('apiKeys.issue', { integrationId: gwc.id, scopes: ['everything'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.data.issues[0].path).toBe('scopes[0]');
    const keys = await adminCall<any[]>(app, 'apiKeys.list', { integrationId: gwc.id });
    expect(keys).toEqual([]);
  });

  it('when a link exists, then invoices:read can be granted to new keys only, and removing the link blocks it', async () => {
    const org = await adminCall<any>(app, 'organizations.create', { name: 'Linked' });
    const gwa = await adminCall<any>(app, 'integrations.create', { organizationId: org.id, provider: 'gwa', environment: 'sandbox' });
    const ledger = await adminCall<any>(app, 'integrations.create', { organizationId: org.id, provider: 'ledger', environment: 'sandbox' });
    const before = await adminCall<any>(app, 'apiKeys.issue', { integrationId: gwa.id, scopes: ['enrichment:write'] });
    const link = await adminCall<any>(app, 'links.create', { ledgerIntegrationId: ledger.id, providerIntegrationId: gwa.id });
    expect(link).toEqual({ id: link.id, ledgerIntegrationId: ledger.id, providerIntegrationId: gwa.id, createdAt: link.createdAt });
    const again = await app.admin<any>('links.create', { ledgerIntegrationId: ledger.id, providerIntegrationId: gwa.id });
    expect(again.status).toBe(409);
    const after = await adminCall<any>(app, 'apiKeys.issue', { integrationId: gwa.id, scopes: ['enrichment:write', 'invoices:read'] });
    expect(after.scopes).toEqual(['enrichment:write', 'invoices:read']);
    // The key that existed before the link received nothing automatically.
    const keys = await adminCall<any[]>(app, 'apiKeys.list', { integrationId: gwa.id });
    expect(keys.find((k) => k.id === before.id).scopes).toEqual(['enrichment:write']);
    expect(await adminCall<any>(app, 'links.delete', { id: link.id })).toEqual({ id: link.id, deleted: true });
    expect((await app.admin<any>('links.delete', { id: link.id })).status).toBe(404);
  });

  it('when integrations differ in organization or environment or kind, then they cannot be linked', async () => {
    const a = await adminCall<any>(app, 'organizations.create', { name: 'A' });
    const b = await adminCall<any>(app, 'organizations.create', { name: 'B' });
    const ledgerA = await adminCall<any>(app, 'integrations.create', { organizationId: a.id, provider: 'ledger', environment: 'sandbox' });
    const gwbB = await adminCall<any>(app, 'integrations.create', { organizationId: b.id, provider: 'gwb', environment: 'production' });
    const gwbA = await adminCall<any>(app, 'integrations.create', { organizationId: a.id, provider: 'gwb', environment: 'sandbox' });
    const cross = await app.admin<any>('links.create', { ledgerIntegrationId: ledgerA.id, providerIntegrationId: gwbB.id });
    expect(cross.status).toBe(400);
    expect(cross.body.error.data.issues.map((i: any) => i.code)).toEqual(['organization_mismatch', 'environment_mismatch']);
    const reversed = await app.admin<any>('links.create', { ledgerIntegrationId: gwbA.id, providerIntegrationId: ledgerA.id });
    expect(reversed.body.error.data.issues.map((i: any) => i.code)).toEqual(['not_a_ledger_integration', 'not_a_provider_integration']);
    const missing = await app.admin<any>('integrations.create', {
      organizationId: '00000000-0000-4000-8000-000000000000',
      provider: 'gwa',
      environment: 'sandbox',
    });
    expect(missing.status).toBe(404);
  });

  it('when a key is used, then neither it nor the admin token ever appears in the logs', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const res = await app.request('/api/v1/gwc/payment-reports', { method: 'POST', json: gwcReport(), key: tenant.key });
    expect(res.status).toBe(200);
    await app.request('/api/v1/gwc/payment-reports', { method: 'POST', json: gwcReport(), key: `${tenant.key}x` });
    expect(app.logs.lines.length).toBeGreaterThan(3);
    expect(app.logs.text).not.toContain(tenant.key.slice(-64));
    expect(app.logs.text).not.toContain(TEST_ADMIN_TOKEN);
  });

  it('when a procedure fails unexpectedly, then the operator gets a generic 500 and the log has the error with the request id', async () => {
    await app.orm.em.getConnection().execute('alter table organizations rename to organizations_moved');
    try {
      const res = await fetch(`${app.url}/admin/trpc/organizations.list`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      expect(res.status).toBe(500);
      const body = (await res.json()) as any;
      expect(body.error.message).toBe('An unexpected error occurred; see the service log');
      const logged = app.logs.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'admin procedure failed');
      expect(logged).toMatchObject({ level: 50, reqId: res.headers.get('x-svc-request-id'), procedure: 'organizations.list' });
      expect(logged.err).toMatchObject({ code: '42P01' });
    } finally {
      await app.orm.em.getConnection().execute('alter table organizations_moved rename to organizations');
    }
  });
});
