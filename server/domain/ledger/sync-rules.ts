import type { SyncState } from '../../../contract/common/index.js';
import type { SyncEntityProgress } from '../../../contract/ledger.js';
import { providerDateTime } from './provider-time.js';

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
 * the last row read and `seenIds` the ids already read at exactly that time (the
 * tie set at the page boundary). While `tie` is set, the rows at that time are
 * walked in Id order: `tie.afterId` is the highest Id read and `startPosition` its
 * position in that order. `pastTie`: every row at that time was read.
 */
export interface PageCursor {
  lastUpdatedTime: string | null;
  startPosition: number;
  seenIds?: string[];
  tie?: { afterId: string | null };
  pastTie?: boolean;
}

/** Which rows the next query asks for: a scan in time order, or a walk of one tied time in Id order. */
export interface PageWindow {
  kind: 'scan' | 'tie';
  startPosition: number;
  maxResults: number;
}

type Row = { Id?: unknown; MetaData?: { LastUpdatedTime?: string } };
/**
 * A row's time as the provider compares it: to the second, in one form (`providerDateTime`), whatever fraction or
 * offset it was written with. Two rows in the same second are tied, as the provider's `=` and `>=` treat them; told
 * apart by their text (milliseconds, another offset), a page boundary inside one second never settled and the scan
 * read that second again forever.
 */
const timeOf = (r: Row): string | null => {
  const written = r.MetaData?.LastUpdatedTime;
  if (written === undefined) return null;
  const ms = Date.parse(written);
  return Number.isNaN(ms) ? written : providerDateTime(new Date(ms));
};
const idOf = (r: Row) => String(r.Id);

