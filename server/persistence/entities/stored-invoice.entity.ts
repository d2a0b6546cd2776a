import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { LedgerConnection } from './ledger-connection.entity.js';
import { LedgerSourceRecord } from './ledger-source-record.entity.js';
import { tenantScope } from './tenant-scope.js';

/**
 * One invoice of the accounting source, as the service knows it: a stable UUID
 * per (connection, source invoice id), the summary columns of its current
 * snapshot (for filters and pages), and a pointer to that snapshot. The tenant
 * columns are the connection's ledger integration's. docs/invoices.md.
 */
export const StoredInvoice = defineEntity({
  name: 'StoredInvoice',
  tableName: 'stored_invoices',
  properties: {
    ...tenantScope(),
    connection: () => p.manyToOne(LedgerConnection),
    sourceRecord: () => p.manyToOne(LedgerSourceRecord),
    ledgerInvoiceId: p.string().length(160),
    invoiceNumber: p.string().length(160).nullable(),
    status: p.string().length(32),
    currency: p.string().length(3).nullable(),
    totalAmountMinor: p.bigint('number').nullable(),
    sourceVersion: p.string().length(32).nullable(),
    revision: p.string().length(64).nullable(),
    /** Never null, and a snapshot of this invoice (a deferred constraint trigger checks it at commit). */
    currentSnapshotId: p.uuid(),
    /** Deleted at the source: kept with its last snapshot, never ready. */
    deleted: p.boolean().default(false),
    /** Cross-invoice placeholder findings of this invoice from the last pass over its connection's window; null before one. */
    crossInvoiceRisks: p.json<unknown[]>().nullable(),
    /** The version of the rules the current snapshot's qualification was computed by (QUALIFICATION_RULES); 0: before any. */
    qualificationRules: p.smallint().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['connection', 'ledgerInvoiceId'] }],
  // Lists page by (createdAt, id) within the integrations a key may see; filters look up by number or source id.
  indexes: [
    { properties: ['integration', 'createdAt', 'id'] },
    { properties: ['integration', 'invoiceNumber'] },
    { properties: ['integration', 'ledgerInvoiceId'] },
  ],
});
export type StoredInvoice = InferEntity<typeof StoredInvoice>;
