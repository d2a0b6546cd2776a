import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { connect, ledgerTenant, waitForRun } from '../../support/ledger-flow.js';
import { createGate } from '../../../server/ledger-sandbox/faults.js';
import { startSyncQueue, type SyncQueue } from '../../../server/jobs/sync-queue.js';
import { createLogger } from '../../../server/logger.js';
import { compiledEntry } from '../../support/service-build.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
// No worker in this process: the run is taken by a separate worker process that the test kills.
const app = useLedgerApp({
  sandbox: { invoices: 5, items: 2 },
  worker: false,
  config: { LEDGER_REAP_INTERVAL_MS: '200', LEDGER_LEASE_GRACE_MS: '1000' },
});
const sql = (q: string, p: unknown[] = []): Promise<any[]> => app.orm.em.getConnection().execute(q, p);
const runRow = async (id: string) => (await sql(`select state, error, completed_at from ledger_sync_runs where id = ?`, [id]))[0];

/** `npm run worker` as its own process (compiled, as that script runs it), against this test's database and sandbox. */
function spawnWorker(): ChildProcess {
  return spawn(process.execPath, compiledEntry('server/jobs/worker'), {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LOG_LEVEL: 'warn',
      DATABASE_URL: app.config.DATABASE_URL,
      SVC_TOKEN_KEY: app.tokenKey,
      LEDGER_BASE_URL: app.sandbox.urls.api,
      LEDGER_AUTH_URL: app.sandbox.urls.authorize,
      LEDGER_TOKEN_URL: app.sandbox.urls.token,
      LEDGER_CLIENT_ID: 'test-client',
      LEDGER_CLIENT_SECRET: app.clientSecret,
      LEDGER_REAP_INTERVAL_MS: '600000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

let worker: ChildProcess | undefined;
let second: SyncQueue | undefined;
afterAll(async () => {
  worker?.kill('SIGKILL');
  await second?.stop();
});

describe('stuck runs are reaped on a timer', () => {
  it('when the worker running a sync is killed, then another worker fails the run on its timer once the lease expired, with no sync request', async () => {
    const tenant = await ledgerTenant(app);
    const connectionId = await connect(app, tenant);
    const gate = createGate();
    // The worker's first provider call waits at the gate: the run is running and its lease is held.
    app.sandbox.injectFault({ target: 'api', kind: 'hold', count: 1, gate });
    const res = await app.request(`/api/v1/integrations/ledger/${connectionId}/sync`, { method: 'POST', key: tenant.key });
    expect(res.status).toBe(202);
    const runId = res.body.data.syncRunId as string;
    worker = spawnWorker();
    await gate.reached;
    expect(await runRow(runId)).toMatchObject({ state: 'running', error: null });

    // A live worker's run is never reaped, however old its job.
    second = await startSyncQueue({
      databaseUrl: app.config.DATABASE_URL!,
      orm: app.orm,
      runtime: app.runtime,
      logger: createLogger('warn', app.logs),
      work: true,
    });
    await sql(`update pgboss.job set started_on = now() - interval '1 hour' where id = ?`, [res.body.data.workflowRunId]);
    expect(await second.reapStuckRuns()).toEqual([]);
    expect(await runRow(runId)).toMatchObject({ state: 'running' });

    const exited = new Promise((r) => worker!.once('exit', r));
    worker.kill('SIGKILL');
    await exited;
    const reaped = await waitForRun(() => runRow(runId));
    expect(reaped).toMatchObject({
      state: 'failed',
      error: { code: 'job_lost', message: 'The worker running the sync stopped without finishing it (its lease expired)' },
    });
    expect(reaped.completed_at).not.toBeNull();
    gate.open();
    // The job pg-boss still holds for the dead worker is cancelled, so it is never delivered again.
    expect(await app.queue.jobState(res.body.data.workflowRunId)).toBe('cancelled');
    const again = await app.request(`/api/v1/integrations/ledger/${connectionId}/sync`, { method: 'POST', key: tenant.key });
    expect(again.body.data).toMatchObject({ created: true });
  });
});
