import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { StoredInvoice } from './stored-invoice.entity.js';
import { tenantScope } from './tenant-scope.js';

/**
 * An immutable mapped version of a stored invoice: what the mapper made of one
 * source version under one mapper version, connection settings version and set
 * of item-mapping versions (together: the `revision`). A new snapshot is written
 * only when the mapped content changes; the database refuses UPDATE and DELETE
 * (a trigger, as for payment observations). Preparations pin a snapshot.
 */
export const InvoiceSnapshot = defineEntity({
  name: 'InvoiceSnapshot',
  tableName: 'invoice_snapshots',
  properties: {
    ...tenantScope(),
    storedInvoice: () => p.manyToOne(StoredInvoice),
    revision: p.string().length(64),
    mapperVersion: p.string().length(16),
    sourceVersion: p.string().length(32).nullable(),
    /** The StoredInvoice (or null when the source record cannot be mapped at all) and its stored lines. */
    content: p.json<Record<string, unknown>>(),
    /** Issues the mapper found (source, mapping, validation); readiness adds the rest at read time. */
    issues: p.json<unknown[]>(),
    /** Provenance: the source records and the confirmed item mappings the mapping used. */
    dependencies: p.json<unknown[]>(),
    mappings: p.json<unknown[]>(),
    /** Network qualification per provider output, computed from this revision when it was mapped; null before it was. */
    qualification: p.json<Record<string, unknown>>().nullable(),
    /**
     * What the cross-invoice rules read of `content` (its date and each line's descriptor, unit, Item and Id), as
     * `json` text; null for snapshots mapped before it was kept, whose window reads `content` instead.
     */
    crossInvoiceFacts: p.json<Record<string, unknown>>().columnType('json').nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['storedInvoice', 'revision'] }],
});
export type InvoiceSnapshot = InferEntity<typeof InvoiceSnapshot>;
