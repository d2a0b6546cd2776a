import type { SyncRun } from './types.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { LedgerStore, SyncQueuePort } from './ports.js';
import { reapDecision } from './sync-rules.js';

const LOST = {
  fail: { code: 'job_lost', message: "The run's background job ended without finishing it" },
  expired: { code: 'job_lost', message: 'The worker running the sync stopped without finishing it (its lease expired)' },
} as const;

/**
 * Decide on one `queued`/`running` run inside the caller's transaction (which
 * holds the run's lease while it lasts, so no attempt starts meanwhile) and fail
 * it when nothing will finish it. The caller acts after commit: `resend` sends
 * the job again, `expired` cancels the job the dead worker still holds.
 */
export async function reapRun(
  { ledger }: { ledger: LedgerStore },
  queue: SyncQueuePort,
  run: Pick<SyncRun, 'id' | 'state' | 'workflowRunId'>,
  o: { now: Date; leaseGraceMs: number },
): Promise<'keep' | 'resend' | 'fail' | 'expired'> {
  const leaseHeld = !(await ledger.runLeaseFree(run.id));
  const job = leaseHeld ? null : await queue.job(run.workflowRunId);
  const decision = reapDecision({
    state: run.state as 'queued' | 'running',
    jobState: job?.state ?? null,
    leaseHeld,
    jobStartedAt: job?.startedOn ?? null,
    now: o.now,
    leaseGraceMs: o.leaseGraceMs,
  });
  if (decision === 'fail' || decision === 'expired') await ledger.finishRun(run.id, 'failed', LOST[decision], o.now);
  return decision;
}

/** After the deciding transaction committed: re-send a never-sent job, cancel a dead worker's job. */
export async function afterReap(queue: SyncQueuePort, run: Pick<SyncRun, 'id' | 'workflowRunId'>, decision: string): Promise<void> {
  if (decision === 'resend') await queue.enqueue(run.id, run.workflowRunId).catch(() => undefined);
  if (decision === 'expired') await queue.cancel(run.workflowRunId).catch(() => undefined);
}

/**
 * The workers' reaper timer (docs/ledger-sync.md): every `queued`/`running` run
 * is checked as a sync request would check it, so a run whose worker died is
 * failed once its lease expired, without waiting for the next request. Runs
 * another transaction has locked are skipped (checked on the next tick).
 * Returns the runs it acted on.
 */
export async function reapStuckRuns(
  storage: UnitOfWork<{ ledger: LedgerStore }>,
  queue: SyncQueuePort,
  o: { leaseGraceMs: number; limit?: number; now?: () => Date },
): Promise<{ runId: string; decision: 'resend' | 'fail' | 'expired' }[]> {
  const candidates = await storage.store.ledger.openRunIds(o.limit ?? 100);
  const acted: { runId: string; decision: 'resend' | 'fail' | 'expired' }[] = [];
  for (const id of candidates) {
    // One transaction per run: a run another transaction holds is skipped, the others are decided on their own.
    const outcome = await storage.transaction(async (store) => {
      const { ledger } = store;
      if (!(await ledger.lockRunUnlessLocked(id))) return undefined;
      const run = await ledger.runById(id);
      if (!run || (run.state !== 'queued' && run.state !== 'running')) return undefined;
      return { run, decision: await reapRun(store, queue, run, { now: o.now?.() ?? new Date(), leaseGraceMs: o.leaseGraceMs }) };
    });
    if (!outcome || outcome.decision === 'keep') continue;
    await afterReap(queue, outcome.run, outcome.decision);
    acted.push({ runId: id, decision: outcome.decision });
  }
  return acted;
}
