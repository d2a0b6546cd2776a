import { sql } from 'kysely';
import type { SourceRecordInput } from '../../domain/ledger/ports.js';
import type { TenantScope } from '../../domain/tenant-scope.js';
import type { Database } from '../kysely.js';

/**
 * Store one page of source records idempotently, in one statement: unique per
 * (connection, entity type, source id); an existing row changes only when the
 * source version differs and is not older. Returns how many were created,
 * updated and left unchanged, and the row id of each record it wrote (created or
 * updated), by source id.
 */
export async function upsertSourceRecords(
  db: Database,
  o: { scope: TenantScope; connectionId: string; entityType: string; syncRunId: string; records: SourceRecordInput[]; now: Date },
): Promise<{ created: number; updated: number; unchanged: number; written: Map<string, string> }> {
  if (o.records.length === 0) return { created: 0, updated: 0, unchanged: 0, written: new Map() };
  const { organizationId, integrationId, environment } = o.scope;
  const rows = await db
    .insertInto('ledger_source_records')
    .values(
      o.records.map((r) => ({
        id: crypto.randomUUID(),
        organization: organizationId,
        integration: integrationId,
        environment,
        connection: o.connectionId,
        entityType: o.entityType,
        sourceId: r.sourceId,
        syncToken: r.syncToken,
        lastUpdatedAt: r.lastUpdatedAt,
        deleted: r.deleted,
        payload: r.payload,
        syncRun: o.syncRunId,
        createdAt: o.now,
        updatedAt: o.now,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['connection', 'entityType', 'sourceId'])
        .doUpdateSet((eb) => ({
          syncToken: eb.ref('excluded.syncToken'),
          lastUpdatedAt: eb.ref('excluded.lastUpdatedAt'),
          deleted: eb.ref('excluded.deleted'),
          payload: eb.ref('excluded.payload'),
          syncRun: eb.ref('excluded.syncRun'),
          updatedAt: eb.ref('excluded.updatedAt'),
        }))
        .where((eb) =>
          eb.and([
            eb.or([
              eb('ledger_source_records.syncToken', 'is distinct from', eb.ref('excluded.syncToken')),
              eb('ledger_source_records.deleted', 'is distinct from', eb.ref('excluded.deleted')),
            ]),
            eb.or([
              eb('ledger_source_records.lastUpdatedAt', 'is', null),
              eb('excluded.lastUpdatedAt', 'is', null),
              eb('excluded.lastUpdatedAt', '>=', eb.ref('ledger_source_records.lastUpdatedAt')),
            ]),
          ]),
        ),
    )
    // xmax is 0 on a row this statement inserted, set on one it updated (a system column Kysely does not type).
    .returning([sql<boolean>`xmax = 0`.as('inserted'), 'id', 'sourceId'])
    .execute();
  const created = rows.filter((r) => r.inserted).length;
  const written = new Map(rows.map((r) => [r.sourceId, r.id]));
  return { created, updated: rows.length - created, unchanged: o.records.length - rows.length, written };
}

/** Mark records the provider reports deleted (CDC `status: "Deleted"`); the last stored payload is kept. Returns how many changed. */
export async function markDeleted(
  db: Database,
  o: { connectionId: string; entityType: string; sourceIds: string[]; syncRunId: string; now: Date },
): Promise<number> {
  if (o.sourceIds.length === 0) return 0;
  const rows = await db
    .updateTable('ledger_source_records')
    .set({ deleted: true, syncRun: o.syncRunId, updatedAt: o.now })
    .where('connection', '=', o.connectionId)
    .where('entityType', '=', o.entityType)
    .where('sourceId', 'in', o.sourceIds)
    .where('deleted', '=', false)
    .returning('id')
    .execute();
  return rows.length;
}

/** Note that a reconciling run read these records (one full read of the entity marks the rest deleted). */
export async function markSeen(
  db: Database,
  o: { connectionId: string; entityType: string; sourceIds: string[]; syncRunId: string },
): Promise<void> {
  if (o.sourceIds.length === 0) return;
  await db
    .updateTable('ledger_source_records')
    .set({ seenByRunId: o.syncRunId })
    .where('connection', '=', o.connectionId)
    .where('entityType', '=', o.entityType)
    .where('sourceId', 'in', o.sourceIds)
    .execute();
}

/**
 * After a run read every current record of an entity: mark the stored records of
 * that connection it did not see as deleted (payload kept). Returns how many changed.
 */
export async function markUnseenDeleted(
  db: Database,
  o: { connectionId: string; entityType: string; syncRunId: string; now: Date },
): Promise<number> {
  const rows = await db
    .updateTable('ledger_source_records')
    .set({ deleted: true, syncRun: o.syncRunId, updatedAt: o.now })
    .where('connection', '=', o.connectionId)
    .where('entityType', '=', o.entityType)
    .where('deleted', '=', false)
    .where('seenByRunId', 'is distinct from', o.syncRunId)
    .returning('id')
    .execute();
  return rows.length;
}
