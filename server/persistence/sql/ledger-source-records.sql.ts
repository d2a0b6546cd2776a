import { sql as expression } from 'kysely';
import { db, run } from '../db/query.js';
import type { TenantScope } from '../../domain/tenant-scope.js';
import type { Sql } from './sql.js';

export interface SourceRecordInput {
  sourceId: string;
  syncToken: string | null;
  lastUpdatedAt: Date | null;
  deleted: boolean;
  payload: unknown;
}

/**
 * Store one page of source records idempotently, in one statement: unique per
 * (connection, entity type, source id); an existing row changes only when the
 * source version differs and is not older. Returns how many were created,
 * updated and left unchanged, and the row id of each record it wrote (created or
 * updated), by source id.
 */
export async function upsertSourceRecords(
  sql: Sql,
  o: { scope: TenantScope; connectionId: string; entityType: string; syncRunId: string; records: SourceRecordInput[]; now: Date },
): Promise<{ created: number; updated: number; unchanged: number; written: Map<string, string> }> {
  if (o.records.length === 0) return { created: 0, updated: 0, unchanged: 0, written: new Map() };
  const { organizationId, integrationId, environment } = o.scope;
  const rows = await run(
    sql,
    db
      .insertInto('ledger_source_records')
      .values(
        o.records.map((r) => ({
          id: crypto.randomUUID(),
          organization_id: organizationId,
          integration_id: integrationId,
          environment,
          connection_id: o.connectionId,
          entity_type: o.entityType,
          source_id: r.sourceId,
          sync_token: r.syncToken,
          last_updated_at: r.lastUpdatedAt,
          deleted: r.deleted,
          payload: JSON.stringify(r.payload),
          sync_run_id: o.syncRunId,
          created_at: o.now,
          updated_at: o.now,
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['connection_id', 'entity_type', 'source_id'])
          .doUpdateSet((eb) => ({
            sync_token: eb.ref('excluded.sync_token'),
            last_updated_at: eb.ref('excluded.last_updated_at'),
            deleted: eb.ref('excluded.deleted'),
            payload: eb.ref('excluded.payload'),
            sync_run_id: eb.ref('excluded.sync_run_id'),
            updated_at: eb.ref('excluded.updated_at'),
          }))
          .where((eb) =>
            eb.and([
              eb.or([
                eb('ledger_source_records.sync_token', 'is distinct from', eb.ref('excluded.sync_token')),
                eb('ledger_source_records.deleted', 'is distinct from', eb.ref('excluded.deleted')),
              ]),
              eb.or([
                eb('ledger_source_records.last_updated_at', 'is', null),
                eb('excluded.last_updated_at', 'is', null),
                eb('excluded.last_updated_at', '>=', eb.ref('ledger_source_records.last_updated_at')),
              ]),
            ]),
          ),
      )
      // xmax is 0 on a row this statement inserted, set on one it updated (a system column Kysely does not type).
      .returning([expression<boolean>`xmax = 0`.as('inserted'), 'id', 'source_id']),
  );
  const created = rows.filter((r) => r.inserted).length;
  const written = new Map(rows.map((r) => [r.source_id, r.id]));
  return { created, updated: rows.length - created, unchanged: o.records.length - rows.length, written };
}

/** Mark records the provider reports deleted (CDC `status: "Deleted"`); the last stored payload is kept. Returns how many changed. */
export async function markDeleted(
  sql: Sql,
  o: { connectionId: string; entityType: string; sourceIds: string[]; syncRunId: string; now: Date },
): Promise<number> {
  if (o.sourceIds.length === 0) return 0;
  const rows = await run(
    sql,
    db
      .updateTable('ledger_source_records')
      .set({ deleted: true, sync_run_id: o.syncRunId, updated_at: o.now })
      .where('connection_id', '=', o.connectionId)
      .where('entity_type', '=', o.entityType)
      .where('source_id', 'in', o.sourceIds)
      .where('deleted', '=', false)
      .returning('id'),
  );
  return rows.length;
}

/** Note that a reconciling run read these records (one full read of the entity marks the rest deleted). */
export async function markSeen(
  sql: Sql,
  o: { connectionId: string; entityType: string; sourceIds: string[]; syncRunId: string },
): Promise<void> {
  if (o.sourceIds.length === 0) return;
  await run(
    sql,
    db
      .updateTable('ledger_source_records')
      .set({ seen_by_run_id: o.syncRunId })
      .where('connection_id', '=', o.connectionId)
      .where('entity_type', '=', o.entityType)
      .where('source_id', 'in', o.sourceIds),
  );
}

/**
 * After a run read every current record of an entity: mark the stored records of
 * that connection it did not see as deleted (payload kept). Returns how many changed.
 */
export async function markUnseenDeleted(
  sql: Sql,
  o: { connectionId: string; entityType: string; syncRunId: string; now: Date },
): Promise<number> {
  const rows = await run(
    sql,
    db
      .updateTable('ledger_source_records')
      .set({ deleted: true, sync_run_id: o.syncRunId, updated_at: o.now })
      .where('connection_id', '=', o.connectionId)
      .where('entity_type', '=', o.entityType)
      .where('deleted', '=', false)
      .where('seen_by_run_id', 'is distinct from', o.syncRunId)
      .returning('id'),
  );
  return rows.length;
}
