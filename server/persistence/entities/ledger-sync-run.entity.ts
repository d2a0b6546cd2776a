import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { SyncStateSchema, type SyncState } from '../../../contract/common/index.js';
import { LedgerConnection } from './ledger-connection.entity.js';
import { tenantScope } from './tenant-scope.js';

export const SYNC_STATES = SyncStateSchema.options;
export type { SyncState };
export const SYNC_MODES = ['historical', 'incremental', 'full'] as const;
export type SyncMode = (typeof SYNC_MODES)[number];

/**
 * One queued import of a connection (spec endpoints 15-16). At most one run per
 * connection is queued or running: queueing locks the connection row
 * (server/domain/ledger/queue-sync.ts). `entities` holds per-entity counts,
 * cursors and safe error summaries; docs/ledger-sync.md describes the states.
 */
export const LedgerSyncRun = defineEntity({
  name: 'LedgerSyncRun',
  tableName: 'ledger_sync_runs',
  properties: {
    ...tenantScope(),
    connection: () => p.manyToOne(LedgerConnection),
    workflowRunId: p.uuid(),
    state: p.enum([...SYNC_STATES]).default('queued'),
    mode: p.enum([...SYNC_MODES]),
    fullReconciliation: p.boolean(),
    periodStart: p.datetime().nullable(),
    periodEnd: p.datetime().nullable(),
    entities: p.json<Record<string, unknown>>(),
    error: p.json<Record<string, unknown>>().nullable(),
    attempts: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    startedAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['connection', 'createdAt'] }, { properties: ['state'] }],
});
export type LedgerSyncRun = InferEntity<typeof LedgerSyncRun>;
