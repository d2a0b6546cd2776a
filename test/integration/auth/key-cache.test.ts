import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { apiKeyMac } from '../../../server/crypto/api-key-mac.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../../server/config.js';
import { createApp } from '../../../server/http/app.js';
import { listen, type RunningServer } from '../../../server/http/lifecycle.js';
import { createLogger } from '../../../server/logger.js';
import { openOrm } from '../../../server/persistence/orm.js';
import { findKeyRecord } from '../../../server/persistence/sql/api-keys.sql.js';
import { findEndpointForDelivery } from '../../../server/persistence/sql/webhooks.sql.js';
import { poolDatabase } from '../../../server/persistence/kysely.js';
import { recordingDatabase } from '../../support/recording-database.js';
import type { MikroORM } from '@mikro-orm/postgresql';
import { httpClient, TEST_CONFIG_DEFAULTS, useTestApp, type TestApp } from '../../support/harness.js';
import { gwcReport } from '../../support/reports.js';
import { adminCall, createTenant } from '../../support/tenants.js';

/**
 * Key records are cached per process (server/domain/auth/key-directory.ts);
 * every change that alters a verdict must still refuse the very next request,
 * whether it is made through the operator procedures of this process, of
 * another process, or with plain SQL on another connection.
 */
describe('key cache invalidation', () => {
  const app = useTestApp();
  /** A second service process on the same database, with its own cache. */
  const other = {} as Pick<TestApp, 'request' | 'admin'> & { orm: MikroORM; server: RunningServer; url: string };
  let sqlClient: pg.Client;

  beforeAll(async () => {
    const config = ConfigSchema.parse({ ...TEST_CONFIG_DEFAULTS, DATABASE_URL: app.config.DATABASE_URL, PORT: '0', LOG_LEVEL: 'silent' });
    other.orm = await openOrm(app.config.DATABASE_URL!);
    other.server = await listen(
      createApp({
        orm: other.orm,
        config,
        logger: createLogger('silent'),
        adminToken: config.SVC_ADMIN_TOKEN!,
        keyMac: apiKeyMac(randomBytes(32)),
      }),
      0,
      '127.0.0.1',
    );
    other.url = `http://127.0.0.1:${other.server.port}`;
    Object.assign(
      other,
      httpClient(() => other.url),
    );
    sqlClient = new pg.Client({ connectionString: app.config.DATABASE_URL });
    await sqlClient.connect();
  });
  afterAll(async () => {
    await sqlClient?.end();
    await other.server?.close(1000);
    await other.orm?.close(true);
  });

  const report = (client: Pick<TestApp, 'request'>, key: string) =>
    client.request('/api/v1/gwc/payment-reports', { method: 'POST', json: gwcReport(), key });
  const refusal = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body });

  it('when a key is revoked through the operator procedures, then the next request on either process is refused', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    // Both processes have the key cached.
    expect((await report(app, tenant.key)).status).toBe(200);
    expect((await report(other, tenant.key)).status).toBe(200);

    await adminCall(app, 'apiKeys.revoke', { id: tenant.keyId });

    const revoked = {
      status: 401,
      body: { error: { type: 'authentication_error', message: 'This API key has been revoked', issues: [] } },
    };
    expect(refusal(await report(other, tenant.key))).toEqual(revoked);
    expect(refusal(await report(app, tenant.key))).toEqual(revoked);
  });

  it('when a key is revoked with plain SQL on another connection, then the next request is refused', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    expect((await report(app, tenant.key)).status).toBe(200);

    await sqlClient.query('update api_keys set revoked_at = now() where id = $1', [tenant.keyId]);

    expect(refusal(await report(app, tenant.key))).toEqual({
      status: 401,
      body: { error: { type: 'authentication_error', message: 'This API key has been revoked', issues: [] } },
    });
  });

  it('when a scope is taken away with plain SQL, then the next request is refused with 403', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write', 'enrichment:write'] });
    expect((await report(other, tenant.key)).status).toBe(200);

    await sqlClient.query(`update api_keys set scopes = '{enrichment:write}' where id = $1`, [tenant.keyId]);

    expect(refusal(await report(other, tenant.key))).toEqual({
      status: 403,
      body: { error: { type: 'permission_error', message: 'The API key lacks the scope(s): payments:write', issues: [] } },
    });
  });

  it('when the organization is deactivated with plain SQL, then the next request gets 404', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    expect((await report(app, tenant.key)).status).toBe(200);

    await sqlClient.query(`update organizations set status = 'inactive' where id = $1`, [tenant.organizationId]);

    expect((await report(app, tenant.key)).status).toBe(404);
  });

  it('when the ledger link is removed, through the procedures or plain SQL, then the next invoices:read request gets 403', async () => {
    for (const remove of ['procedure', 'sql'] as const) {
      const org = await adminCall<{ id: string }>(app, 'organizations.create', { name: `Cached reader ${remove}` });
      const gwa = await adminCall<{ id: string }>(app, 'integrations.create', {
        organizationId: org.id,
        provider: 'gwa',
        environment: 'sandbox',
      });
      const ledger = await adminCall<{ id: string }>(app, 'integrations.create', {
        organizationId: org.id,
        provider: 'ledger',
        environment: 'sandbox',
      });
      const link = await adminCall<{ id: string }>(app, 'links.create', { ledgerIntegrationId: ledger.id, providerIntegrationId: gwa.id });
      const key = await adminCall<{ key: string }>(app, 'apiKeys.issue', { integrationId: gwa.id, scopes: ['invoices:read'] });
      const list = (client: Pick<TestApp, 'request'>) => client.request('/api/v1/invoices', { key: key.key });
      expect((await list(app)).status).toBe(200);
      expect((await list(other)).status).toBe(200);

      if (remove === 'procedure') expect((await other.admin('links.delete', { id: link.id })).status).toBe(200);
      else await sqlClient.query('delete from integration_links where id = $1', [link.id]);

      const unlinked = {
        status: 403,
        body: { error: { type: 'permission_error', message: 'This integration is not linked to an accounting source', issues: [] } },
      };
      expect(refusal(await list(app))).toEqual(unlinked);
      expect(refusal(await list(other))).toEqual(unlinked);
    }
  });

  it('when the epoch cannot be read, then requests fail instead of trusting the cache', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    expect((await report(app, tenant.key)).status).toBe(200);

    await sqlClient.query('alter table auth_epoch rename to auth_epoch_away');
    try {
      expect((await report(app, tenant.key)).status).toBe(500);
    } finally {
      await sqlClient.query('alter table auth_epoch_away rename to auth_epoch');
    }
    expect((await report(app, tenant.key)).status).toBe(200);
  });
  it('when the key record or a delivery endpoint reads a table, then every change to that table moves the auth epoch (a trigger on it)', async () => {
    // The obligation of any table a verdict comes to depend on: without the trigger, cached keys and endpoints
    // (server/domain/webhooks/endpoint-directory.ts) would miss its changes.
    const { db, sent } = recordingDatabase(poolDatabase(app.orm));
    await findKeyRecord(db, 'unknown');
    await findEndpointForDelivery(db, crypto.randomUUID());
    const read = [...new Set([...sent.join(' ').matchAll(/\b(?:from|join)\s+\(?([a-z_]+)/g)].map((m) => m[1]!))].sort();
    expect(read).toEqual(['api_keys', 'auth_epoch', 'integration_links', 'integrations', 'organizations', 'webhook_endpoints']);
    const triggered = await app.orm.em.getConnection().execute<{ table: string }[]>(
      `select distinct c.relname as table from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
          where p.proname = 'auth_epoch_bump' and not t.tgisinternal`,
    );
    expect(triggered.map((r) => r.table).sort()).toEqual(read.filter((table) => table !== 'auth_epoch'));
  });
});
