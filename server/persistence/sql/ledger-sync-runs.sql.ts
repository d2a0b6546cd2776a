import { sql } from 'kysely';
import type { SyncState } from '../../../contract/common/index.js';
import type { SyncMode, SyncRun, SyncRunError } from '../../domain/ledger/types.js';
import { syncRunMetrics } from '../../observability/business-metrics.js';
import type { TenantScope } from '../../domain/tenant-scope.js';
import type { Database } from '../kysely.js';

/** A run with its connection's realm (the public `connectionId`); `error` holds what `finishRun`/`recordRunError` wrote. */
const runs = (db: Database) =>
  db
    .selectFrom('ledger_sync_runs as r')
    .innerJoin('ledger_connections as c', 'c.id', 'r.connection')
    .select([
      'r.id',
      'r.connection as connectionId',
      'c.realmId',
      'r.workflowRunId',
      'r.state',
      'r.mode',
      'r.fullReconciliation',
      'r.periodStart',
      'r.periodEnd',
      'r.entities',
      'r.error',
      'r.attempts',
      'r.createdAt',
      'r.startedAt',
      'r.completedAt',
    ])
    .$narrowType<{ error: SyncRunError | null }>();

const OPEN: SyncState[] = ['queued', 'running'];

export async function activeRun(db: Database, connectionId: string): Promise<SyncRun | undefined> {
  return runs(db)
    .where('r.connection', '=', connectionId)
    .where('r.state', 'in', OPEN)
    .orderBy('r.createdAt', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function latestRun(db: Database, connectionId: string): Promise<SyncRun | undefined> {
  return runs(db)
    .where('r.connection', '=', connectionId)
    .orderBy('r.createdAt', 'desc')
    .orderBy('r.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The run; `lock` holds its row (not the connection's) for the transaction. */
export async function runById(db: Database, id: string, lock = false): Promise<SyncRun | undefined> {
  return runs(db)
    .where('r.id', '=', id)
    .$if(lock, (q) => q.forUpdate('r'))
    .executeTakeFirst();
}

/** Ids of the queued and running runs, oldest first: what the reaper checks. */
export async function openRunIds(db: Database, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('ledger_sync_runs').select('id').where('state', 'in', OPEN).orderBy('createdAt').limit(limit).execute();
  return rows.map((r) => r.id);
}

/** Lock the run's row unless another transaction holds it; false when it does (or the run is gone). */
export async function lockRunUnlessLocked(db: Database, id: string): Promise<boolean> {
  const rows = await db.selectFrom('ledger_sync_runs').select('id').where('id', '=', id).forUpdate().skipLocked().execute();
  return rows.length > 0;
}

export async function insertRun(
  db: Database,
  r: {
    id: string;
    scope: TenantScope;
    connectionId: string;
    workflowRunId: string;
    mode: SyncMode;
    fullReconciliation: boolean;
    periodStart: Date | null;
    periodEnd: Date;
    entities: Record<string, unknown>;
    now: Date;
  },
): Promise<void> {
  await db
    .insertInto('ledger_sync_runs')
    .values({
      id: r.id,
      organization: r.scope.organizationId,
      integration: r.scope.integrationId,
      environment: r.scope.environment,
      connection: r.connectionId,
      workflowRunId: r.workflowRunId,
      state: 'queued',
      mode: r.mode,
      fullReconciliation: r.fullReconciliation,
      periodStart: r.periodStart,
      periodEnd: r.periodEnd,
      entities: r.entities,
      attempts: 0,
      createdAt: r.now,
    })
    .execute();
}

export async function startRunAttempt(db: Database, id: string, now: Date): Promise<void> {
  await db
    .updateTable('ledger_sync_runs')
    .set((eb) => ({
      state: 'running' as const,
      startedAt: eb.fn.coalesce('startedAt', eb.val(now)),
      attempts: eb('attempts', '+', 1),
      error: null,
    }))
    .where('id', '=', id)
    .where('state', 'in', OPEN)
    .execute();
}

/** Progress of a run still in progress only: a run failed meanwhile (operator, reaper) keeps what it showed then. */
export async function saveRunEntities(db: Database, id: string, entities: Record<string, unknown>): Promise<void> {
  await db.updateTable('ledger_sync_runs').set({ entities }).where('id', '=', id).where('state', 'in', OPEN).execute();
}

export async function recordRunError(db: Database, id: string, error: SyncRunError): Promise<void> {
  await db.updateTable('ledger_sync_runs').set({ error }).where('id', '=', id).execute();
}

/**
 * A queued or running run becomes final. Every final state is written here, so
 * this is where a run's end is counted (svc_sync_runs_total and its duration):
 * only when this statement made it final, never twice when two parties race to end it.
 */
export async function finishRun(
  db: Database,
  id: string,
  state: 'succeeded' | 'failed',
  error: SyncRunError | null,
  now: Date,
): Promise<void> {
  const ended = await db
    .updateTable('ledger_sync_runs')
    .set({ state, error, completedAt: now })
    .where('id', '=', id)
    .where('state', 'in', OPEN)
    .returning('createdAt')
    .executeTakeFirst();
  if (ended !== undefined) syncRunMetrics.finished(state, error?.code ?? null, (now.getTime() - ended.createdAt.getTime()) / 1000);
}

/** Newest first, by keyset (`before` is the last run of the previous page); `realmId` is the public `connectionId`. */
export async function listRuns(
  db: Database,
  f: { realmId?: string; state?: SyncState; before?: { createdAt: Date; id: string }; limit: number },
): Promise<SyncRun[]> {
  const { realmId, state, before } = f;
  return runs(db)
    .$if(!!realmId, (q) => q.where('c.realmId', '=', realmId!))
    .$if(!!state, (q) => q.where('r.state', '=', state!))
    .$if(before !== undefined, (q) => q.where((eb) => eb(eb.refTuple('r.createdAt', 'r.id'), '<', eb.tuple(before!.createdAt, before!.id))))
    .orderBy('r.createdAt', 'desc')
    .orderBy('r.id', 'desc')
    .limit(f.limit)
    .execute();
}

/**
 * The advisory-lock key of a run's lease: the session lock the attempt holds
 * (server/jobs/run-lease.ts, `hashtextextended(key, 0)`) and the check below use
 * the same key.
 */
export const runLeaseKey = (runId: string) => `ledger_sync_run:${runId}`;

/** True when no attempt holds the run's lease; the check holds the lock until the caller's transaction ends. */
export async function runLeaseFree(db: Database, runId: string): Promise<boolean> {
  const row = await db
    .selectNoFrom(sql<boolean>`pg_try_advisory_xact_lock(hashtextextended(${runLeaseKey(runId)}, 0))`.as('free'))
    .executeTakeFirst();
  return row?.free === true;
}
