import type { ConnectionStatus } from '../../../contract/common/index.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { scopeOfConnection, type SyncRun } from './types.js';
import type { AuthContext } from '../auth/auth-context.js';
import { DomainError } from '../errors.js';
import { cardDataReferenceIssue, refusalMessage } from '../guard/secrets-guard.js';
import type { LedgerPorts, LedgerStore } from './ports.js';
import { emptyProgress, planSync, SYNC_ENTITIES } from './sync-rules.js';
import { afterReap, reapRun } from './reap-runs.js';
import { toSyncRunView } from './sync-run-view.js';
import type { SyncRunView } from '../../../contract/ledger.js';

type Storage = UnitOfWork<{ ledger: LedgerStore }>;

/** 404, except that a connection id naming nothing and holding a card number is refused like card data anywhere (400). */
function notFound(realmId: string): DomainError {
  // `connectionId` is the wire name of the company id.
  const cardData = cardDataReferenceIssue('connectionId', realmId);
  if (cardData) return new DomainError('validation_error', refusalMessage([cardData]), [cardData]);
  return new DomainError('not_found', "No such connection for this API key's integration");
}

const BLOCKED: Partial<Record<ConnectionStatus, string>> = {
  paused: 'The connection is paused; resume it before queueing a sync',
  disconnected: 'The connection is disconnected; reconnect it with a new invitation before queueing a sync',
  reauthorization_required: 'The connection needs reauthorization; send a new invitation and approve it, then queue again',
};

/**
 * Endpoint 15. Under a lock on the connection row: reuse queued or running work,
 * or insert a new queued run. After commit the job is sent to the queue with
 * `workflowRunId` as its id; if that fails the run is marked failed (500).
 */
export async function queueSync(
  storage: Storage,
  runtime: LedgerPorts,
  o: { ctx: Pick<AuthContext, 'integrationId'>; realmId: string; fullReconciliation: boolean; now?: Date },
): Promise<{ syncRunId: string; workflowRunId: string; created: boolean }> {
  const queue = runtime.queue;
  if (!queue) throw new DomainError('internal_error', 'The sync queue is not configured');
  const now = o.now ?? new Date();
  let reaped: { run: Pick<SyncRun, 'id' | 'workflowRunId'>; decision: string } | undefined;
  const result = await storage.transaction(async (store) => {
    const { ledger } = store;
    const conn = await ledger.findConnection(o.ctx.integrationId, o.realmId, true);
    if (!conn) throw notFound(o.realmId);
    const blocked = BLOCKED[conn.status];
    if (blocked) throw new DomainError('conflict', blocked);
    const existing = await ledger.activeRun(conn.id);
    if (existing) {
      // A run whose job is gone (or whose worker died) would be returned forever: reap it here and queue a new one.
      const decision = await reapRun(store, queue, existing, { now, leaseGraceMs: runtime.settings.leaseGraceMs });
      if (decision === 'keep' || decision === 'resend')
        return { syncRunId: existing.id, workflowRunId: existing.workflowRunId, created: false, reaped: { run: existing, decision } };
      reaped = { run: existing, decision };
    }
    const plan = planSync({
      checkedThrough: conn.checkedThrough,
      fullReconciliation: o.fullReconciliation,
      now,
      historyDays: runtime.settings.historyDays,
      reconcileAfterDays: runtime.settings.reconcileAfterDays,
    });
    const run = { id: crypto.randomUUID(), workflowRunId: crypto.randomUUID() };
    const entities = Object.fromEntries(SYNC_ENTITIES.map((e) => [e, emptyProgress()]));
    await ledger.insertRun({
      ...run,
      scope: scopeOfConnection(conn),
      connectionId: conn.id,
      mode: plan.mode,
      fullReconciliation: o.fullReconciliation || plan.mode === 'full',
      periodStart: plan.periodStart,
      periodEnd: plan.periodEnd,
      entities,
      now,
    });
    return { syncRunId: run.id, workflowRunId: run.workflowRunId, created: true, reaped };
  });
  const { reaped: done, ...answer } = result;
  // A queued run whose job was never sent (crash between commit and send) is sent again (idempotent); a dead worker's job is cancelled.
  if (done) await afterReap(queue, done.run, done.decision);
  if (result.created) {
    try {
      await queue.enqueue(result.syncRunId, result.workflowRunId);
    } catch {
      await storage.store.ledger.finishRun(
        result.syncRunId,
        'failed',
        { code: 'queue_unavailable', message: 'The job queue did not accept the run' },
        new Date(),
      );
      throw new DomainError('internal_error', 'The sync could not be queued; retry with back-off');
    }
  }
  return answer;
}

/** Endpoint 16: the latest run of a connection in the key's scope, or null. */
export async function getLatestSyncRun(storage: Storage, o: { ctx: AuthContext; realmId: string }): Promise<SyncRunView | null> {
  const { ledger } = storage.store;
  const conn = await ledger.findConnection(o.ctx.integrationId, o.realmId);
  if (!conn) throw notFound(o.realmId);
  const run = await ledger.latestRun(conn.id);
  return run ? toSyncRunView(run) : null;
}
