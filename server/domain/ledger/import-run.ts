import type { EntityManager } from '@mikro-orm/postgresql';
import { redactCardNumbers } from '../guard/redact-card-numbers.js';
import { isProviderIdentifier } from '../invoices/source-record.js';
import { remapAfterRun, storeAndMapInvoicePage, type ItemCache } from '../invoices/store-invoices.js';
import type { Logger } from '../../logger.js';
import { advanceCheckpoint, connectionById } from '../../persistence/sql/ledger-connections.sql.js';
import { markDeleted, markSeen, markUnseenDeleted, upsertSourceRecords } from '../../persistence/sql/ledger-source-records.sql.js';
import { finishRun, recordRunError, runById, saveRunEntities, startRunAttempt } from '../../persistence/sql/ledger-sync-runs.sql.js';
import { sqlOf, type Sql } from '../../persistence/sql/sql.js';
import { scopeOfConnection } from './types.js';
import { ledgerTokenStore } from '../../persistence/ledger-token-store.js';
import type { LedgerPorts } from './ports.js';
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
    return { code: 'connection_not_active', message: `The connection became ${err.status} during the run` };
  if (err instanceof ConnectionNoLongerActive)
    return {
      code: 'connection_not_active',
      message: 'The connection stopped being active during the run; refreshed tokens were not stored',
    };
  if (err instanceof ReauthorizationRequired)
    return { code: 'reauthorization_required', message: 'The accounting source refused the refresh token; send a new invitation' };
  if (err instanceof TokenOutcomeUnknown)
    return {
      code: 'token_outcome_unknown',
      message: 'The token endpoint failed after it may have rotated the refresh token, which is never sent twice; send a new invitation',
    };
  if (err instanceof LedgerHttpError) return { code: `ledger_${err.kind}`, message: err.summary };
  return { code: 'internal_error', message: 'The import failed unexpectedly; see the service log' };
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

