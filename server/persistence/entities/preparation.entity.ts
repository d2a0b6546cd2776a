import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Integration, PROVIDERS } from './integration.entity.js';
import { InvoiceSnapshot } from './invoice-snapshot.entity.js';
import { LedgerConnection } from './ledger-connection.entity.js';
import { StoredInvoice } from './stored-invoice.entity.js';
import { tenantScope } from './tenant-scope.js';

/**
 * One invoice-backed preparation (spec: Preparation record): the tenant columns
 * are the payment integration's; it pins the invoice snapshot and revision it
 * was prepared from, the accounting source that supplied it, the validated
 * amount and currency, and the exact `data` returned, so an identical retry
 * (same integration and idempotency key, same fingerprint) answers the same.
 * The database refuses UPDATE and DELETE (a trigger). docs/decisions.md,
 * "Invoice-backed preparation".
 */
export const Preparation = defineEntity({
  name: 'Preparation',
  tableName: 'preparations',
  properties: {
    ...tenantScope(),
    provider: p.enum([...PROVIDERS]),
    /** `enrichment` (endpoints 1, 6, 11) or `payment_preparation` (endpoint 12). */
    kind: p.string().length(32),
    storedInvoice: () => p.manyToOne(StoredInvoice),
    snapshot: () => p.manyToOne(InvoiceSnapshot),
    revision: p.string().length(64),
    sourceIntegration: () => p.manyToOne(Integration),
    connection: () => p.manyToOne(LedgerConnection),
    /** The accounting company's id (`realmId`), which the API shows as `sourceConnectionId`; the column keeps that name. */
    realmId: p.string().length(160).fieldName('source_connection_id'),
    checkedThrough: p.datetime(),
    amountMinor: p.bigint('number'),
    currency: p.string().length(3),
    idempotencyKey: p.string().length(160),
    fingerprint: p.string().length(64),
    mode: p.string().length(16),
    /** The exact JSON text answered (`json`: a replay returns it byte for byte; `jsonb` would reorder its keys). */
    data: p.json<Record<string, unknown>>().columnType('json'),
    createdAt: p.datetime().onCreate(() => new Date()),
    /** The pinned snapshot's qualification level for this provider, copied when saved (null: snapshot not qualified). */
    qualificationLevel: p.string().length(16).nullable(),
  },
  uniques: [{ properties: ['integration', 'idempotencyKey'] }],
  indexes: [
    { properties: ['storedInvoice', 'createdAt'] },
    // The evidence ledger reads by when preparations were saved (docs/evidence.md). No other index may lead with the
    // integration: the context read's generic plan would walk it instead of the unique key (migration evidence_ledger).
    { properties: ['createdAt'] },
  ],
});
export type Preparation = InferEntity<typeof Preparation>;
