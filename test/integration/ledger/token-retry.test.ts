import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { connect, ledgerTenant, waitForRun } from '../../support/ledger-flow.js';
import { createTokenCipher } from '../../../server/crypto/token-cipher.js';

// Strict protocol: a rotated refresh token sent again ends the grant and is recorded as a violation.
const app = useLedgerApp({ sandbox: { invoices: 30, items: 6, strict: true } });
const sql = (q: string, p: unknown[] = []): Promise<any[]> => app.orm.em.getConnection().execute(q, p);

async function connected() {
  const tenant = await ledgerTenant(app);
  const connectionId = await connect(app, tenant);
  const [row] = await sql(`select * from ledger_connections where integration_id = ?`, [tenant.integrationId]);
  const cipher = createTokenCipher(Buffer.from(app.tokenKey, 'base64'));
  const storedRefresh = async () => {
    const [now] = await sql(`select * from ledger_connections where id = ?`, [row.id]);
    return cipher.decrypt(now.refresh_token_enc, now.id);
  };
  return { tenant, connectionId, connectionRowId: row.id as string, firstRefresh: await storedRefresh(), storedRefresh };
}

async function syncOnce(tenant: { key: string }, connectionId: string) {
  const res = await app.request(`/api/v1/integrations/ledger/${connectionId}/sync`, { method: 'POST', key: tenant.key });
  expect(res.status).toBe(202);
  const run = await waitForRun(app, tenant as never, connectionId);
  const [row] = await sql(`select attempts from ledger_sync_runs where id = ?`, [run.id]);
  return { run, attempts: row.attempts as number };
}

/** The refresh requests sent since `from`: the token each carried and the status it got. */
const refreshes = (from: number) => app.sandbox.tokenRequests.slice(from).filter((r) => r.grantType === 'refresh_token');

describe('token refresh retried like every provider call, never replaying a rotated refresh token', () => {
  it('when the token endpoint answers 429 (Retry-After) and then 503 before rotating anything, then the same refresh token is sent again after the wait and the attempt succeeds', async () => {
    const { tenant, connectionId, firstRefresh, storedRefresh } = await connected();
    app.sandbox.tokens.expireAccessTokens();
    app.sandbox.injectFault({ target: 'token', kind: 'throttle', count: 1, retryAfterSeconds: 1 });
    app.sandbox.injectFault({ target: 'token', kind: 'server_error', status: 503, count: 1 });
    const from = app.sandbox.tokenRequests.length;
    const { run, attempts } = await syncOnce(tenant, connectionId);
    expect(run).toMatchObject({ state: 'succeeded', error: null });
    expect(attempts).toBe(1);
    const sent = refreshes(from);
    expect(sent.map((r) => [r.refreshToken, r.status])).toEqual([
      [firstRefresh, 429],
      [firstRefresh, 503],
      [firstRefresh, 200],
    ]);
    // Retry-After (1 s) raises the wait to the back-off ceiling (LEDGER_BACKOFF_MAX_MS, 200 ms here), as for every provider
    // call; without it the first wait would be the jittered back-off (10-20 ms).
    expect(sent[1]!.at - sent[0]!.at).toBeGreaterThanOrEqual(195);
    const rotated = await storedRefresh();
    expect(rotated).not.toBe(firstRefresh);
    expect(app.sandbox.tokens.refreshGrant(rotated)).toBeDefined();
    expect(app.sandbox.violations).toEqual([]);
  });

  it('when a refresh fails with 503 after an earlier refresh of the run rotated the token, then the retry sends the rotated (newest) token', async () => {
    const { tenant, connectionId, firstRefresh, storedRefresh } = await connected();
    app.sandbox.tokens.expireAccessTokens();
    let expired = false;
    // After the run's first refresh, the access token expires again before the first invoice page: a second refresh follows.
    app.sandbox.beforeAnswer(({ kind, statement }) => {
      if (!expired && kind === 'query' && / from Invoice /.test(statement)) {
        expired = true;
        app.sandbox.tokens.expireAccessTokens();
      }
    });
    app.sandbox.injectFault({ target: 'token', kind: 'server_error', status: 503, count: 1, after: 1 });
    const from = app.sandbox.tokenRequests.length;
    const { run, attempts } = await syncOnce(tenant, connectionId);
    expect(run).toMatchObject({ state: 'succeeded', error: null });
    expect(attempts).toBe(1);
    const sent = refreshes(from);
    expect(sent).toHaveLength(3);
    expect(sent[0]).toMatchObject({ refreshToken: firstRefresh, status: 200 });
    const second = sent[1]!.refreshToken;
    expect(second).not.toBe(firstRefresh);
    expect(sent.slice(1).map((r) => [r.refreshToken, r.status])).toEqual([
      [second, 503],
      [second, 200],
    ]);
    expect(await storedRefresh()).not.toBe(second);
    expect(app.sandbox.violations).toEqual([]);
  });

  it('when the token endpoint fails with 500 after it rotated the refresh token (the answer is lost), then that token is never sent again and the connection needs reauthorization', async () => {
    const { tenant, connectionId, connectionRowId, firstRefresh } = await connected();
    app.sandbox.tokens.expireAccessTokens();
    app.sandbox.injectFault({ target: 'token', kind: 'server_error', status: 500, afterGrant: true, count: 1 });
    const from = app.sandbox.tokenRequests.length;
    const { run, attempts } = await syncOnce(tenant, connectionId);
    expect(run).toMatchObject({
      state: 'failed',
      error: {
        code: 'token_outcome_unknown',
        message: 'The token endpoint failed after it may have rotated the refresh token, which is never sent twice; send a new invitation',
      },
    });
    expect(attempts).toBe(1);
    expect(refreshes(from).map((r) => [r.refreshToken, r.status])).toEqual([[firstRefresh, 500]]);
    expect(app.sandbox.tokens.rotatedFrom(firstRefresh)).toBeDefined();
    const [conn] = await sql(`select status from ledger_connections where id = ?`, [connectionRowId]);
    expect(conn.status).toBe('reauthorization_required');
    expect(app.sandbox.violations).toEqual([]);
  });
});