/**
 * Import one sync run, resuming from its stored cursors. Each page's records and
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
export async function importRun(
  em: EntityManager,
  runtime: LedgerPorts,
  o: {
    runId: string;
    maxAttempts: number;
    lastAttempt?: boolean;
    logger: Logger;
    leaseLost?: () => boolean;
    mapInvoices?: boolean;
  },
): Promise<'done' | 'retry'> {
  const sql = sqlOf(em);
  const mapInvoices = o.mapInvoices ?? true;
  const run = await runById(sql, o.runId);
  if (!run || (run.state !== 'queued' && run.state !== 'running')) return 'done';
  const stored = (e: SyncEntity) => run.entities[e] as EntityProgress | undefined;
  const entities = Object.fromEntries(SYNC_ENTITIES.map((e) => [e, { ...emptyProgress(), ...stored(e) }])) as Record<
    SyncEntity,
    EntityProgress
  >;
  let current: SyncEntity | undefined;
  const periodStart = run.periodStart;
  const periodEnd = run.periodEnd!;
  // Stop before each provider call when the run was ended elsewhere or the lease is gone.
  const stillOurs = async (s: Sql, lock = true) => {
    if (o.leaseLost?.()) throw new AttemptStopped('lease lost');
    const now = await runById(s, run.id, lock);
    if (now?.state !== 'running') throw new AttemptStopped(`run ${now?.state ?? 'gone'}`);
  };
  try {
    const connection = await connectionById(sql, run.connectionId);
    if (connection?.status !== 'active') {
      await finishRun(
        sql,
        run.id,
        'failed',
        { code: 'connection_not_active', message: `The connection is ${connection?.status ?? 'gone'}` },
        new Date(),
      );
      return 'done';
    }
    await startRunAttempt(sql, run.id, new Date());
    const session = runtime.client.forConnection(connection, ledgerTokenStore(sql));
    const pageSize = runtime.settings.pageSize;
    const strategy = deletionStrategy(run.mode, periodStart, new Date());
    const itemCache: ItemCache = new Map();
    for (const entity of SYNC_ENTITIES) {
      current = entity;
      const p = entities[entity];
      if (p.state === 'done') continue;
      p.state = 'running';
      p.error = null;
      if (p.deletions === undefined && entity !== 'Preferences' && strategy === 'cdc') {
        // One entity per CDC call, so one entity's changes cannot crowd another's out of the 1000-object answer.
        await stillOurs(sql);
        const changes = await session.changesSince({ entities: [entity], changedSince: periodStart! });
        const objects = changes[entity] ?? [];
        await em.transactional(async (tem) => {
          await stillOurs(sqlOf(tem));
          if (cdcAnswerCapped(objects.length)) {
            p.deletions = 'reconcile';
            o.logger.info({ syncRunId: run.id, entity, objects: objects.length }, 'change feed answer at its cap; reconciling the entity');
          } else {
            p.deletions = 'cdc';
            const ids = objects.filter((r) => r.status === 'Deleted').map((r) => String(r.Id));
            p.deleted += await markDeleted(sqlOf(tem), {
              connectionId: connection.id,
              entityType: entity,
              sourceIds: ids,
              syncRunId: run.id,
              now: new Date(),
            });
          }
          await saveRunEntities(sqlOf(tem), run.id, entities);
        });
      }
      if (p.deletions === undefined) p.deletions = entity === 'Preferences' || strategy === 'cdc' ? 'none' : strategy;
      const reconcile = p.deletions === 'reconcile';
      const fetchPage = async (cursor: EntityProgress['cursor'], lock: boolean) => {
        await stillOurs(sql, lock);
        // An operator may pause or disconnect the connection mid-run: stop before the next provider call.
        const status = (await connectionById(sql, connection.id))?.status ?? 'disconnected';
        if (status !== 'active') throw new ConnectionInactive(status);
        const statement = pageStatement({ entity, periodStart, periodEnd, cursor, pageSize, reconcile });
        const page = await session.query({ entity, statement });
        return { cursor, window: pageWindow(cursor, pageSize), rows: page.rows };
      };
      let prefetched: ReturnType<typeof fetchPage> | undefined;
      for (;;) {
        const fetched = await (prefetched ?? fetchPage(p.cursor, true));
        prefetched = undefined;
        // Preferences is a singleton: one answer is the whole entity.
        const digest = {
          ...nextPage(fetched.cursor, fetched.window, fetched.rows, pageSize),
          ...(entity === 'Preferences' ? { fresh: fetched.rows, last: true } : {}),
        };
        const records = digest.fresh.map((r) => toRecord(r as Record<string, unknown>));
        const nextCursor = digest.cursor ?? { startPosition: 1, lastUpdatedTime: null, seenIds: [] };
        // While this page's mapped invoices are written, the next page is asked for (its cursor is known from this
        // page's rows); it is used only after this page committed. The check before that call cannot wait for the run
        // row this page's transaction holds: it reads the run as committed, and the next page's transaction checks it
        // again, locked, before writing anything.
        let prefetch: ReturnType<typeof fetchPage> | undefined;
        const fetchNext = () => {
          if (digest.last) return;
          prefetch = fetchPage(nextCursor, false);
          prefetch.catch(() => undefined); // awaited by the next page, or settled below when this page fails
        };
        await em
          .transactional(async (tem) => {
            const tsql = sqlOf(tem);
            await stillOurs(tsql);
            const store = () =>
              upsertSourceRecords(tsql, {
                scope: scopeOfConnection(connection),
                connectionId: connection.id,
                entityType: entity,
                syncRunId: run.id,
                records,
                now: new Date(),
              });
            // The page's invoices are mapped in its transaction: a crash never leaves a page stored but unmapped.
            const counts =
              entity === 'Invoice' && mapInvoices
                ? await storeAndMapInvoicePage(tsql, {
                    connection,
                    records,
                    store,
                    items: itemCache,
                    whileWriting: fetchNext,
                    now: new Date(),
                  })
                : await store();
            const sourceIds = records.map((r) => r.sourceId);
            if (reconcile) await markSeen(tsql, { connectionId: connection.id, entityType: entity, sourceIds, syncRunId: run.id });
            p.pages += 1;
            p.fetched += records.length;
            p.created += counts.created;
            p.updated += counts.updated;
            p.unchanged += counts.unchanged;
            p.cursor = nextCursor;
            if (digest.last) {
              // Every current record of the entity was read in this run: the stored ones not seen are gone at the source.
              if (reconcile && absenceMeansDeleted(entity))
                p.deleted += await markUnseenDeleted(tsql, {
                  connectionId: connection.id,
                  entityType: entity,
                  syncRunId: run.id,
                  now: new Date(),
                });
              p.state = 'done';
            }
            await saveRunEntities(tsql, run.id, entities);
          })
          .catch(async (err: unknown) => {
            await prefetch?.catch(() => undefined);
            throw err;
          });
        prefetched = prefetch;
        if (digest.last) break;
      }
    }
    current = undefined;
    await em.transactional(async (tem) => {
      await stillOurs(sqlOf(tem));
      if (mapInvoices) await remapAfterRun(sqlOf(tem), { connection, syncRunId: run.id, now: new Date() });
      await advanceCheckpoint(sqlOf(tem), connection.id, periodEnd);
      await finishRun(sqlOf(tem), run.id, 'succeeded', null, new Date());
    });
    return 'done';
  } catch (err) {
    if (err instanceof AttemptStopped) {
      o.logger.warn({ syncRunId: run.id, reason: err.message }, 'ledger sync attempt stopped');
      return 'done';
    }
    const error = summarize(err);
    if (current) entities[current] = { ...entities[current], state: 'failed', error };
    await saveRunEntities(sql, run.id, entities);
    const transient = err instanceof LedgerHttpError && err.kind !== 'invalid_grant' && err.kind !== 'client';
    o.logger.warn(
      { syncRunId: run.id, entity: current ?? null, code: error.code, attempt: run.attempts + 1 },
      'ledger sync attempt failed',
    );
    // Unexpected failures (not provider answers) are logged for operators by type and message only: they may come from token handling.
    const safeErr = { type: (err as Error)?.name, message: (err as Error)?.message };
    if (error.code === 'internal_error') o.logger.error({ syncRunId: run.id, err: safeErr }, 'ledger sync failed unexpectedly');
    if (transient && !o.lastAttempt && run.attempts + 1 < o.maxAttempts) {
      await recordRunError(sql, run.id, error);
      return 'retry';
    }
    await finishRun(sql, run.id, 'failed', error, new Date());
    return 'done';
  }
}