/** The provider's Id order: numeric ids by value, any other by their text. */
export function compareIds(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Whether the rows at the cursor's time are to be walked in Id order. The provider
 * documents no order among rows sharing a `LastUpdatedTime` (second precision; a
 * bulk import makes thousands), and its query language has AND only, so no
 * `(time, Id)` keyset can be written. A small tie set at a page boundary is read
 * again from position 1 and its seen ids skipped; one that fills a page (or
 * would not fit the provider's 1000-row cap when read again) is walked alone
 * (`= time`, `orderby Id`), the one order the provider keeps stable between pages.
 */
function walksTie(cursor: PageCursor, pageSize: number): boolean {
  if (cursor.tie) return true;
  if (cursor.pastTie) return false;
  const seen = cursor.seenIds?.length ?? 0;
  return seen >= pageSize || seen + pageSize > QUERY_MAX_RESULTS;
}

/** The window of the next query for this cursor (docs/ledger-sync.md). */
export function pageWindow(cursor: PageCursor | null, pageSize: number): PageWindow {
  if (!cursor || cursor.lastUpdatedTime === null) return { kind: 'scan', startPosition: 1, maxResults: pageSize };
  if (walksTie(cursor, pageSize)) {
    // One row of overlap: the last row read must come back first, or rows before it left the tie set and the walk steps back.
    const overlap = cursor.tie?.afterId ? 1 : 0;
    return { kind: 'tie', startPosition: Math.max(1, cursor.startPosition), maxResults: Math.min(QUERY_MAX_RESULTS, pageSize + overlap) };
  }
  if (cursor.pastTie) return { kind: 'scan', startPosition: 1, maxResults: pageSize };
  return { kind: 'scan', startPosition: 1, maxResults: (cursor.seenIds?.length ?? 0) + pageSize };
}

/**
 * Digest one answer of `pageWindow`: the rows not read before (`fresh`), whether
 * the entity is exhausted (`last`: a scan with fewer rows than asked) and the next
 * cursor. A walk page whose first row is past the last Id read (rows before it
 * left the tie set since) is not used: the walk steps back a page and reads again.
 */
export function nextPage(
  cursor: PageCursor | null,
  window: PageWindow,
  rows: Row[],
  pageSize: number,
): { fresh: Row[]; last: boolean; cursor: PageCursor | null } {
  const seen = new Set(cursor?.seenIds ?? []);
  if (window.kind === 'tie') {
    const time = cursor!.lastUpdatedTime;
    const afterId = cursor!.tie?.afterId ?? null;
    const start = window.startPosition;
    const first = rows[0];
    if (start > 1 && (!first || afterId === null || compareIds(idOf(first), afterId) > 0))
      return { fresh: [], last: false, cursor: { ...cursor!, startPosition: Math.max(1, start - pageSize) } };
    const fresh = rows.filter((r) => (afterId === null || compareIds(idOf(r), afterId) > 0) && !seen.has(idOf(r)));
    if (rows.length < window.maxResults) return { fresh, last: false, cursor: { lastUpdatedTime: time, startPosition: 1, pastTie: true } };
    const lastId = idOf(rows[rows.length - 1]!);
    const highest = afterId !== null && compareIds(afterId, lastId) > 0 ? afterId : lastId;
    return {
      fresh,
      last: false,
      cursor: { lastUpdatedTime: time, startPosition: start + rows.length - 1, seenIds: [...seen], tie: { afterId: highest } },
    };
  }
  const last = rows.length < window.maxResults;
  if (rows.length === 0) return { fresh: [], last, cursor };
  const boundary = cursor && !cursor.pastTie ? cursor.lastUpdatedTime : null;
  const fresh = rows.filter((r) => !(boundary !== null && timeOf(r) === boundary && seen.has(idOf(r))));
  const end = timeOf(rows[rows.length - 1]!);
  const atEnd = rows.filter((r) => timeOf(r) === end).map(idOf);
  const ids = end === boundary ? [...new Set([...seen, ...atEnd])] : atEnd;
  const next: PageCursor = { lastUpdatedTime: end, startPosition: ids.length + 1, seenIds: ids };
  if (!last && walksTie(next, pageSize)) return { fresh, last, cursor: { ...next, startPosition: 1, tie: { afterId: null } } };
  return { fresh, last, cursor: next };
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
  const w = pageWindow(o.cursor, o.pageSize);
  const page = `startposition ${w.startPosition} maxresults ${w.maxResults}`;
  if (w.kind === 'tie')
    return `select * from ${o.entity} where MetaData.LastUpdatedTime = '${providerDateTime(o.cursor!.lastUpdatedTime!)}' orderby Id ${page}`;
  const at = o.cursor?.lastUpdatedTime ?? null;
  const from = at ?? (o.reconcile ? undefined : o.periodStart);
  const where = [
    ...(from ? [`MetaData.LastUpdatedTime ${at !== null && o.cursor?.pastTie ? '>' : '>='} '${providerDateTime(from)}'`] : []),
    ...(o.reconcile ? [] : [`MetaData.LastUpdatedTime <= '${providerDateTime(o.periodEnd)}'`]),
  ];
  const filter = where.length ? ` where ${where.join(' and ')}` : '';
  return `select * from ${o.entity}${filter} orderby MetaData.LastUpdatedTime ${page}`;
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
 * What to do with a `queued` or `running` run found when a sync is requested or
 * by the worker's reaper timer (docs/ledger-sync.md). A run is left alone while
 * an attempt holds its lease or its job can still be delivered (`created`,
 * `retry`). A job `active` for longer than `leaseGraceMs` with nobody holding the
 * lease was taken by a worker that died (a live handler takes the lease as it
 * starts, and a dead one's lease freed itself with its connection): `expired`.
 * A queued run whose job was never sent is sent again. Otherwise its job is gone
 * (completed, failed, cancelled, or missing after it started) and nothing will
 * ever finish the run: it is failed.
 */
export function reapDecision(o: {
  state: 'queued' | 'running';
  jobState: string | null;
  leaseHeld: boolean;
  /** When the job was last handed to a worker (pg-boss `startedOn`). */
  jobStartedAt?: Date | null;
  now?: Date;
  leaseGraceMs?: number;
}): 'keep' | 'resend' | 'fail' | 'expired' {
  if (o.leaseHeld) return 'keep';
  if (o.jobState === 'active') {
    const started = o.jobStartedAt?.getTime();
    const expired = started !== undefined && o.now !== undefined && o.now.getTime() - started > (o.leaseGraceMs ?? Infinity);
    return expired ? 'expired' : 'keep';
  }
  if (o.jobState === 'created' || o.jobState === 'retry') return 'keep';
  if (o.jobState === null) return o.state === 'queued' ? 'resend' : 'fail';
  return 'fail';
}
