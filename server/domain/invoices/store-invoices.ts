import type { ConnectionRow } from '../../persistence/sql/ledger-connections.sql.js';
import { listMappings } from '../../persistence/sql/item-mappings.sql.js';
import { scopeOfRow, type Sql } from '../../persistence/sql/sql.js';
import {
  invoicesDependingOnItems,
  invoicesNotWrittenBy,
  invoicesOutOfStep,
  sourceIdsWrittenBy,
  sourceRecordsOf,
  storedStates,
  writeMappedInvoices,
  type MappedWrite,
  type SourceRecordRow,
} from '../../persistence/sql/stored-invoices.sql.js';
import { toItemMappingView } from './item-mapping-view.js';
import { mapInvoice } from './map-invoice.js';
import { record, records, refValue } from './source-record.js';
import type { ItemMapping } from './types.js';

/** Invoices mapped per batch: one item read, one state read and three writes per batch. */
const BATCH = 500;

/** The Item ids an Invoice record references (sales lines, and sales lines inside groups). */
export function referencedItemIds(invoice: Record<string, unknown>): string[] {
  const ids = new Set<string>();
  const visit = (lines: unknown) => {
    for (const line of records(lines)) {
      const id = refValue(record(line.SalesItemLineDetail)?.ItemRef);
      if (id !== null) ids.add(id);
      visit(record(line.GroupLineDetail)?.Line);
    }
  };
  visit(invoice.Line);
  return [...ids];
}

/** Every version of the connection's item mappings, as the mapper takes them (provenance copies only the confirmed fields). */
async function mappingsOf(sql: Sql, connectionId: string): Promise<ItemMapping[]> {
  return (await listMappings(sql, { connectionId })).map((m) => ({ ...toItemMappingView(m), revoked: m.revoked_at !== null }));
}

/**
 * Map a connection's stored source invoices (all, or those with the given
 * source ids) and store the result: one stored invoice per source invoice, and
 * a new immutable snapshot only when the revision changed. Runs in the caller's
 * transaction, so a sync page and its mapping commit together (docs/invoices.md).
 */
export async function mapAndStoreInvoices(
  sql: Sql,
  o: { connection: ConnectionRow; ledgerInvoiceIds?: readonly string[]; now: Date },
): Promise<{ mapped: number; snapshots: number }> {
  const { connection } = o;
  if (o.ledgerInvoiceIds !== undefined && o.ledgerInvoiceIds.length === 0) return { mapped: 0, snapshots: 0 };
  const invoices = await sourceRecordsOf(sql, connection.id, 'Invoice', o.ledgerInvoiceIds);
  if (invoices.length === 0) return { mapped: 0, snapshots: 0 };
  const preferences = (await sourceRecordsOf(sql, connection.id, 'Preferences')).find((p) => !p.deleted)?.payload ?? null;
  const mappings = await mappingsOf(sql, connection.id);
  const settings = { purchaseOrderField: connection.purchase_order_field, version: connection.settings_version };
  let mapped = 0;
  let snapshots = 0;
  for (let start = 0; start < invoices.length; start += BATCH) {
    const batch = invoices.slice(start, start + BATCH);
    const itemIds = [...new Set(batch.flatMap((r) => referencedItemIds(r.payload)))];
    const items = new Map(
      (await sourceRecordsOf(sql, connection.id, 'Item', itemIds)).filter((i) => !i.deleted).map((i) => [i.source_id, i]),
    );
    const states = new Map(
      (
        await storedStates(
          sql,
          connection.id,
          batch.map((r) => r.source_id),
        )
      ).map((s) => [s.ledger_invoice_id, s]),
    );
    const writes: MappedWrite[] = [];
    for (const rec of batch) {
      const used = referencedItemIds(rec.payload).flatMap((id) => (items.has(id) ? [items.get(id)!.payload] : []));
      const result = mapInvoice({ invoice: rec.payload, items: used, preferences, settings, mappings, deleted: rec.deleted });
      const state = states.get(rec.source_id);
      if (state && state.revision === result.revision && state.deleted === result.deleted) continue;
      writes.push(toWrite(rec, result, state?.id));
    }
    snapshots += (await writeMappedInvoices(sql, { scope: scopeOfRow(connection), connectionId: connection.id, rows: writes, now: o.now }))
      .snapshots;
    mapped += writes.length;
  }
  return { mapped, snapshots };
}

function toWrite(rec: SourceRecordRow, result: ReturnType<typeof mapInvoice>, existingId: string | undefined): MappedWrite {
  return {
    id: existingId ?? crypto.randomUUID(),
    snapshotId: crypto.randomUUID(),
    sourceRecordId: rec.id,
    ledgerInvoiceId: result.ledgerInvoiceId,
    invoiceNumber: result.invoice.invoiceNumber,
    status: result.invoice.status,
    currency: result.invoice.currency,
    totalAmountMinor: result.invoice.totalAmountMinor,
    sourceVersion: result.sourceVersion,
    revision: result.revision,
    mapperVersion: result.mapperVersion,
    deleted: result.deleted,
    content: { invoice: result.invoice },
    issues: result.issues,
    dependencies: result.dependencies,
    mappings: result.mappings,
  };
}

/** Map again the invoices that read these items (an item changed at the source, or its mapping changed). */
export async function remapInvoicesOfItems(sql: Sql, o: { connection: ConnectionRow; itemIds: readonly string[]; now: Date }) {
  const ids = await invoicesDependingOnItems(sql, { connectionId: o.connection.id, itemIds: o.itemIds });
  return mapAndStoreInvoices(sql, { connection: o.connection, ledgerInvoiceIds: ids, now: o.now });
}

/**
 * After a sync run's last page, in its completing transaction: map what the pages
 * did not — invoices that read items or Preferences this run changed, invoices
 * marked deleted, and any source invoice never mapped yet. The invoices a run
 * wrote were mapped in their page, after the run stored its Preferences and Items
 * (SYNC_ENTITIES order), so they are not mapped twice.
 */
export async function remapAfterRun(sql: Sql, o: { connection: ConnectionRow; syncRunId: string; now: Date }) {
  const { connection } = o;
  const written = (entityType: string) => sourceIdsWrittenBy(sql, { connectionId: connection.id, entityType, syncRunId: o.syncRunId });
  if ((await written('Preferences')).length > 0) {
    // The run's pages stored its Preferences before any Invoice and mapped each invoice they wrote with them: map the others.
    const ids = [...new Set([...(await invoicesNotWrittenBy(sql, o)), ...(await invoicesOutOfStep(sql, connection.id))])];
    return mapAndStoreInvoices(sql, { connection, ledgerInvoiceIds: ids, now: o.now });
  }
  const ofItems = await invoicesDependingOnItems(sql, {
    connectionId: connection.id,
    itemIds: await written('Item'),
    exceptWrittenByRun: o.syncRunId,
  });
  const ids = [...new Set([...ofItems, ...(await invoicesOutOfStep(sql, connection.id))])];
  return mapAndStoreInvoices(sql, { connection, ledgerInvoiceIds: ids, now: o.now });
}
