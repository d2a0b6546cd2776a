import type { EntityManager } from '@mikro-orm/postgresql';
import type { ConnectionStatus } from '../../../contract/common/index.js';
import { findConnection } from '../../persistence/sql/ledger-connections.sql.js';
import { activeRun, finishRun, insertRun, latestRun } from '../../persistence/sql/ledger-sync-runs.sql.js';
import { sqlOf } from '../../persistence/sql/sql.js';
import { scopeOfConnection, type SyncRun } from './types.js';
import type { AuthContext } from '../auth/auth-context.js';
import { DomainError } from '../errors.js';
import { cardDataReferenceIssue, refusalMessage } from '../guard/secrets-guard.js';
import type { LedgerPorts } from './ports.js';
import { emptyProgress, planSync, SYNC_ENTITIES } from './sync-rules.js';
import { afterReap, reapRun } from './reap-runs.js';
import { toSyncRunView } from './sync-run-view.js';
import type { SyncRunView } from '../../../contract/ledger.js';

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
  em: EntityManager,
  runtime: LedgerPorts,
  o: { ctx: Pick<AuthContext, 'integrationId'>; realmId: string; fullReconciliation: boolean; now?: Date },
): Promise<{ syncRunId: string; workflowRunId: string; created: boolean }> {
  const queue = runtime.queue;
  if (!queue) throw new DomainError('internal_error', 'The sync queue is not configured');
  const now = o.now ?? new Date();
  let reaped: { run: Pick<SyncRun, 'id' | 'workflowRunId'>; decision: string } | undefined;
  const result = await em.transactional(async (tem) => {
    const sql = sqlOf(tem);
    const conn = await findConnection(sql, o.ctx.integrationId, o.realmId, true);
    if (!conn) throw notFound(o.realmId);
    const blocked = BLOCKED[conn.status];
    if (blocked) throw new DomainError('conflict', blocked);
    const existing = await activeRun(sql, conn.id);
    if (existing) {
      // A run whose job is gone (or whose worker died) would be returned forever: reap it here and queue a new one.
      const decision = await reapRun(sql, queue, existing, { now, leaseGraceMs: runtime.settings.leaseGraceMs });
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
    await insertRun(sql, {
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
      await finishRun(
        sqlOf(em),
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
export async function getLatestSyncRun(em: EntityManager, o: { ctx: AuthContext; realmId: string }): Promise<SyncRunView | null> {
  const sql = sqlOf(em);
  const conn = await findConnection(sql, o.ctx.integrationId, o.realmId);
  if (!conn) throw notFound(o.realmId);
  const run = await latestRun(sql, conn.id);
  return run ? toSyncRunView(run) : null;
}
