import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { connect, insertRunRow, ledgerTenant, waitForRun } from '../../support/ledger-flow.js';
import { createTenant } from '../../support/tenants.js';
import { createTokenCipher } from '../../../server/crypto/token-cipher.js';
import { deleteEntity } from '../../../server/ledger-sandbox/company.js';
import { createGate } from '../../../server/ledger-sandbox/faults.js';
import { createCipheriv, randomBytes } from 'node:crypto';
import { rebindLegacyTokens } from '../../../server/domain/ledger/rebind-legacy-tokens.js';
import { LedgerSession } from '../../../server/integrations/ledger/ledger-session.js';
import { poolUnitOfWork } from '../../../server/persistence/unit-of-work.js';

const app = useLedgerApp({ sandbox: { invoices: 30, items: 6 } });
const sql = (q: string, p: unknown[] = []): Promise<any[]> => app.orm.em.getConnection().execute(q, p);
const syncPath = (id: string) => `/api/v1/integrations/ledger/${id}/sync`;

async function connected() {
  const tenant = await ledgerTenant(app);
  const connectionId = await connect(app, tenant);
  return { tenant, connectionId };
}
const queue = (t: { key: string }, id: string, json?: unknown) =>
  app.request(syncPath(id), { method: 'POST', key: t.key, ...(json === undefined ? {} : { json }) });
const recordCount = async (integrationId: string) =>
  Number(
    (
      await sql(
        `select count(*)::int as n from ledger_source_records s join ledger_connections c on c.id = s.connection_id where c.integration_id = ?`,
        [integrationId],
      )
    )[0].n,
  );

