import type { EntityManager } from '@mikro-orm/postgresql';
import type { SyncEntityProgress } from '../../../contract/ledger.js';
import type { Logger } from '../../logger.js';
import { connectionById } from '../../persistence/sql/ledger-connections.sql.js';
import { markDeleted, upsertSourceRecords } from '../../persistence/sql/ledger-source-records.sql.js';
import { advanceCheckpoint, finishRun, recordRunError, runById, saveRunEntities, startRunAttempt } from '../../persistence/sql/ledger-sync-runs.sql.js';
import { sqlOf } from '../../persistence/sql/sql.js';
import { LedgerHttpError, queryPage } from '../../integrations/ledger/ledger-api.js';
import { changesSince } from '../../integrations/ledger/ledger-cdc.js';
import { ConnectionNoLongerActive, LedgerSession, ReauthorizationRequired } from '../../integrations/ledger/ledger-session.js';
import type { LedgerRuntime } from '../../integrations/ledger/runtime.js';
import { emptyProgress, nextCursor, pageStatement, SYNC_ENTITIES, wantsDeletions, type SyncEntity } from './sync-rules.js';

/** The connection was paused, disconnected or lost authorization while the run was going. */
class ConnectionInactive extends Error {
  constructor(readonly status: string) {
    super(`connection ${status}`);
  }
}

/** A safe summary of a failure for the run's `error` (no tokens, no provider bodies). */
function summarize(err: unknown): { code: string; message: string } {
  if (err instanceof ConnectionInactive) return { code: 'connection_not_active', message: `The connection became ${err.status} during the run` };
  if (err instanceof ConnectionNoLongerActive) return { code: 'connection_not_active', message: 'The connection stopped being active during the run; refreshed tokens were not stored' };
  if (err instanceof ReauthorizationRequired) return { code: 'reauthorization_required', message: 'The accounting source refused the refresh token; send a new invitation' };
  if (err instanceof LedgerHttpError) return { code: `ledger_${err.kind}`, message: err.summary };
  return { code: 'internal_error', message: 'The import failed unexpectedly; see the service log' };
}

function toRecord(row: Record<string, unknown>) {
  const meta = (row.MetaData ?? {}) as { LastUpdatedTime?: string };
  return {
    sourceId: String(row.Id),
    syncToken: row.SyncToken === undefined ? null : String(row.SyncToken),
    lastUpdatedAt: meta.LastUpdatedTime ? new Date(meta.LastUpdatedTime) : null,
    deleted: row.status === 'Deleted',
    payload: row,
  };
}

/**
 * Import one sync run, resuming from its stored cursors. Each page's records and
 * the run's advanced cursor are written in one transaction, so a crash resumes
 * at the first page not stored. The connection's checkpoint moves to the run's
 * period end only when every entity is done. Returns `retry` when the job queue
 * should try again (transient provider failure, attempts left).
 */
export async function importRun(em: EntityManager, runtime: LedgerRuntime, o: { runId: string; maxAttempts: number; logger: Logger }): Promise<'done' | 'retry'> {
  const sql = sqlOf(em);
  const run = await runById(sql, o.runId);
  if (!run || (run.state !== 'queued' && run.state !== 'running')) return 'done';
  const connection = await connectionById(sql, run.connection_id);
  if (!connection || connection.status !== 'active') {
    await finishRun(sql, run.id, 'failed', { code: 'connection_not_active', message: `The connection is ${connection?.status ?? 'gone'}` }, new Date());
    return 'done';
  }
  await startRunAttempt(sql, run.id, new Date());
  const entities = Object.fromEntries(SYNC_ENTITIES.map((e) => [e, { ...emptyProgress(), ...(run.entities[e] as SyncEntityProgress | undefined) }])) as Record<SyncEntity, SyncEntityProgress>;
  const session = new LedgerSession(sql, runtime, connection);
  const pageSize = runtime.settings.pageSize;
  let current: SyncEntity | undefined;
  try {
    for (const entity of SYNC_ENTITIES) {
      current = entity;
      const p = entities[entity];
      if (p.state === 'done') continue;
      p.state = 'running';
      p.error = null;
      for (;;) {
        // An operator may pause or disconnect the connection mid-run: stop before the next provider call.
        const status = (await connectionById(sql, connection.id))?.status ?? 'disconnected';
        if (status !== 'active') throw new ConnectionInactive(status);
        const statement = pageStatement({ entity, periodStart: run.period_start ? new Date(run.period_start) : null, periodEnd: new Date(run.period_end!), cursor: p.cursor, pageSize });
        const page = await session.call((token) => queryPage(runtime.endpoints, { realmId: connection.realm_id, accessToken: token, entity, statement }));
        const last = entity === 'Preferences' || page.rows.length < pageSize;
        await em.transactional(async (tem) => {
          const counts = await upsertSourceRecords(sqlOf(tem), { connectionId: connection.id, entityType: entity, syncRunId: run.id, records: page.rows.map(toRecord), now: new Date() });
          p.pages += 1;
          p.fetched += page.rows.length;
          p.created += counts.created;
          p.updated += counts.updated;
          p.unchanged += counts.unchanged;
          p.cursor = nextCursor(p.cursor, page.rows as { MetaData?: { LastUpdatedTime?: string } }[]) ?? { startPosition: 1, lastUpdatedTime: null };
          if (last) p.state = 'done';
          await saveRunEntities(sqlOf(tem), run.id, entities);
        });
        if (last) break;
      }
    }
    current = undefined;
    if (wantsDeletions(run.mode, run.period_start ? new Date(run.period_start) : null, new Date())) {
      // The query API never returns deleted entities; CDC does (idempotent, so a retried attempt may repeat it).
      const changes = await session.call((token) => changesSince(runtime.endpoints, { realmId: connection.realm_id, accessToken: token, entities: ['Item', 'Invoice'], changedSince: new Date(run.period_start!) }));
      await em.transactional(async (tem) => {
        for (const entity of ['Item', 'Invoice'] as const) {
          const ids = (changes[entity] ?? []).filter((r) => r.status === 'Deleted').map((r) => String(r.Id));
          entities[entity].deleted += await markDeleted(sqlOf(tem), { connectionId: connection.id, entityType: entity, sourceIds: ids, syncRunId: run.id, now: new Date() });
        }
        await saveRunEntities(sqlOf(tem), run.id, entities);
      });
    }
    await em.transactional(async (tem) => {
      await advanceCheckpoint(sqlOf(tem), connection.id, new Date(run.period_end!));
      await finishRun(sqlOf(tem), run.id, 'succeeded', null, new Date());
    });
    return 'done';
  } catch (err) {
    const error = summarize(err);
    if (current) entities[current] = { ...entities[current], state: 'failed', error };
    await saveRunEntities(sql, run.id, entities);
    const transient = err instanceof LedgerHttpError && err.kind !== 'invalid_grant' && err.kind !== 'client';
    o.logger.warn({ syncRunId: run.id, entity: current ?? null, code: error.code, attempt: run.attempts + 1 }, 'ledger sync attempt failed');
    // Unexpected failures (not provider answers) are logged in full for operators; provider errors carry no secrets either way.
    if (error.code === 'internal_error') o.logger.error({ syncRunId: run.id, err }, 'ledger sync failed unexpectedly');
    if (transient && run.attempts + 1 < o.maxAttempts) {
      await recordRunError(sql, run.id, error);
      return 'retry';
    }
    await finishRun(sql, run.id, 'failed', error, new Date());
    return 'done';
  }
}
