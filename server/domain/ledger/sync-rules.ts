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
export function planSync(o: {
  checkedThrough: Date | null;
  fullReconciliation: boolean;
  now: Date;
  historyDays: number;
  reconcileAfterDays: number;
}): {
  mode: SyncMode;
  periodStart: Date | null;
  periodEnd: Date;
} {
  const periodEnd = o.now;
  if (o.fullReconciliation) return { mode: 'full', periodStart: null, periodEnd };
  if (!o.checkedThrough) return { mode: 'historical', periodStart: new Date(o.now.getTime() - o.historyDays * 86_400_000), periodEnd };
  if (o.now.getTime() - o.checkedThrough.getTime() > o.reconcileAfterDays * 86_400_000)
    return { mode: 'full', periodStart: null, periodEnd };
  return { mode: 'incremental', periodStart: new Date(o.checkedThrough.getTime() - CHECKPOINT_OVERLAP_MS), periodEnd };
}

/**
 * Progress of one entity as stored in the run: the public fields plus the tie set
 * of the cursor and the way deletions are found (`deletions`, decided once per run).
 */
export type EntityProgress = Omit<SyncEntityProgress, 'cursor'> & { cursor: PageCursor | null; deletions?: 'cdc' | 'reconcile' | 'none' };

/** The public view of stored progress (contract: no internal fields). */
export function publicProgress(p: EntityProgress): SyncEntityProgress {
  const { state, pages, fetched, created, updated, unchanged, deleted, cursor, error } = p;
  const shown = cursor && { startPosition: cursor.startPosition, lastUpdatedTime: cursor.lastUpdatedTime };
  return { state, pages, fetched, created, updated, unchanged, deleted, cursor: shown, error };
}

export const emptyProgress = (): EntityProgress => ({
  state: 'pending',
  pages: 0,
  fetched: 0,
  created: 0,
  updated: 0,
  unchanged: 0,
  deleted: 0,
  cursor: null,
  error: null,
});

/** The provider answers at most this many rows per query (docs/provider-facts.md §4.6). */
export const QUERY_MAX_RESULTS = 1000;

/**
 * Page cursor of one entity, as stored in the run. `lastUpdatedTime` is the time of
 * the last row read; `seenIds` the ids already read at exactly that time (the tie
 * set at the page boundary); `startPosition` is one past the rows counted at that
 * time, used only when the tie set is too large to re-read (see `pageWindow`).
 */
export interface PageCursor {
  lastUpdatedTime: string | null;
  startPosition: number;
  seenIds?: string[];
}

type Row = { Id?: unknown; MetaData?: { LastUpdatedTime?: string } };
const timeOf = (r: Row) => r.MetaData?.LastUpdatedTime ?? null;
const idOf = (r: Row) => String(r.Id);

/**
 * Which rows of `>= lastUpdatedTime` the next query asks for. The query language
 * has AND only, so a two-column keyset (time, Id) cannot be written; instead the
 * whole tie set at the boundary time is read again from position 1 and the rows
 * already seen there are skipped by id (docs/ledger-sync.md). Rows in the tie set
 * may reorder or leave it (an update moves a row to a later time) without any
 * unseen row being skipped. When seen ties plus a page exceed the provider's
 * 1000-row cap, it falls back to skipping by count (best effort, documented).
 */
export function pageWindow(cursor: PageCursor | null, pageSize: number): { startPosition: number; maxResults: number } {
  if (!cursor) return { startPosition: 1, maxResults: pageSize };
  // A cursor written before seen ids were kept: skip by count as it was written.
  if (!cursor.seenIds) return { startPosition: cursor.startPosition, maxResults: pageSize };
  const want = cursor.seenIds.length + pageSize;
  if (want <= QUERY_MAX_RESULTS) return { startPosition: 1, maxResults: want };
  return { startPosition: cursor.startPosition, maxResults: pageSize };
}

/** Seen ids kept at one time at most (the count-based fallback takes over beyond it). */
const MAX_SEEN_IDS = QUERY_MAX_RESULTS;

/**
 * Digest one answer of `pageWindow`: the rows not read before (`fresh`), whether
 * the entity is exhausted (`last`: fewer rows than asked) and the next cursor.
 */
