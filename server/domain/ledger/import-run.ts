import { redactCardNumbers } from '../guard/redact-card-numbers.js';
import { isProviderIdentifier } from '../invoices/source-record.js';
import { remapAfterRun, storeAndMapInvoicePage, type ItemCache } from '../invoices/store-invoices.js';
import type { Logger } from '../../logger.js';
import type { InvoicePageStore } from '../invoices/ports-import.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { scopeOfConnection, type LedgerConnection, type SyncRun } from './types.js';
import type { LedgerConnectionClient, LedgerPorts, LedgerStore } from './ports.js';
import { ConnectionNoLongerActive, LedgerHttpError, ReauthorizationRequired, TokenOutcomeUnknown } from './provider-errors.js';
import {
  cdcAnswerCapped,
  absenceMeansDeleted,
  deletionStrategy,
  emptyProgress,
  nextPage,
  pageStatement,
  pageWindow,
  SYNC_ENTITIES,
  type EntityProgress,
  type SyncEntity,
} from './sync-rules.js';

/** What an import writes: its own ledger rows, and the stored invoices it maps (in one transaction per page). */
type Stores = { ledger: LedgerStore; invoicePages: InvoicePageStore };
type Storage = UnitOfWork<Stores>;

/** The connection was paused, disconnected or lost authorization while the run was going. */
class ConnectionInactive extends Error {
  constructor(readonly status: string) {
    super(`connection ${status}`);
  }
}

/**
 * This attempt must stop without writing anything more: the run was ended
 * meanwhile (operator `syncRuns.fail`, reaper) or the attempt lost its lease.
 */
class AttemptStopped extends Error {}

/** A safe summary of a failure for the run's `error` (no tokens, no provider bodies). */
function summarize(err: unknown): { code: string; message: string } {
  if (err instanceof ConnectionInactive)
    return {
      code: 'connection_not_active',
      message: `The connection became ${err.status} during the run`,
    };
  if (err instanceof ConnectionNoLongerActive)
    return {
      code: 'connection_not_active',
      message: 'The connection stopped being active during the run; refreshed tokens were not stored',
    };
  if (err instanceof ReauthorizationRequired)
    return {
      code: 'reauthorization_required',
      message: 'The accounting source refused the refresh token; send a new invitation',
    };
  if (err instanceof TokenOutcomeUnknown)
    return {
      code: 'token_outcome_unknown',
      message: 'The token endpoint failed after it may have rotated the refresh token, which is never sent twice; send a new invitation',
    };
  if (err instanceof LedgerHttpError) return { code: `ledger_${err.kind}`, message: err.summary };
  return {
    code: 'internal_error',
    message: 'The import failed unexpectedly; see the service log',
  };
}

/**
 * A provider record as it is stored and mapped. Every text field holding a card
 * number is replaced by a marker here, before anything is written, so the number
 * reaches no table, snapshot or answer; the mapper reports the marked fields
 * (`card_data_in_source`, docs/decisions.md).
 */
function toRecord(row: Record<string, unknown>) {
  const meta = (row.MetaData ?? {}) as { LastUpdatedTime?: string };
  return {
    sourceId: String(row.Id),
    syncToken: row.SyncToken === undefined ? null : String(row.SyncToken),
    lastUpdatedAt: meta.LastUpdatedTime ? new Date(meta.LastUpdatedTime) : null,
    deleted: row.status === 'Deleted',
    payload: redactCardNumbers(row, { isIdentifier: isProviderIdentifier }).value as Record<string, unknown>,
  };
}

interface ImportOptions {
  runId: string;
  maxAttempts: number;
  lastAttempt?: boolean;
  logger: Logger;
  leaseLost?: () => boolean;
  mapInvoices?: boolean;
}

/** One attempt at a run: what every step reads, and the progress per entity it writes back to the run. */
interface Attempt {
  storage: Storage;
  /** Outside any transaction: each statement commits on its own. */
  ledger: LedgerStore;
  runtime: LedgerPorts;
  o: ImportOptions;
  run: SyncRun;
  entities: Record<SyncEntity, EntityProgress>;
  mapInvoices: boolean;
}

/** An attempt whose connection is active and whose provider session is open. */
interface Importing extends Attempt {
  connection: LedgerConnection;
  session: LedgerConnectionClient;
  strategy: ReturnType<typeof deletionStrategy>;
  itemCache: ItemCache;
}

type ImportRecord = ReturnType<typeof toRecord>;
type FetchedPage = {
  cursor: EntityProgress['cursor'];
  window: ReturnType<typeof pageWindow>;
  rows: Record<string, unknown>[];
};

