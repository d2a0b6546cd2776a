import type { Sql, TenantScope } from './sql.js';

export interface SourceRecordInput {
  sourceId: string;
  syncToken: string | null;
  lastUpdatedAt: Date | null;
  deleted: boolean;
  payload: unknown;
}

/**
 * Store one page of source records idempotently: unique per (connection, entity
 * type, source id); an existing row changes only when the source version differs
 * and is not older. Returns how many were created, updated and left unchanged,
 * and the row id of each record it wrote (created or updated), by source id.
 */
export async function upsertSourceRecords(
  sql: Sql,
  o: { scope: TenantScope; connectionId: string; entityType: string; syncRunId: string; records: SourceRecordInput[]; now: Date },
): Promise<{ created: number; updated: number; unchanged: number; written: Map<string, string> }> {
  if (o.records.length === 0) return { created: 0, updated: 0, unchanged: 0, written: new Map() };
  const values: string[] = [];
  const params: unknown[] = [];
  for (const r of o.records) {
    values.push('(?, ?, ?, ?, ?, ?, ?, ?, ?::timestamptz, ?, ?::jsonb, ?, ?::timestamptz, ?::timestamptz)');
    const { organizationId, integrationId, environment } = o.scope;
    params.push(
      crypto.randomUUID(),
      organizationId,
      integrationId,
      environment,
      o.connectionId,
      o.entityType,
      r.sourceId,
      r.syncToken,
      r.lastUpdatedAt,
      r.deleted,
    );
    params.push(JSON.stringify(r.payload), o.syncRunId, o.now, o.now);
  }
  const rows = await sql<{ inserted: boolean; id: string; source_id: string }>(
    `insert into ledger_source_records as s (id, organization_id, integration_id, environment, connection_id, entity_type, source_id, sync_token,
       last_updated_at, deleted, payload, sync_run_id, created_at, updated_at)
     values ${values.join(', ')}
     on conflict (connection_id, entity_type, source_id) do update set sync_token = excluded.sync_token, last_updated_at = excluded.last_updated_at,
       deleted = excluded.deleted, payload = excluded.payload, sync_run_id = excluded.sync_run_id, updated_at = excluded.updated_at
     where (s.sync_token is distinct from excluded.sync_token or s.deleted is distinct from excluded.deleted)
       and (s.last_updated_at is null or excluded.last_updated_at is null or excluded.last_updated_at >= s.last_updated_at)
     returning (xmax = 0) as inserted, s.id, s.source_id`,
    params,
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
  const rows = await sql(
    `update ledger_source_records set deleted = true, sync_run_id = ?, updated_at = ?
      where connection_id = ? and entity_type = ? and source_id in (${o.sourceIds.map(() => '?').join(', ')}) and deleted = false returning id`,
    [o.syncRunId, o.now, o.connectionId, o.entityType, ...o.sourceIds],
  );
  return rows.length;
}

/** Note that a reconciling run read these records (one full read of the entity marks the rest deleted). */
export async function markSeen(
  sql: Sql,
  o: { connectionId: string; entityType: string; sourceIds: string[]; syncRunId: string },
): Promise<void> {
  if (o.sourceIds.length === 0) return;
  await sql(
    `update ledger_source_records set seen_by_run_id = ? where connection_id = ? and entity_type = ? and source_id in (${o.sourceIds.map(() => '?').join(', ')})`,
    [o.syncRunId, o.connectionId, o.entityType, ...o.sourceIds],
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
  const rows = await sql(
    `update ledger_source_records set deleted = true, sync_run_id = ?, updated_at = ?
     where connection_id = ? and entity_type = ? and deleted = false and seen_by_run_id is distinct from ? returning id`,
    [o.syncRunId, o.now, o.connectionId, o.entityType, o.syncRunId],
  );
  return rows.length;
}
