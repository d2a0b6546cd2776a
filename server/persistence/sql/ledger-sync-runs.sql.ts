import type { SyncState } from '../../../contract/common/index.js';
import { withDates, type Sql, type TenantScope } from './sql.js';
import { syncRunMetrics } from '../../observability/business-metrics.js';

export interface SyncRunRow {
  id: string;
  connection_id: string;
  workflow_run_id: string;
  state: SyncState;
  mode: 'historical' | 'incremental' | 'full';
  full_reconciliation: boolean;
  period_start: Date | null;
  period_end: Date | null;
  entities: Record<string, unknown>;
  error: { code: string; message: string } | null;
  attempts: number;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  realm_id?: string;
}

const withRealm = `select r.*, c.realm_id from ledger_sync_runs r join ledger_connections c on c.id = r.connection_id`;
const runs = withDates<SyncRunRow>(['period_start', 'period_end', 'created_at', 'started_at', 'completed_at']);

export async function activeRun(sql: Sql, connectionId: string): Promise<SyncRunRow | undefined> {
  return runs(
    await sql(`${withRealm} where r.connection_id = ? and r.state in ('queued', 'running') order by r.created_at desc limit 1`, [
      connectionId,
    ]),
  )[0];
}

export async function latestRun(sql: Sql, connectionId: string): Promise<SyncRunRow | undefined> {
  return runs(await sql(`${withRealm} where r.connection_id = ? order by r.created_at desc, r.id desc limit 1`, [connectionId]))[0];
}

export async function runById(sql: Sql, id: string, lock = false): Promise<SyncRunRow | undefined> {
  return runs(await sql(`${withRealm} where r.id = ?${lock ? ' for update of r' : ''}`, [id]))[0];
}

export async function insertRun(
  sql: Sql,
  r: {
    id: string;
    scope: TenantScope;
    connectionId: string;
    workflowRunId: string;
    mode: string;
    fullReconciliation: boolean;
    periodStart: Date | null;
    periodEnd: Date;
    entities: unknown;
    now: Date;
  },
): Promise<void> {
  await sql(
    `insert into ledger_sync_runs (id, organization_id, integration_id, environment, connection_id, workflow_run_id, state, mode, full_reconciliation,
       period_start, period_end, entities, attempts, created_at) values (?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?::jsonb, 0, ?)`,
    [
      r.id,
      r.scope.organizationId,
      r.scope.integrationId,
      r.scope.environment,
      r.connectionId,
      r.workflowRunId,
      r.mode,
      r.fullReconciliation,
      r.periodStart,
      r.periodEnd,
      JSON.stringify(r.entities),
      r.now,
    ],
  );
}

export const startRunAttempt = (sql: Sql, id: string, now: Date) =>
  sql(
    `update ledger_sync_runs set state = 'running', started_at = coalesce(started_at, ?), attempts = attempts + 1, error = null where id = ? and state in ('queued', 'running')`,
    [now, id],
  );

/** Progress of a run still in progress only: a run failed meanwhile (operator, reaper) keeps what it showed then. */
export const saveRunEntities = (sql: Sql, id: string, entities: unknown) =>
  sql(`update ledger_sync_runs set entities = ?::jsonb where id = ? and state in ('queued', 'running')`, [JSON.stringify(entities), id]);

export const recordRunError = (sql: Sql, id: string, error: { code: string; message: string }) =>
  sql(`update ledger_sync_runs set error = ?::jsonb where id = ?`, [JSON.stringify(error), id]);

/**
 * A queued or running run becomes final. Every final state is written here, so
 * this is where a run's end is counted (svc_sync_runs_total and its duration):
 * only when this statement made it final, never twice when two parties race to end it.
 */
export async function finishRun(
  sql: Sql,
  id: string,
  state: 'succeeded' | 'failed',
  error: { code: string; message: string } | null,
  now: Date,
): Promise<void> {
  const ended = await sql<{ created_at: string | Date }>(
    `update ledger_sync_runs set state = ?, error = ?::jsonb, completed_at = ? where id = ? and state in ('queued', 'running') returning created_at`,
    [state, error ? JSON.stringify(error) : null, now, id],
  );
  const createdAt = ended[0]?.created_at;
  if (createdAt !== undefined) syncRunMetrics.finished(state, error?.code ?? null, (now.getTime() - new Date(createdAt).getTime()) / 1000);
}

/** Move the checkpoint forward only (never back), in the run's completing transaction. */
export const advanceCheckpoint = (sql: Sql, connectionId: string, through: Date) =>
  sql(`update ledger_connections set checked_through = greatest(coalesce(checked_through, ?), ?), updated_at = now() where id = ?`, [
    through,
    through,
    connectionId,
  ]);

export async function listRuns(
  sql: Sql,
  f: { connectionId?: string; state?: string; before?: { createdAt: Date; id: string }; limit: number },
) {
  const where: string[] = [];
  const params: unknown[] = [];
  const filter = (condition: string, ...values: unknown[]) => {
    where.push(condition);
    params.push(...values);
  };
  if (f.connectionId) filter('c.realm_id = ?', f.connectionId);
  if (f.state) filter('r.state = ?', f.state);
  if (f.before) filter('(r.created_at, r.id) < (?, ?)', f.before.createdAt, f.before.id);
  return runs(
    await sql(`${withRealm} ${where.length ? `where ${where.join(' and ')}` : ''} order by r.created_at desc, r.id desc limit ?`, [
      ...params,
      f.limit,
    ]),
  );
}

/** The advisory-lock key of a run's lease (server/jobs/run-lease.ts); `?` is the run id. */
export const RUN_LEASE_KEY_SQL = `hashtextextended('ledger_sync_run:' || ?::text, 0)`;

/** True when no attempt holds the run's lease; the check holds the lock until the caller's transaction ends. */
export async function runLeaseFree(sql: Sql, runId: string): Promise<boolean> {
  return (await sql<{ free: boolean }>(`select pg_try_advisory_xact_lock(${RUN_LEASE_KEY_SQL}) as free`, [runId]))[0]?.free === true;
}
