import { sql as expression, type Selectable } from 'kysely';
import type { SyncState } from '../../../contract/common/index.js';
import type { SyncMode, SyncRun, SyncRunError } from '../../domain/ledger/types.js';
import { syncRunMetrics } from '../../observability/business-metrics.js';
import { db, first, run, type Database } from '../db/query.js';
import type { TenantScope } from '../../domain/tenant-scope.js';
import type { Sql } from './sql.js';

const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

const runOf = (row: Selectable<Database['ledger_sync_runs']> & { realm_id: string }): SyncRun => ({
  id: row.id,
  connectionId: row.connection_id,
  realmId: row.realm_id,
  workflowRunId: row.workflow_run_id,
  state: row.state,
  mode: row.mode,
  fullReconciliation: row.full_reconciliation,
  periodStart: dateOrNull(row.period_start),
  periodEnd: dateOrNull(row.period_end),
  entities: row.entities as Record<string, unknown>,
  error: row.error as SyncRunError | null,
  attempts: row.attempts,
  createdAt: new Date(row.created_at),
  startedAt: dateOrNull(row.started_at),
  completedAt: dateOrNull(row.completed_at),
});

/** A run with its connection's realm (the public `connectionId`). */
const runs = () =>
  db
    .selectFrom('ledger_sync_runs as r')
    .innerJoin('ledger_connections as c', 'c.id', 'r.connection_id')
    .selectAll('r')
    .select('c.realm_id');

const OPEN: SyncState[] = ['queued', 'running'];

export async function activeRun(sql: Sql, connectionId: string): Promise<SyncRun | undefined> {
  const row = await first(
    sql,
    runs().where('r.connection_id', '=', connectionId).where('r.state', 'in', OPEN).orderBy('r.created_at', 'desc').limit(1),
  );
  return row && runOf(row);
}

export async function latestRun(sql: Sql, connectionId: string): Promise<SyncRun | undefined> {
  const row = await first(
    sql,
    runs().where('r.connection_id', '=', connectionId).orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(1),
  );
  return row && runOf(row);
}

/** The run; `lock` holds its row (not the connection's) for the transaction. */
export async function runById(sql: Sql, id: string, lock = false): Promise<SyncRun | undefined> {
  const row = await first(
    sql,
    runs()
      .where('r.id', '=', id)
      .$if(lock, (q) => q.forUpdate('r')),
  );
  return row && runOf(row);
}

/** Ids of the queued and running runs, oldest first: what the reaper checks. */
export async function openRunIds(sql: Sql, limit: number): Promise<string[]> {
  const rows = await run(sql, db.selectFrom('ledger_sync_runs').select('id').where('state', 'in', OPEN).orderBy('created_at').limit(limit));
  return rows.map((r) => r.id);
}

/** Lock the run's row unless another transaction holds it; false when it does (or the run is gone). */
export async function lockRunUnlessLocked(sql: Sql, id: string): Promise<boolean> {
  const rows = await run(sql, db.selectFrom('ledger_sync_runs').select('id').where('id', '=', id).forUpdate().skipLocked());
  return rows.length > 0;
}

export async function insertRun(
  sql: Sql,
  r: {
    id: string;
    scope: TenantScope;
    connectionId: string;
    workflowRunId: string;
    mode: SyncMode;
    fullReconciliation: boolean;
    periodStart: Date | null;
    periodEnd: Date;
    entities: unknown;
    now: Date;
  },
): Promise<void> {
  await run(
    sql,
    db.insertInto('ledger_sync_runs').values({
      id: r.id,
      organization_id: r.scope.organizationId,
      integration_id: r.scope.integrationId,
      environment: r.scope.environment,
      connection_id: r.connectionId,
      workflow_run_id: r.workflowRunId,
      state: 'queued',
      mode: r.mode,
      full_reconciliation: r.fullReconciliation,
      period_start: r.periodStart,
      period_end: r.periodEnd,
      entities: JSON.stringify(r.entities),
      attempts: 0,
      created_at: r.now,
    }),
  );
}

export async function startRunAttempt(sql: Sql, id: string, now: Date): Promise<void> {
  await run(
    sql,
    db
      .updateTable('ledger_sync_runs')
      .set((eb) => ({
        state: 'running',
        started_at: eb.fn.coalesce('started_at', eb.val(now)),
        attempts: eb('attempts', '+', 1),
        error: null,
      }))
      .where('id', '=', id)
      .where('state', 'in', OPEN),
  );
}

/** Progress of a run still in progress only: a run failed meanwhile (operator, reaper) keeps what it showed then. */
export async function saveRunEntities(sql: Sql, id: string, entities: unknown): Promise<void> {
  await run(
    sql,
    db
      .updateTable('ledger_sync_runs')
      .set({ entities: JSON.stringify(entities) })
      .where('id', '=', id)
      .where('state', 'in', OPEN),
  );
}

export async function recordRunError(sql: Sql, id: string, error: SyncRunError): Promise<void> {
  await run(
    sql,
    db
      .updateTable('ledger_sync_runs')
      .set({ error: JSON.stringify(error) })
      .where('id', '=', id),
  );
}

/**
 * A queued or running run becomes final. Every final state is written here, so
 * this is where a run's end is counted (svc_sync_runs_total and its duration):
 * only when this statement made it final, never twice when two parties race to end it.
 */
export async function finishRun(sql: Sql, id: string, state: 'succeeded' | 'failed', error: SyncRunError | null, now: Date): Promise<void> {
  const ended = await first(
    sql,
    db
      .updateTable('ledger_sync_runs')
      .set({ state, error: error ? JSON.stringify(error) : null, completed_at: now })
      .where('id', '=', id)
      .where('state', 'in', OPEN)
      .returning('created_at'),
  );
  if (ended !== undefined)
    syncRunMetrics.finished(state, error?.code ?? null, (now.getTime() - new Date(ended.created_at).getTime()) / 1000);
}

/** Newest first, by keyset (`before` is the last run of the previous page); `connectionId` is the public one (the realm). */
export async function listRuns(
  sql: Sql,
  f: { connectionId?: string; state?: SyncState; before?: { createdAt: Date; id: string }; limit: number },
): Promise<SyncRun[]> {
  const { connectionId, state, before } = f;
  const rows = await run(
    sql,
    runs()
      .$if(!!connectionId, (q) => q.where('c.realm_id', '=', connectionId!))
      .$if(!!state, (q) => q.where('r.state', '=', state!))
      .$if(before !== undefined, (q) =>
        q.where((eb) => eb(eb.refTuple('r.created_at', 'r.id'), '<', eb.tuple(before!.createdAt.toISOString(), before!.id))),
      )
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(f.limit),
  );
  return rows.map(runOf);
}

/**
 * The advisory-lock key of a run's lease: the session lock the attempt holds
 * (server/jobs/run-lease.ts, `hashtextextended(key, 0)`) and the check below use
 * the same key.
 */
export const runLeaseKey = (runId: string) => `ledger_sync_run:${runId}`;

/** True when no attempt holds the run's lease; the check holds the lock until the caller's transaction ends. */
export async function runLeaseFree(sql: Sql, runId: string): Promise<boolean> {
  const row = await first(
    sql,
    db.selectNoFrom(expression<boolean>`pg_try_advisory_xact_lock(hashtextextended(${runLeaseKey(runId)}, 0))`.as('free')),
  );
  return row?.free === true;
}
