import type { SyncState } from '../../../contract/common/index.js';
import type { SyncEntityProgress } from '../../../contract/ledger.js';

export type { SyncState };
export type SyncMode = 'historical' | 'incremental' | 'full';
/** Import order: Preferences and Items first, since invoice mapping depends on them. */
export const SYNC_ENTITIES = ['Preferences', 'Item', 'Invoice'] as const;
export type SyncEntity = (typeof SYNC_ENTITIES)[number];

/** Allowed moves of a sync run (docs/ledger-sync.md). `running → running` is a resumed attempt. */
const MOVES: Record<SyncState, readonly SyncState[]> = {
  queued: ['running', 'failed'],
  running: ['running', 'succeeded', 'failed'],
  succeeded: [],
  failed: [],
};
export const canMove = (from: SyncState, to: SyncState) => MOVES[from].includes(to);

/** Overlap subtracted from the checkpoint so clock skew at the provider cannot hide a change. */
export const CHECKPOINT_OVERLAP_MS = 5 * 60_000;

/**
 * What a new run imports: full reconciliation when asked or when the checkpoint
 * is older than `reconcileAfterDays` (stale); a bounded historical window when
 * there is no checkpoint; otherwise changes since the checkpoint.
 */
export function planSync(o: { checkedThrough: Date | null; fullReconciliation: boolean; now: Date; historyDays: number; reconcileAfterDays: number }): {
  mode: SyncMode;
  periodStart: Date | null;
  periodEnd: Date;
} {
  const periodEnd = o.now;
  if (o.fullReconciliation) return { mode: 'full', periodStart: null, periodEnd };
  if (!o.checkedThrough) return { mode: 'historical', periodStart: new Date(o.now.getTime() - o.historyDays * 86_400_000), periodEnd };
  if (o.now.getTime() - o.checkedThrough.getTime() > o.reconcileAfterDays * 86_400_000) return { mode: 'full', periodStart: null, periodEnd };
  return { mode: 'incremental', periodStart: new Date(o.checkedThrough.getTime() - CHECKPOINT_OVERLAP_MS), periodEnd };
}

export const emptyProgress = (): SyncEntityProgress => ({ state: 'pending', pages: 0, fetched: 0, created: 0, updated: 0, unchanged: 0, deleted: 0, cursor: null, error: null });

/**
 * Keyset cursor over `MetaData.LastUpdatedTime`: the next page asks for times
 * `>= lastUpdatedTime` and skips the `startPosition - 1` rows at exactly that
 * time already stored. Robust to earlier rows changing mid-run (unlike plain
 * STARTPOSITION paging) and to more ties than a page.
 */
export function nextCursor(cursor: SyncEntityProgress['cursor'], rows: { MetaData?: { LastUpdatedTime?: string } }[]): SyncEntityProgress['cursor'] {
  if (rows.length === 0) return cursor;
  const last = rows[rows.length - 1]!.MetaData?.LastUpdatedTime ?? null;
  const ties = rows.filter((r) => (r.MetaData?.LastUpdatedTime ?? null) === last).length;
  const carried = cursor && cursor.lastUpdatedTime === last ? cursor.startPosition - 1 : 0;
  return { lastUpdatedTime: last, startPosition: carried + ties + 1 };
}

/** The provider query for one page of one entity within the run's source period. */
export function pageStatement(o: { entity: SyncEntity; periodStart: Date | null; periodEnd: Date; cursor: SyncEntityProgress['cursor']; pageSize: number }): string {
  if (o.entity === 'Preferences') return 'select * from Preferences';
  const from = o.cursor?.lastUpdatedTime ?? o.periodStart?.toISOString();
  const where = [...(from ? [`MetaData.LastUpdatedTime >= '${from}'`] : []), `MetaData.LastUpdatedTime <= '${o.periodEnd.toISOString()}'`];
  return `select * from ${o.entity} where ${where.join(' and ')} orderby MetaData.LastUpdatedTime startposition ${o.cursor?.startPosition ?? 1} maxresults ${o.pageSize}`;
}

/** CDC looks back at most 30 days (providers.md §4.6). */
export const CDC_LOOKBACK_MS = 30 * 86_400_000;

/** Deletions are read by CDC only for incremental runs whose start is inside the CDC look-back. */
export const wantsDeletions = (mode: SyncMode, periodStart: Date | null, now: Date) =>
  mode === 'incremental' && periodStart !== null && now.getTime() - periodStart.getTime() < CDC_LOOKBACK_MS - 60_000;