/**
 * Import one sync run, resuming from its stored cursors: for each entity, pages are fetched, stored, mapped (invoices)
 * and reconciled (deletions), and the run's checkpoint moves once every entity is done. Each page's records and
 * the run's advanced cursor are written in one transaction, so a crash resumes
 * at the first page not stored. The connection's checkpoint moves to the run's
 * period end only when every entity is done. Returns `retry` when the job queue
 * should try again (transient provider failure, attempts left). Any other
 * failure, wherever it happens, fails the run with a safe summary. The caller
 * holds the run's lease (server/jobs/run-lease.ts); `leaseLost` tells when it
 * no longer does, and the attempt then stops without touching the run.
 *
 * `mapInvoices: false` stores the source records only and leaves mapping them into
 * stored invoices to a later run (whose completion maps every source invoice not yet
 * mapped, `remapAfterRun`): for bulk back-fills, and to measure the import alone
 * (`bench/invoices.bench.ts`). The default maps inside the run.
 */
export async function importRun(storage: Storage, runtime: LedgerPorts, o: ImportOptions): Promise<'done' | 'retry'> {
  const attempt = await beginAttempt(storage, runtime, o);
  if (!attempt) return 'done';
  let current: SyncEntity | undefined;
  try {
    const importing = await openSession(attempt);
    if (!importing) return 'done';
    for (const entity of SYNC_ENTITIES) {
      if (attempt.entities[entity].state === 'done') continue;
      current = entity;
      await importEntity(importing, entity);
    }
    current = undefined;
    await checkpoint(importing);
    return 'done';
  } catch (err) {
    return failAttempt(attempt, err, current);
  }
}

/** The run and its stored progress, or null when the run is no longer queued or running. */
async function beginAttempt(storage: Storage, runtime: LedgerPorts, o: ImportOptions): Promise<Attempt | null> {
  const { ledger } = storage.store;
  const run = await ledger.runById(o.runId);
  if (!run || (run.state !== 'queued' && run.state !== 'running')) return null;
  const stored = (e: SyncEntity) => run.entities[e] as EntityProgress | undefined;
  const entities = Object.fromEntries(SYNC_ENTITIES.map((e) => [e, { ...emptyProgress(), ...stored(e) }])) as Record<
    SyncEntity,
    EntityProgress
  >;
  return {
    storage,
    ledger,
    runtime,
    o,
    run,
    entities,
    mapInvoices: o.mapInvoices ?? true,
  };
}

/** Stop before each provider call when the run was ended elsewhere or the lease is gone. */
async function stillOurs(a: Attempt, ledger: LedgerStore, lock = true): Promise<void> {
  if (a.o.leaseLost?.()) throw new AttemptStopped('lease lost');
  const now = await ledger.runById(a.run.id, lock);
  if (now?.state !== 'running') throw new AttemptStopped(`run ${now?.state ?? 'gone'}`);
}

/** The connection must be active: the run starts its attempt and a provider session opens; otherwise the run fails (null). */
async function openSession(a: Attempt): Promise<Importing | null> {
  const connection = await a.ledger.connectionById(a.run.connectionId);
  if (connection?.status !== 'active') {
    const error = {
      code: 'connection_not_active',
      message: `The connection is ${connection?.status ?? 'gone'}`,
    };
    await a.ledger.finishRun(a.run.id, 'failed', error, new Date());
    return null;
  }
  await a.ledger.startRunAttempt(a.run.id, new Date());
  // Rotated tokens are stored the moment they are issued, outside the page transactions.
  const session = a.runtime.client.forConnection(connection, a.ledger);
  const strategy = deletionStrategy(a.run.mode, a.run.periodStart, new Date());
  return { ...a, connection, session, strategy, itemCache: new Map() };
}

/** One entity, page after page: fetch, then store, map and reconcile in one transaction; the next page is fetched meanwhile. */
async function importEntity(a: Importing, entity: SyncEntity): Promise<void> {
  const p = a.entities[entity];
  p.state = 'running';
  p.error = null;
  // One entity per CDC call, so one entity's changes cannot crowd another's out of the 1000-object answer.
  if (p.deletions === undefined && entity !== 'Preferences' && a.strategy === 'cdc') await reconcileFromChangeFeed(a, entity);
  if (p.deletions === undefined) p.deletions = entity === 'Preferences' || a.strategy === 'cdc' ? 'none' : a.strategy;
  const reconcile = p.deletions === 'reconcile';
  let prefetched: Promise<FetchedPage> | undefined;
  for (;;) {
    // The page prefetched while the previous page was written, or this one fetched now.
    const fetched = await (prefetched ?? fetchPage(a, entity, p.cursor, reconcile, true));
    const page = digestPage(a, entity, fetched);
    // While this page's mapped invoices are written, the next page is asked for (its cursor is known from this
    // page's rows); it is used only after this page committed. The check before that call cannot wait for the run
    // row this page's transaction holds: it reads the run as committed, and the next page's transaction checks it
    // again, locked, before writing anything.
    let prefetch: Promise<FetchedPage> | undefined;
    const fetchNext = () => {
      if (page.last) return;
      prefetch = fetchPage(a, entity, page.nextCursor, reconcile, false);
      prefetch.catch(() => undefined); // awaited by the next page, or settled below when this page fails
    };
    await writePage(a, entity, page, reconcile, fetchNext).catch(async (err: unknown) => {
      await prefetch?.catch(() => undefined);
      throw err;
    });
    prefetched = prefetch;
    if (page.last) break;
  }
}

