import type { MikroORM } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import type { Logger } from '../logger.js';
import { importRun } from '../domain/ledger/import-run.js';
import { reapStuckRuns } from '../domain/ledger/reap-runs.js';
import type { LedgerPorts, SyncQueuePort } from '../domain/ledger/ports.js';
import { poolUnitOfWork } from '../persistence/unit-of-work.js';
import { oneProcessAtATime } from './queue-setup-lock.js';
import { takeRunLease } from './run-lease.js';
import { observeQueueDepth } from '../observability/saturation-metrics.js';
import { inSpan } from '../observability/spans.js';

export const LEDGER_SYNC_QUEUE = 'ledger-sync';
/** pg-boss keeps its tables in this schema of the service's own database (no second store). */
export const QUEUE_SCHEMA = 'pgboss';
/** Attempts per run: the first plus pg-boss retries after transient provider failures. */
export const MAX_SYNC_ATTEMPTS = 3;

export interface SyncQueue extends SyncQueuePort {
  /** One pass of the reaper the worker runs on a timer (docs/ledger-sync.md); the runs it acted on. */
  reapStuckRuns(): Promise<{ runId: string; decision: 'resend' | 'fail' | 'expired' }[]>;
  stop(): Promise<void>;
}

/**
 * The ledger-sync job queue on pg-boss (v10). `work: true` also runs the importer
 * in this process (the default in the service; `npm run worker` runs only this).
 */
export async function startSyncQueue(o: {
  databaseUrl: string;
  orm: MikroORM;
  runtime: LedgerPorts;
  logger: Logger;
  work: boolean;
}): Promise<SyncQueue> {
  const storage = poolUnitOfWork(o.orm);
  const boss = new PgBoss({ connectionString: o.databaseUrl, schema: QUEUE_SCHEMA, max: 4, supervise: true, schedule: false });
  boss.on('error', (err: Error) => o.logger.error({ err }, 'job queue error'));
  await oneProcessAtATime(o.databaseUrl, async () => {
    await boss.start();
    await boss.createQueue(LEDGER_SYNC_QUEUE, {
      name: LEDGER_SYNC_QUEUE,
      retryLimit: MAX_SYNC_ATTEMPTS - 1,
      retryDelay: o.runtime.settings.jobRetryDelaySeconds,
      expireInSeconds: 3600,
    });
  });
  let workerId: string | undefined;
  if (o.work) {
    workerId = await boss.work<{ runId: string }>(
      LEDGER_SYNC_QUEUE,
      { pollingIntervalSeconds: o.runtime.settings.jobPollMs / 1000, batchSize: 1, includeMetadata: true },
      async (jobs) => {
        for (const job of jobs) {
          // One attempt of a run at a time: an attempt that cannot take the lease stops without touching the run.
          const lease = await takeRunLease(o.databaseUrl, job.data.runId);
          if (!lease) {
            o.logger.warn({ syncRunId: job.data.runId }, 'another attempt holds the sync run; trying later');
            throw new Error('another attempt holds this sync run');
          }
          let outcome: Awaited<ReturnType<typeof importRun>>;
          try {
            const lastAttempt = job.retryCount >= job.retryLimit;
            const attempt = { runId: job.data.runId, maxAttempts: MAX_SYNC_ATTEMPTS, lastAttempt, logger: o.logger, leaseLost: lease.lost };
            // One trace per attempt: the import, its SQL statements and its provider calls.
            outcome = await inSpan('ledger_sync.import_run', (s, a) => importRun(s, o.runtime, a), storage, attempt);
          } finally {
            await lease.release();
          }
          // Throwing hands the job back to pg-boss, which retries it after retryDelay; the run resumes from its cursor.
          if (outcome === 'retry') throw new Error('transient ledger failure; retrying');
        }
      },
    );
  }
  // svc_job_queue_depth, read when Prometheus scrapes.
  const stopReporting = observeQueueDepth(() => boss.getQueueSize(LEDGER_SYNC_QUEUE));
  const port: SyncQueuePort = {
    enqueue: async (runId, jobId) => {
      const id = await boss.send(LEDGER_SYNC_QUEUE, { runId }, { id: jobId });
      // Sending the same id again is a no-op (null): fine when that job exists.
      if (!id && !(await boss.getJobById(LEDGER_SYNC_QUEUE, jobId))) throw new Error('job queue refused the job');
      // This process's worker fetches it now instead of at its next poll (LEDGER_JOB_POLL_MS); the workers of other
      // processes still find it by polling.
      if (id && workerId) boss.notifyWorker(workerId);
    },
    jobState: async (jobId) => (await port.job(jobId))?.state ?? null,
    job: async (jobId) => {
      const job = await boss.getJobById(LEDGER_SYNC_QUEUE, jobId, { includeArchive: true });
      return job ? { state: job.state, startedOn: job.startedOn ?? null } : null;
    },
    cancel: (jobId) => boss.cancel(LEDGER_SYNC_QUEUE, jobId),
  };
  const reap = () => reapStuckRuns(storage, port, { leaseGraceMs: o.runtime.settings.leaseGraceMs });
  // Every worker reaps: a run whose worker died is failed once its lease expired, not only at the next sync request.
  const timer = o.work
    ? setInterval(
        () => void reap().catch((err: unknown) => o.logger.error({ err }, 'reaping stuck sync runs failed')),
        o.runtime.settings.reapIntervalMs,
      )
    : undefined;
  timer?.unref();
  return {
    ...port,
    reapStuckRuns: reap,
    stop: async () => {
      clearInterval(timer);
      stopReporting();
      await boss.stop({ graceful: true, wait: true, timeout: 5000 });
    },
  };
}
