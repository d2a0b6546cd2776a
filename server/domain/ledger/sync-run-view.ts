import type { SyncRunView } from '../../../contract/ledger.js';
import type { SyncRun } from './types.js';
import { isoTimestamp } from '../timestamps.js';
import { emptyProgress, publicProgress, SYNC_ENTITIES, type EntityProgress } from './sync-rules.js';

/** The public shape of a run (endpoint 16, admin): counts, cursors and safe error summaries only. */
export function toSyncRunView(run: SyncRun): SyncRunView {
  const stored = run.entities as Partial<Record<string, EntityProgress>>;
  const entities = Object.fromEntries(
    SYNC_ENTITIES.map((e) => [e, publicProgress({ ...emptyProgress(), ...stored[e] })]),
  ) as SyncRunView['entities'];
  const all = Object.values(entities);
  return {
    id: run.id,
    connectionId: run.realmId,
    workflowRunId: run.workflowRunId,
    state: run.state,
    mode: run.mode,
    fullReconciliation: run.fullReconciliation,
    sourcePeriodStart: isoTimestamp(run.periodStart),
    sourcePeriodEnd: isoTimestamp(run.periodEnd),
    createdAt: isoTimestamp(run.createdAt),
    startedAt: isoTimestamp(run.startedAt),
    completedAt: isoTimestamp(run.completedAt),
    progress: {
      entitiesDone: all.filter((p) => p.state === 'done').length,
      entitiesTotal: all.length,
      recordsStored: all.reduce((n, p) => n + p.created + p.updated + p.unchanged, 0),
    },
    entities,
    error: run.error,
  };
}