type DigestedPage = { records: ImportRecord[]; nextCursor: NonNullable<EntityProgress['cursor']>; last: boolean };

/** The fetched rows this page adds (ties already seen are left out) as records to store, and where the next page starts. */
function digestPage(a: Importing, entity: SyncEntity, fetched: FetchedPage): DigestedPage {
  // Preferences is a singleton: one answer is the whole entity.
  const digest = {
    ...nextPage(fetched.cursor, fetched.window, fetched.rows, a.runtime.settings.pageSize),
    ...(entity === 'Preferences' ? { fresh: fetched.rows, last: true } : {}),
  };
  return {
    records: digest.fresh.map((r) => toRecord(r as Record<string, unknown>)),
    nextCursor: digest.cursor ?? { startPosition: 1, lastUpdatedTime: null, seenIds: [] },
    last: digest.last,
  };
}

/** One page in one transaction: its records stored, its invoices mapped, reconciled, and the run's progress advanced. */
async function writePage(a: Importing, entity: SyncEntity, page: DigestedPage, reconcile: boolean, fetchNext: () => void): Promise<void> {
  const p = a.entities[entity];
  const { records } = page;
  await a.storage.transaction(async (stores) => {
    const { ledger } = stores;
    await stillOurs(a, ledger);
    const store = () => storeRecords(a, ledger, entity, records);
    // The page's invoices are mapped in its transaction: a crash never leaves a page stored but unmapped.
    const counts = entity === 'Invoice' && a.mapInvoices ? await mapInvoicePage(a, stores, records, store, fetchNext) : await store();
    if (reconcile) await reconcilePage(a, ledger, entity, records);
    p.pages += 1;
    p.fetched += records.length;
    p.created += counts.created;
    p.updated += counts.updated;
    p.unchanged += counts.unchanged;
    p.cursor = page.nextCursor;
    if (page.last) {
      if (reconcile) p.deleted += await reconcileEntity(a, ledger, entity);
      p.state = 'done';
    }
    await ledger.saveRunEntities(a.run.id, a.entities);
  });
}

/** Fetch: one page of the entity at `cursor`, once the run is still ours and the connection still active. */
async function fetchPage(
  a: Importing,
  entity: SyncEntity,
  cursor: EntityProgress['cursor'],
  reconcile: boolean,
  lock: boolean,
): Promise<FetchedPage> {
  await stillOurs(a, a.ledger, lock);
  // An operator may pause or disconnect the connection mid-run: stop before the next provider call.
  const status = (await a.ledger.connectionById(a.connection.id))?.status ?? 'disconnected';
  if (status !== 'active') throw new ConnectionInactive(status);
  const pageSize = a.runtime.settings.pageSize;
  const { periodStart, periodEnd } = a.run;
  const statement = pageStatement({
    entity,
    periodStart,
    periodEnd: periodEnd!,
    cursor,
    pageSize,
    reconcile,
  });
  const page = await a.session.query({ entity, statement });
  return { cursor, window: pageWindow(cursor, pageSize), rows: page.rows };
}

/** Store: the page's source records, as provider records with card numbers redacted. */
function storeRecords(a: Importing, ledger: LedgerStore, entity: SyncEntity, records: ImportRecord[]) {
  return ledger.upsertSourceRecords({
    scope: scopeOfConnection(a.connection),
    connectionId: a.connection.id,
    entityType: entity,
    syncRunId: a.run.id,
    records,
    now: new Date(),
  });
}

/** Map: an invoice page's records stored and mapped into stored invoices in one go (`whileWriting` fetches the next page). */
function mapInvoicePage<Stored extends { written: ReadonlyMap<string, string> }>(
  a: Importing,
  stores: Stores,
  records: ImportRecord[],
  store: () => Promise<Stored>,
  whileWriting: () => void,
): Promise<Stored> {
  return storeAndMapInvoicePage(stores, {
    connection: a.connection,
    records,
    store,
    items: a.itemCache,
    whileWriting,
    now: new Date(),
  });
}

