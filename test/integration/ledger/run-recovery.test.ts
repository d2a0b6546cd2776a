import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { connect, insertRunRow, ledgerTenant, waitForRun } from '../../support/ledger-flow.js';
import { takeRunLease } from '../../../server/jobs/run-lease.js';
import { createGate } from '../../../server/ledger-sandbox/faults.js';
import { until } from '../../support/until.js';

const app = useLedgerApp({ sandbox: { invoices: 12, items: 2 } });
const sql = (q: string, p: unknown[] = []): Promise<any[]> => app.orm.em.getConnection().execute(q, p);
const syncPath = (id: string) => `/api/v1/integrations/ledger/${id}/sync`;
const queue = (t: { key: string }, id: string) => app.request(syncPath(id), { method: 'POST', key: t.key });
const runRow = async (id: string) =>
  (await sql(`select state, attempts, started_at, completed_at, error from ledger_sync_runs where id = ?`, [id]))[0];

async function connected() {
  const tenant = await ledgerTenant(app);
  const connectionId = await connect(app, tenant);
  const [conn] = await sql(`select id from ledger_connections where integration_id = ?`, [tenant.integrationId]);
  return { tenant, connectionId, connId: conn.id as string };
}

const insertRun = (connId: string, state: 'queued' | 'running', workflowRunId?: string) => insertRunRow(app, connId, state, workflowRunId);

describe('sync runs never stay queued or running for good', () => {
  it('when the stored tokens cannot be decrypted, then the run fails at once with a safe summary and the next request queues a new run', async () => {
    const { tenant, connectionId } = await connected();
    // Unreadable ciphertext, as with a wrong SVC_TOKEN_KEY: decryption fails before any provider call.
    await sql(
      `update ledger_connections set access_token_enc = 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA',
        refresh_token_enc = 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA' where integration_id = ?`,
      [tenant.integrationId],
    );
    const res = await queue(tenant, connectionId);
    expect(res.status).toBe(202);
    const run = await waitForRun(app, tenant, connectionId, 15_000);
    expect(run).toMatchObject({
      id: res.body.data.syncRunId,
      state: 'failed',
      error: { code: 'internal_error', message: 'The import failed unexpectedly; see the service log' },
    });
    expect((await runRow(run.id)).attempts).toBe(1);
    const again = await queue(tenant, connectionId);
    expect(again.status).toBe(202);
    expect(again.body.data).toMatchObject({ created: true });
    expect(again.body.data.syncRunId).not.toBe(run.id);
  });

  it("when a running run has no job any more, or a queued run's job completed, then the next request fails it (job_lost) and queues a new run", async () => {
    const { tenant, connectionId, connId } = await connected();
    const orphan = await insertRun(connId, 'running');
    const res = await queue(tenant, connectionId);
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ created: true });
    expect(res.body.data.syncRunId).not.toBe(orphan.id);
    expect(await runRow(orphan.id)).toMatchObject({ state: 'failed', error: { code: 'job_lost', message: expect.any(String) } });
    expect(await waitForRun(app, tenant, connectionId)).toMatchObject({ id: res.body.data.syncRunId, state: 'succeeded' });

    // A job that completed (its handler found no run) left behind by a run row that still says queued.
    const jobId = crypto.randomUUID();
    await app.queue.enqueue(crypto.randomUUID(), jobId);
    await until(
      'job state',
      () => app.queue.jobState(jobId),
      (s) => s === 'completed',
    );
    const stale = await insertRun(connId, 'queued', jobId);
    const next = await queue(tenant, connectionId);
    expect(next.body.data).toMatchObject({ created: true });
    expect(await runRow(stale.id)).toMatchObject({ state: 'failed', error: { code: 'job_lost' } });
    await waitForRun(app, tenant, connectionId);
  });

  it('when an operator fails a running run (syncRuns.fail), then it is failed, the attempt stops without writing, and 409/404 otherwise', async () => {
    const { tenant, connectionId } = await connected();
    const gate = createGate();
    app.sandbox.injectFault({ target: 'api', kind: 'hold', count: 1, gate });
    const res = await queue(tenant, connectionId);
    const id = res.body.data.syncRunId;
    // The operator fails the run while its first provider call is in flight.
    await gate.reached;
    const failed = await app.admin<any>('syncRuns.fail', { id });
    gate.open();
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({
      id,
      state: 'failed',
      error: { code: 'failed_by_operator', message: 'An operator failed the run' },
    });
    // The attempt in flight finishes its job without touching the run.
    await until(
      'job state',
      () => app.queue.jobState(res.body.data.workflowRunId),
      (s) => s === 'completed',
    );
    const after = await runRow(id);
    expect(after).toMatchObject({ state: 'failed', error: { code: 'failed_by_operator' } });
    expect(new Date(after.completed_at).toISOString()).toBe(failed.body.completedAt);
    expect((await app.admin<any>('syncRuns.get', { id })).body).toEqual(failed.body);
    expect((await app.admin('syncRuns.fail', { id })).status).toBe(409);
    expect((await app.admin('syncRuns.fail', { id: crypto.randomUUID() })).status).toBe(404);
    expect((await queue(tenant, connectionId)).body.data).toMatchObject({ created: true });
    expect(await waitForRun(app, tenant, connectionId)).toMatchObject({ state: 'succeeded' });
  });

  it('when another attempt holds the run lease, then a delivered job leaves the run untouched, and the run completes once the lease is free', async () => {
    const { tenant, connectionId, connId } = await connected();
    const run = await insertRun(connId, 'queued');
    const lease = await takeRunLease(app.config.DATABASE_URL!, run.id);
    expect(lease).toBeDefined();
    try {
      await app.queue.enqueue(run.id, run.workflowRunId);
      // The handler could not take the lease and handed the job back for a later retry.
      await until(
        'job state',
        () => app.queue.jobState(run.workflowRunId),
        (s) => s === 'retry',
      );
      expect(await runRow(run.id)).toMatchObject({ state: 'queued', attempts: 0, started_at: null, error: null });
      // A sync request meanwhile returns the run: its lease is held.
      expect((await queue(tenant, connectionId)).body.data).toMatchObject({ syncRunId: run.id, created: false });
    } finally {
      await lease!.release();
    }
    expect(await waitForRun(app, tenant, connectionId)).toMatchObject({ id: run.id, state: 'succeeded' });
    expect((await runRow(run.id)).attempts).toBe(1);
  });
});