describe('POST/GET /api/v1/integrations/ledger/{connectionId}/sync', () => {
  it('when a sync is queued on a new connection, then 202 and the run imports Preferences, Items and Invoices to completion', async () => {
    const { tenant, connectionId } = await connected();
    const res = await queue(tenant, connectionId);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      object: 'ledger.sync_run',
      data: { syncRunId: expect.any(String), workflowRunId: expect.any(String), created: true },
    });
    const run = await waitForRun(app, tenant, connectionId);
    expect(run).toMatchObject({
      id: res.body.data.syncRunId,
      connectionId,
      workflowRunId: res.body.data.workflowRunId,
      state: 'succeeded',
      mode: 'historical',
      fullReconciliation: false,
      error: null,
      progress: { entitiesDone: 3, entitiesTotal: 3, recordsStored: 37 },
    });
    expect(run.entities.Preferences).toMatchObject({ state: 'done', fetched: 1, created: 1 });
    expect(run.entities.Item).toMatchObject({ state: 'done', pages: 1, fetched: 6, created: 6 });
    expect(run.entities.Invoice).toMatchObject({
      state: 'done',
      pages: 4,
      fetched: 30,
      created: 30,
      updated: 0,
      cursor: { lastUpdatedTime: expect.any(String) },
    });
    for (const k of ['sourcePeriodStart', 'sourcePeriodEnd', 'createdAt', 'startedAt', 'completedAt'])
      expect(Date.parse(run[k])).not.toBeNaN();
    expect(Date.parse(run.sourcePeriodEnd) - Date.parse(run.sourcePeriodStart)).toBe(365 * 86_400_000);
    const [conn] = await sql(`select checked_through from ledger_connections where integration_id = ?`, [tenant.integrationId]);
    expect(new Date(conn.checked_through).toISOString()).toBe(run.sourcePeriodEnd);
    expect(await recordCount(tenant.integrationId)).toBe(37);
    const [inv] = await sql(
      `select entity_type, source_id, sync_token, last_updated_at, deleted from ledger_source_records where entity_type = 'Invoice' order by source_id limit 1`,
    );
    expect(inv).toMatchObject({ entity_type: 'Invoice', source_id: '1001', sync_token: '0', deleted: false });

    // An invoice changes and another is deleted at the source: the next (incremental) run updates and marks only those.
    const company = app.sandbox.companies.get(connectionId)!;
    const invoice = company.Invoice[0]!;
    invoice.SyncToken = '1';
    invoice.MetaData = { ...invoice.MetaData, LastUpdatedTime: new Date().toISOString() };
    const removedInvoice = company.Invoice[1]!;
    const removed = removedInvoice.Id;
    deleteEntity(company, 'Invoice', removed);
    try {
      expect((await queue(tenant, connectionId, {})).status).toBe(202);
      const second = await waitForRun(app, tenant, connectionId);
      expect(second).toMatchObject({ state: 'succeeded', mode: 'incremental' });
      expect(second.entities.Invoice).toMatchObject({ updated: 1, created: 0, deleted: 1 });
      expect(await recordCount(tenant.integrationId)).toBe(37);
      const [gone] = await sql(
        `select s.deleted, s.sync_token from ledger_source_records s join ledger_connections c on c.id = s.connection_id where c.integration_id = ? and s.source_id = ?`,
        [tenant.integrationId, removed],
      );
      expect(gone).toEqual({ deleted: true, sync_token: '0' });
    } finally {
      company.deleted = [];
      company.Invoice.splice(1, 0, removedInvoice);
    }
  });

  it.each([[{ fullReconciliation: 'yes' }], [{ other: true }], [[]]])('when the body is %j, then 400', async (json) => {
    const { tenant, connectionId } = await connected();
    const res = await queue(tenant, connectionId, json);
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('validation_error');
  });

  it('when fullReconciliation is true or the checkpoint is stale, then the run is a full reconciliation', async () => {
    const { tenant, connectionId } = await connected();
    expect((await queue(tenant, connectionId, { fullReconciliation: true })).status).toBe(202);
    expect(await waitForRun(app, tenant, connectionId)).toMatchObject({
      mode: 'full',
      fullReconciliation: true,
      sourcePeriodStart: null,
      state: 'succeeded',
    });
    await sql(`update ledger_connections set checked_through = now() - interval '40 days' where integration_id = ?`, [
      tenant.integrationId,
    ]);
    expect((await queue(tenant, connectionId)).status).toBe(202);
    expect(await waitForRun(app, tenant, connectionId)).toMatchObject({ mode: 'full', fullReconciliation: true, state: 'succeeded' });
  });

  it('when the connection is unknown or belongs to another integration, then 404 on both endpoints; wrong scope 403', async () => {
    const { connectionId } = await connected();
    const other = await ledgerTenant(app);
    expect((await queue(other, connectionId)).status).toBe(404);
    expect((await app.request(syncPath(connectionId), { key: other.key })).status).toBe(404);
    expect((await queue(other, 'nope')).status).toBe(404);
    const readOnly = await createTenant(app, { provider: 'ledger', scopes: ['integrations:read'] });
    expect((await queue(readOnly, connectionId)).status).toBe(403);
    const writeOnly = await createTenant(app, { provider: 'ledger', scopes: ['integrations:write'] });
    expect((await app.request(syncPath(connectionId), { key: writeOnly.key })).status).toBe(403);
  });

  it('when many sync requests arrive at once, then one run is created and all get its id', async () => {
    const { tenant, connectionId } = await connected();
    // The run's first provider call is held, so the run stays active while all six requests arrive.
    const gate = createGate();
    app.sandbox.injectFault({ target: 'api', kind: 'hold', count: 1, gate });
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map(() => queue(tenant, connectionId)));
    gate.open();
    expect(results.map((r) => r.status)).toEqual([202, 202, 202, 202, 202, 202]);
    expect(results.filter((r) => r.body.data.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.data.syncRunId)).size).toBe(1);
    expect(new Set(results.map((r) => r.body.data.workflowRunId)).size).toBe(1);
    await waitForRun(app, tenant, connectionId);
    const runs = await sql(
      `select r.id from ledger_sync_runs r join ledger_connections c on c.id = r.connection_id where c.integration_id = ?`,
      [tenant.integrationId],
    );
    expect(runs).toHaveLength(1);
  });

  it('when the connection is paused or disconnected, then 409 says to resume or reconnect', async () => {
    const { tenant, connectionId } = await connected();
    await sql(`update ledger_connections set status = 'paused' where integration_id = ?`, [tenant.integrationId]);
    const paused = await queue(tenant, connectionId);
    expect(paused.status).toBe(409);
    expect(paused.body.error.message).toMatch(/resume/);
    await sql(`update ledger_connections set status = 'disconnected' where integration_id = ?`, [tenant.integrationId]);
    const disconnected = await queue(tenant, connectionId);
    expect(disconnected.status).toBe(409);
    expect(disconnected.body.error.message).toMatch(/reconnect/);
  });

  it('when the access token expired, then it is refreshed, the rotated refresh token is stored, and the run succeeds', async () => {
    const { tenant, connectionId } = await connected();
    const cipher = createTokenCipher(Buffer.from(app.tokenKey, 'base64'));
    const [before] = await sql(`select * from ledger_connections where integration_id = ?`, [tenant.integrationId]);
    app.sandbox.tokens.expireAccessTokens();
    expect((await queue(tenant, connectionId)).status).toBe(202);
    expect(await waitForRun(app, tenant, connectionId)).toMatchObject({ state: 'succeeded' });
    const [after] = await sql(`select * from ledger_connections where integration_id = ?`, [tenant.integrationId]);
    const oldRefresh = cipher.decrypt(before.refresh_token_enc, before.id);
    const newRefresh = cipher.decrypt(after.refresh_token_enc, after.id);
    expect(newRefresh).not.toBe(oldRefresh);
    expect(app.sandbox.tokens.refreshGrant(oldRefresh)).toBeUndefined();
    expect(app.sandbox.tokens.refreshGrant(newRefresh)).toBeDefined();
    expect(app.logs.text).not.toContain(newRefresh);
    expect(app.logs.text).not.toContain(cipher.decrypt(after.access_token_enc, after.id));
  });

  it('when the provider throttles (429) or fails (500) a few times, then the importer backs off and succeeds', async () => {
    const { tenant, connectionId } = await connected();
    app.sandbox.injectFault({ target: 'api', kind: 'throttle', count: 2, after: 1 });
    app.sandbox.injectFault({ target: 'api', kind: 'server_error', count: 1, after: 3 });
    expect((await queue(tenant, connectionId)).status).toBe(202);
    const run = await waitForRun(app, tenant, connectionId);
    expect(run).toMatchObject({ state: 'succeeded', error: null, progress: { recordsStored: 37 } });
    app.sandbox.clearFaults();
  });

  it('when the refresh token is refused, then the run fails safely and the connection needs reauthorization (409 afterwards)', async () => {
    const { tenant, connectionId } = await connected();
    app.sandbox.tokens.expireAccessTokens();
    app.sandbox.tokens.revokeRefreshTokens();
    expect((await queue(tenant, connectionId)).status).toBe(202);
    const run = await waitForRun(app, tenant, connectionId);
    expect(run).toMatchObject({ state: 'failed', error: { code: 'reauthorization_required', message: expect.any(String) } });
    expect(run.entities.Preferences.error).toEqual(run.error);
    const [conn] = await sql(`select status from ledger_connections where integration_id = ?`, [tenant.integrationId]);
    expect(conn.status).toBe('reauthorization_required');
    const again = await queue(tenant, connectionId);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/reauthorization/);
  });

  it('when the import crashes mid-run, then the retry resumes from the last stored page without duplicates', async () => {
    const { tenant, connectionId } = await connected();
    // Preferences, Items and the first Invoice page succeed; then the provider fails past the in-call retries.
    app.sandbox.injectFault({ target: 'api', kind: 'server_error', count: 4, after: 3 });
    expect((await queue(tenant, connectionId)).status).toBe(202);
    const run = await waitForRun(app, tenant, connectionId, 30_000);
    expect(run).toMatchObject({ state: 'succeeded', error: null });
    // Page 1 of invoices was not fetched again: 30 fetched, 30 created, 4 pages in total.
    expect(run.entities.Invoice).toMatchObject({ fetched: 30, created: 30, pages: 4, error: null });
    const [row] = await sql(`select attempts from ledger_sync_runs where id = ?`, [run.id]);
    expect(row.attempts).toBe(2);
    expect(await recordCount(tenant.integrationId)).toBe(37);
    app.sandbox.clearFaults();
  });

  it('when the connection is paused during a run, then the run stops before the next provider call and fails safely', async () => {
    const { tenant, connectionId } = await connected();
    const gate = createGate();
    app.sandbox.injectFault({ target: 'api', kind: 'hold', count: 1, gate });
    expect((await queue(tenant, connectionId)).status).toBe(202);
    // Pause while the first provider call is in flight (held at the gate), then let it answer.
    await gate.reached;
    await sql(`update ledger_connections set status = 'paused' where integration_id = ?`, [tenant.integrationId]);
    gate.open();
    const run = await waitForRun(app, tenant, connectionId);
    expect(run).toMatchObject({
      state: 'failed',
      error: { code: 'connection_not_active', message: 'The connection became paused during the run' },
    });
    expect(run.entities.Invoice.fetched).toBe(0);
  });

  it('when a queued run lost its job (crash between commit and send), then the next request re-sends it and it completes', async () => {
    const { tenant, connectionId } = await connected();
    const [conn] = await sql(`select id from ledger_connections where integration_id = ?`, [tenant.integrationId]);
    const { id: runId } = await insertRunRow(app, conn.id, 'queued');
    const res = await queue(tenant, connectionId);
    expect(res.body.data).toMatchObject({ syncRunId: runId, created: false });
    expect(await waitForRun(app, tenant, connectionId)).toMatchObject({ id: runId, state: 'succeeded' });
  });

  it('when the connection is disconnected while a token refresh is in flight, then the refreshed tokens are not stored and the run fails', async () => {
    const { tenant, connectionId } = await connected();
    app.sandbox.tokens.expireAccessTokens();
    const gate = createGate();
    app.sandbox.injectFault({ target: 'token', kind: 'hold', count: 1, gate });
    expect((await queue(tenant, connectionId)).status).toBe(202);
    // The operator's disconnect (status and erased tokens) lands while the refresh is held at the provider.
    await gate.reached;
    await sql(
      `update ledger_connections set status = 'disconnected', access_token_enc = '', refresh_token_enc = '' where integration_id = ?`,
      [tenant.integrationId],
    );
    gate.open();
    const run = await waitForRun(app, tenant, connectionId);
    expect(run).toMatchObject({
      state: 'failed',
      error: {
        code: 'connection_not_active',
        message: 'The connection stopped being active during the run; refreshed tokens were not stored',
      },
    });
    expect(run.entities.Preferences).toMatchObject({ state: 'failed', fetched: 0 });
    const [conn] = await sql(`select status, access_token_enc, refresh_token_enc from ledger_connections where integration_id = ?`, [
      tenant.integrationId,
    ]);
    expect(conn).toEqual({ status: 'disconnected', access_token_enc: '', refresh_token_enc: '' });
  });

  it('when tokens were stored before row binding (v1), then the start-up step rebinds them to their row and a copy into another row does not decrypt', async () => {
    const a = await connected();
    const b = await connected();
    const cipher = createTokenCipher(Buffer.from(app.tokenKey, 'base64'));
    const [rowA] = await sql(`select * from ledger_connections where integration_id = ?`, [a.tenant.integrationId]);
    const [rowB] = await sql(`select * from ledger_connections where integration_id = ?`, [b.tenant.integrationId]);
    const access = cipher.decrypt(rowA.access_token_enc, rowA.id);
    const refresh = cipher.decrypt(rowA.refresh_token_enc, rowA.id);
    // The stored form before binding: v1, AES-256-GCM without additional authenticated data.
    const legacy = (plain: string) => {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', Buffer.from(app.tokenKey, 'base64'), iv);
      const data = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return ['v1', iv, c.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
    };
    await sql(`update ledger_connections set access_token_enc = ?, refresh_token_enc = ? where id = ?`, [
      legacy(access),
      legacy(refresh),
      rowA.id,
    ]);
    expect(await rebindLegacyTokens(poolUnitOfWork(app.orm), app.runtime.cipher)).toBe(1);
    expect(await rebindLegacyTokens(poolUnitOfWork(app.orm), app.runtime.cipher)).toBe(0);
    const [rebound] = await sql(`select * from ledger_connections where id = ?`, [rowA.id]);
    expect(rebound.access_token_enc).toMatch(/^v2\./);
    expect(rebound.refresh_token_enc).toMatch(/^v2\./);
    expect([cipher.decrypt(rebound.access_token_enc, rowA.id), cipher.decrypt(rebound.refresh_token_enc, rowA.id)]).toEqual([
      access,
      refresh,
    ]);
    expect((await queue(a.tenant, a.connectionId)).status).toBe(202);
    expect(await waitForRun(app, a.tenant, a.connectionId)).toMatchObject({ state: 'succeeded' });

    // A's (bound) ciphertexts copied into B's row: a session for B cannot read them.
    const [current] = await sql(`select * from ledger_connections where id = ?`, [rowA.id]);
    await sql(`update ledger_connections set access_token_enc = ?, refresh_token_enc = ? where id = ?`, [
      current.access_token_enc,
      current.refresh_token_enc,
      rowB.id,
    ]);
    const { ledger } = poolUnitOfWork(app.orm).store;
    const copied = (await ledger.connectionById(rowB.id))!;
    expect(() => new LedgerSession(ledger, app.runtime, copied)).toThrow('Unsupported state or unable to authenticate data');
    const own = (await ledger.connectionById(rowA.id))!;
    expect(() => new LedgerSession(ledger, app.runtime, own)).not.toThrow();
  });
});

describe('sync job pick-up', () => {
  // Workers that look for jobs only every ten minutes: a run can only start at once if its worker is told.
  const slow = useLedgerApp({ sandbox: { invoices: 3, items: 2 }, config: { LEDGER_JOB_POLL_MS: '600000' } });

  it('when a sync is queued in a process that runs the importer, then its worker takes the job at once instead of at its next look', async () => {
    const tenant = await ledgerTenant(slow);
    const connectionId = await connect(slow, tenant);
    expect((await slow.request(syncPath(connectionId), { method: 'POST', key: tenant.key })).status).toBe(202);
    expect(await waitForRun(slow, tenant, connectionId, 15_000)).toMatchObject({ state: 'succeeded', error: null });
  });
});