export function nextPage(
  cursor: PageCursor | null,
  window: { startPosition: number; maxResults: number },
  rows: Row[],
): { fresh: Row[]; last: boolean; cursor: PageCursor | null } {
  const last = rows.length < window.maxResults;
  if (rows.length === 0) return { fresh: [], last, cursor };
  const boundary = cursor?.lastUpdatedTime ?? null;
  const seen = new Set(cursor?.seenIds ?? []);
  const fresh = rows.filter((r) => !(boundary !== null && timeOf(r) === boundary && seen.has(idOf(r))));
  const end = timeOf(rows[rows.length - 1]!);
  const atEnd = rows.filter((r) => timeOf(r) === end);
  const sameTime = cursor !== null && end === boundary;
  const ids = sameTime ? [...new Set([...seen, ...atEnd.map(idOf)])] : atEnd.map(idOf);
  const startPosition = (sameTime ? window.startPosition - 1 : 0) + atEnd.length + 1;
  return { fresh, last, cursor: { lastUpdatedTime: end, startPosition, seenIds: ids.slice(-MAX_SEEN_IDS) } };
}

/**
 * The provider query for one page of one entity. A run's own period bounds it,
 * except when the entity is reconciled (every current record, whenever it last
 * changed, so records missing at the source can be told apart).
 */
export function pageStatement(o: {
  entity: SyncEntity;
  periodStart: Date | null;
  periodEnd: Date;
  cursor: PageCursor | null;
  pageSize: number;
  reconcile?: boolean;
}): string {
  if (o.entity === 'Preferences') return 'select * from Preferences';
  const from = o.cursor?.lastUpdatedTime ?? (o.reconcile ? undefined : o.periodStart?.toISOString());
  const where = [
    ...(from ? [`MetaData.LastUpdatedTime >= '${from}'`] : []),
    ...(o.reconcile ? [] : [`MetaData.LastUpdatedTime <= '${o.periodEnd.toISOString()}'`]),
  ];
  const w = pageWindow(o.cursor, o.pageSize);
  const filter = where.length ? ` where ${where.join(' and ')}` : '';
  return `select * from ${o.entity}${filter} orderby MetaData.LastUpdatedTime startposition ${w.startPosition} maxresults ${w.maxResults}`;
}

/** CDC looks back at most 30 days (docs/provider-facts.md §4.6). */
export const CDC_LOOKBACK_MS = 30 * 86_400_000;

/** A CDC answer holds at most this many objects; one that reaches it may be incomplete (docs/provider-facts.md §4.6). */
export const CDC_MAX_OBJECTS = 1000;

/**
 * How a run learns about records deleted at the source (docs/ledger-sync.md):
 * - `reconcile`: read every current record of the entity and mark stored ones not
 *   seen as deleted (full runs, and incremental runs whose start is beyond CDC's look-back);
 * - `cdc`: ask change data capture since the run's start (incremental runs);
 * - `none`: historical runs read a window only, so absence proves nothing.
 */
export function deletionStrategy(mode: SyncMode, periodStart: Date | null, now: Date): 'cdc' | 'reconcile' | 'none' {
  if (mode === 'full') return 'reconcile';
  if (mode === 'historical' || periodStart === null) return 'none';
  return now.getTime() - periodStart.getTime() < CDC_LOOKBACK_MS - 60_000 ? 'cdc' : 'reconcile';
}

/**
 * Whether a record missing from a reconciling read was deleted at the source.
 * Only for invoices: items are a name list that the provider inactivates rather
 * than deletes, and its default query leaves inactive items out, so an absent
 * item may still be referenced by invoices (docs/ledger-sync.md).
 */
export const absenceMeansDeleted = (entity: SyncEntity): boolean => entity === 'Invoice';

/**
 * A CDC answer for one entity at the cap may have dropped objects, deletions
 * included. CDC takes only `changedSince` (no end), so a window cannot be
 * narrowed to the part that overflowed: a later `changedSince` covers a suffix
 * and the earlier part stays unreadable. The entity is reconciled instead.
 */
export const cdcAnswerCapped = (objects: number) => objects >= CDC_MAX_OBJECTS;

/**
 * What to do with a `queued` or `running` run found when a sync is requested
 * (docs/ledger-sync.md). A run is left alone while an attempt holds its lease or
 * its job can still be delivered (`created`, `retry`, `active`: an expired job
 * comes back). A queued run whose job was never sent is sent again. Otherwise its
 * job is gone (completed, failed, cancelled, or missing after it started) and
 * nothing will ever finish the run: it is failed.
 */
export function reapDecision(o: { state: 'queued' | 'running'; jobState: string | null; leaseHeld: boolean }): 'keep' | 'resend' | 'fail' {
  if (o.leaseHeld) return 'keep';
  if (o.jobState === 'created' || o.jobState === 'retry' || o.jobState === 'active') return 'keep';
  if (o.jobState === null) return o.state === 'queued' ? 'resend' : 'fail';
  return 'fail';
}
