import { describe, expect, it } from 'vitest';
import type { Provider, Scope } from '../../../contract/common/index.js';
import { useTestApp } from '../../support/harness.js';
import { adminCall, createTenant, issueKey } from '../../support/tenants.js';
import { reportFor } from '../../support/reports.js';
import { happyInvoice } from '../../unit/enrichment/support/invoices.js';

/**
 * The outcome matrix of authentication on every route group. Each route group
 * names its provider, its path, the scopes it needs and a valid body.
 */
type Group = {
  name: string;
  provider: Exclude<Provider, 'ledger'>;
  path: string;
  scopes: Scope[];
  wrongScope: Scope;
  body: () => unknown;
  okStatus: number;
};
const ENRICHMENT_PATHS = {
  gwa: '/api/v1/gwa/transaction-enrichment',
  gwb: '/api/v1/gwb/order-enrichment',
  gwc: '/api/v1/gwc/payment-intent-enrichment',
};
const ROUTE_GROUPS: Group[] = (['gwa', 'gwb', 'gwc'] as const).flatMap((provider): Group[] => [
  {
    name: `${provider} payment reports`,
    provider,
    path: `/api/v1/${provider}/payment-reports`,
    scopes: ['payments:write'],
    wrongScope: 'enrichment:write',
    body: () => reportFor[provider](),
    okStatus: 200,
  },
  {
    name: `${provider} inline enrichment`,
    provider,
    path: ENRICHMENT_PATHS[provider],
    scopes: ['enrichment:write'],
    wrongScope: 'payments:write',
    body: () => ({ invoice: happyInvoice() }),
    okStatus: 200,
  },
]);

const OTHER: Record<string, Provider[]> = { gwa: ['gwb', 'gwc', 'ledger'], gwb: ['gwa', 'gwc', 'ledger'], gwc: ['gwa', 'gwb', 'ledger'] };

describe.each(ROUTE_GROUPS)('authentication on $name', (group) => {
  const app = useTestApp();
  const post = (key?: string, headers: Record<string, string> = {}) =>
    app.request(group.path, { method: 'POST', json: group.body(), ...(key ? { key } : {}), headers });

  const expectError = (res: { status: number; body: any; headers: Headers }, status: number, type: string, message: string) => {
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: { type, message, issues: [] } });
    expect(res.headers.get('x-svc-request-id')).toMatch(/^req_/);
  };

  it('when no Authorization header is sent, then 401', async () => {
    expectError(await post(), 401, 'authentication_error', 'Missing Authorization header; send "Authorization: Bearer <API key>"');
  });

  it('when the header is not a bearer token, then 401', async () => {
    const res = await post(undefined, { authorization: 'Basic dXNlcjpwYXNz' });
    expectError(res, 401, 'authentication_error', 'Malformed Authorization header; expected "Bearer <API key>"');
  });

  it('when the bearer is not a key of ours, then 401', async () => {
    expectError(await post('not-a-key'), 401, 'authentication_error', 'Malformed API key');
  });

  it('when the key is well-formed but unknown, then 401', async () => {
    const unknown = `svck_sandbox_${'0'.repeat(16)}_${'a'.repeat(64)}`;
    expectError(await post(unknown), 401, 'authentication_error', 'Unknown API key');
  });

  it('when the prefix is right but the secret wrong, then 401', async () => {
    const tenant = await createTenant(app, { provider: group.provider, scopes: group.scopes });
    const forged = tenant.key.replace(/_[0-9a-f]{64}$/, `_${'b'.repeat(64)}`);
    expectError(await post(forged), 401, 'authentication_error', 'Unknown API key');
  });

  it('when the key was revoked, then 401 from the next request on', async () => {
    const tenant = await createTenant(app, { provider: group.provider, scopes: group.scopes });
    expect((await post(tenant.key)).status).toBe(group.okStatus);
    await adminCall(app, 'apiKeys.revoke', { id: tenant.keyId });
    expectError(await post(tenant.key), 401, 'authentication_error', 'This API key has been revoked');
  });

  it.each(OTHER[group.provider]!)('when a %s key with the same scopes calls, then 403', async (other) => {
    const tenant = await createTenant(app, {
      provider: other,
      scopes: other === 'ledger' ? ['integrations:write', 'integrations:read'] : group.scopes,
    });
    expectError(await post(tenant.key), 403, 'permission_error', `A ${other} key cannot call a ${group.provider} endpoint`);
  });

  it('when the key is valid but its organization is inactive, then 404 and nothing is stored', async () => {
    const tenant = await createTenant(app, { provider: group.provider, scopes: group.scopes });
    await app.orm.em.getConnection().execute(`update organizations set status = 'inactive' where id = ?`, [tenant.organizationId]);
    const count = async () =>
      Number(
        (
          await app.orm.em
            .getConnection()
            .execute(`select (select count(*) from payment_observations) + (select count(*) from enrichment_records) as n`)
        )[0]!.n,
      );
    const before = await count();
    expectError(await post(tenant.key), 404, 'not_found', 'The organization of this API key does not exist or is inactive');
    expect(await count()).toBe(before);
  });

  it('when the key lacks the scope, then 403', async () => {
    const tenant = await createTenant(app, { provider: group.provider, scopes: [group.wrongScope] });
    expectError(await post(tenant.key), 403, 'permission_error', `The API key lacks the scope(s): ${group.scopes.join(', ')}`);
  });

  it('when the key belongs to another environment than the deployment, then 403', async () => {
    const tenant = await createTenant(app, { provider: group.provider, scopes: group.scopes, environment: 'production' });
    expectError(await post(tenant.key), 403, 'permission_error', 'A production key cannot be used on this sandbox deployment');
  });

  it('when the key is valid, then the call succeeds and its last use is recorded', async () => {
    const tenant = await createTenant(app, { provider: group.provider, scopes: group.scopes });
    const before = await app.admin<{ id: string; lastUsedAt: string | null }[]>('apiKeys.list', { integrationId: tenant.integrationId });
    expect(before.body[0]!.lastUsedAt).toBeNull();
    expect((await post(tenant.key)).status).toBe(group.okStatus);
    const after = await app.admin<{ id: string; lastUsedAt: string | null }[]>('apiKeys.list', { integrationId: tenant.integrationId });
    expect(after.body[0]!.lastUsedAt).not.toBeNull();
  });

  it('when a second key of the same integration is revoked, then the first keeps working', async () => {
    const tenant = await createTenant(app, { provider: group.provider, scopes: group.scopes });
    const second = await issueKey(app, tenant.integrationId, group.scopes);
    await adminCall(app, 'apiKeys.revoke', { id: second.id });
    expect((await post(tenant.key)).status).toBe(group.okStatus);
    expect((await post(second.key)).status).toBe(401);
  });
});

describe('production deployment', () => {
  const app = useTestApp({ SVC_ENVIRONMENT: 'production' });

  it('when a sandbox key calls a production deployment, then 403; a production key passes', async () => {
    const sandbox = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'], environment: 'sandbox' });
    const production = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'], environment: 'production' });
    const sandboxRes = await app.request('/api/v1/gwc/payment-reports', { method: 'POST', json: reportFor.gwc(), key: sandbox.key });
    expect(sandboxRes.status).toBe(403);
    expect(sandboxRes.body.error.message).toBe('A sandbox key cannot be used on this production deployment');
    const productionRes = await app.request('/api/v1/gwc/payment-reports', { method: 'POST', json: reportFor.gwc(), key: production.key });
    expect(productionRes.status).toBe(200);
  });
});
