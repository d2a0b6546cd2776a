import type { SyncRunView } from '../../../contract/ledger.js';
import type { SyncRunRow } from '../../persistence/sql/ledger-sync-runs.sql.js';
import { isoTimestamp } from '../timestamps.js';
import { emptyProgress, publicProgress, SYNC_ENTITIES, type EntityProgress } from './sync-rules.js';

/** The public shape of a run (endpoint 16, admin): counts, cursors and safe error summaries only. */
export function toSyncRunView(row: SyncRunRow): SyncRunView {
  const stored = row.entities as Partial<Record<string, EntityProgress>>;
  const entities = Object.fromEntries(
    SYNC_ENTITIES.map((e) => [e, publicProgress({ ...emptyProgress(), ...stored[e] })]),
  ) as SyncRunView['entities'];
  const all = Object.values(entities);
  return {
    id: row.id,
    connectionId: row.realm_id ?? '',
    workflowRunId: row.workflow_run_id,
    state: row.state,
    mode: row.mode,
    fullReconciliation: row.full_reconciliation,
    sourcePeriodStart: isoTimestamp(row.period_start),
    sourcePeriodEnd: isoTimestamp(row.period_end),
    createdAt: isoTimestamp(row.created_at),
    startedAt: isoTimestamp(row.started_at),
    completedAt: isoTimestamp(row.completed_at),
    progress: {
      entitiesDone: all.filter((p) => p.state === 'done').length,
      entitiesTotal: all.length,
      recordsStored: all.reduce((n, p) => n + p.created + p.updated + p.unchanged, 0),
    },
    entities,
    error: row.error,
  };
}
