import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { LedgerConnection } from './ledger-connection.entity.js';
import { LedgerSyncRun } from './ledger-sync-run.entity.js';
import { tenantScope } from './tenant-scope.js';

/**
 * A source record (Invoice, Item, Preferences) as the provider last returned it,
 * unique per (connection, entity type, source id) and written with
 * `insert … on conflict` (server/persistence/sql/ledger-source-records.sql.ts).
 * The payload is kept for mapping into stored invoices; it is never returned by an endpoint.
 */
export const LedgerSourceRecord = defineEntity({
  name: 'LedgerSourceRecord',
  tableName: 'ledger_source_records',
  properties: {
    ...tenantScope(),
    connection: () => p.manyToOne(LedgerConnection),
    entityType: p.string().length(32),
    sourceId: p.string().length(160),
    syncToken: p.string().length(32).nullable(),
    lastUpdatedAt: p.datetime().nullable(),
    deleted: p.boolean().default(false),
    payload: p.json<Record<string, unknown>>(),
    /** The run that last wrote this record. */
    syncRun: () => p.manyToOne(LedgerSyncRun),
    /** The last reconciling run that read this record (records a full read did not see are deleted at the source). */
    seenByRunId: p.uuid().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [
    { properties: ['connection', 'entityType', 'sourceId'], name: 'ledger_source_records_connection_id_entity_type_s_d2942_unique' },
  ],
});
export type LedgerSourceRecord = InferEntity<typeof LedgerSourceRecord>;