/** Reconcile (full read), each page: its records are marked seen by this run. */
async function reconcilePage(a: Importing, ledger: LedgerStore, entity: SyncEntity, records: ImportRecord[]): Promise<void> {
  const sourceIds = records.map((r) => r.sourceId);
  await ledger.markSeen({
    connectionId: a.connection.id,
    entityType: entity,
    sourceIds,
    syncRunId: a.run.id,
  });
}

/**
 * Reconcile (full read), after the last page: every current record of the entity was read in this run, so the stored
 * ones not seen are gone at the source (for entities whose absence means deletion). Returns how many were marked deleted.
 */
async function reconcileEntity(a: Importing, ledger: LedgerStore, entity: SyncEntity): Promise<number> {
  if (!absenceMeansDeleted(entity)) return 0;
  return ledger.markUnseenDeleted({
    connectionId: a.connection.id,
    entityType: entity,
    syncRunId: a.run.id,
    now: new Date(),
  });
}

/**
 * Reconcile (change feed): the entity's deletions since the period start, from one CDC answer; an answer at its cap
 * may have left some out, so the entity is reconciled by a full read instead.
 */
async function reconcileFromChangeFeed(a: Importing, entity: SyncEntity): Promise<void> {
  const p = a.entities[entity];
  await stillOurs(a, a.ledger);
  const changes = await a.session.changesSince({
    entities: [entity],
    changedSince: a.run.periodStart!,
  });
  const objects = changes[entity] ?? [];
  await a.storage.transaction(async ({ ledger }) => {
    await stillOurs(a, ledger);
    if (cdcAnswerCapped(objects.length)) {
      p.deletions = 'reconcile';
      a.o.logger.info({ syncRunId: a.run.id, entity, objects: objects.length }, 'change feed answer at its cap; reconciling the entity');
    } else {
      p.deletions = 'cdc';
      const ids = objects.filter((r) => r.status === 'Deleted').map((r) => String(r.Id));
      p.deleted += await ledger.markDeleted({
        connectionId: a.connection.id,
        entityType: entity,
        sourceIds: ids,
        syncRunId: a.run.id,
        now: new Date(),
      });
    }
    await ledger.saveRunEntities(a.run.id, a.entities);
  });
}

/** Checkpoint: every entity is done; invoices not yet mapped are mapped, the connection's checkpoint moves and the run succeeds. */
async function checkpoint(a: Importing): Promise<void> {
  await a.storage.transaction(async (stores) => {
    const { ledger } = stores;
    await stillOurs(a, ledger);
    if (a.mapInvoices)
      await remapAfterRun(stores, {
        connection: a.connection,
        syncRunId: a.run.id,
        now: new Date(),
      });
    await ledger.advanceCheckpoint(a.connection.id, a.run.periodEnd!);
    await ledger.finishRun(a.run.id, 'succeeded', null, new Date());
  });
}

/** A failed attempt: the run is retried when the failure is transient and attempts are left, otherwise it fails. */
async function failAttempt(a: Attempt, err: unknown, current: SyncEntity | undefined): Promise<'done' | 'retry'> {
  const { run, o, ledger, entities } = a;
  if (err instanceof AttemptStopped) {
    o.logger.warn({ syncRunId: run.id, reason: err.message }, 'ledger sync attempt stopped');
    return 'done';
  }
  const error = summarize(err);
  if (current) entities[current] = { ...entities[current], state: 'failed', error };
  await ledger.saveRunEntities(run.id, entities);
  const transient = err instanceof LedgerHttpError && err.kind !== 'invalid_grant' && err.kind !== 'client';
  o.logger.warn(
    {
      syncRunId: run.id,
      entity: current ?? null,
      code: error.code,
      attempt: run.attempts + 1,
    },
    'ledger sync attempt failed',
  );
  // Unexpected failures (not provider answers) are logged for operators by type and message only: they may come from token handling.
  const safeErr = {
    type: (err as Error)?.name,
    message: (err as Error)?.message,
  };
  if (error.code === 'internal_error') o.logger.error({ syncRunId: run.id, err: safeErr }, 'ledger sync failed unexpectedly');
  if (transient && !o.lastAttempt && run.attempts + 1 < o.maxAttempts) {
    await ledger.recordRunError(run.id, error);
    return 'retry';
  }
  await ledger.finishRun(run.id, 'failed', error, new Date());
  return 'done';
}
