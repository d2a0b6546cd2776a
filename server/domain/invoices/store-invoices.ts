import { scopeOfConnection, type LedgerConnection } from '../ledger/types.js';
import type { InvoicePageStore, MappedWrite } from './ports-import.js';
import { crossInvoiceFactsOf, qualificationInputOf, storedQualificationOf, type StoredQualification } from '../qualification/index.js';
import { refreshCrossInvoiceRisks } from './cross-invoice-qualification.js';
import { QUALIFICATION_RULES } from '../qualification/rules-version.js';
import { toItemMappingView } from './item-mapping-view.js';
import { mapInvoice } from './map-invoice.js';
import { record, records, refValue } from './source-record.js';
import type { ItemMapping, MappedInvoice, StoredInvoiceState, StoredSourceRecord } from './types.js';

/** The stores these steps run on: the caller's transaction (or the pool), passed down from its use case. */
type Stores = { invoicePages: InvoicePageStore };

/** Invoices mapped per batch: one item read, one state read and one write per batch (two when a revision came back). */
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
async function mappingsOf(store: InvoicePageStore, connectionId: string): Promise<ItemMapping[]> {
  return (await store.listMappings({ connectionId })).map((m) => ({ ...toItemMappingView(m), revoked: m.revokedAt !== null }));
}

/** What every invoice of a connection is mapped with, read once per call. */
interface MappingContext {
  connection: LedgerConnection;
  preferences: Record<string, unknown> | null;
  mappings: ItemMapping[];
  settings: { purchaseOrderField: string | null; version: number };
}

async function mappingContext(store: InvoicePageStore, connection: LedgerConnection): Promise<MappingContext> {
  const preferences = (await store.sourceRecordsOf(connection.id, 'Preferences')).find((p) => !p.deleted)?.payload ?? null;
  const mappings = await mappingsOf(store, connection.id);
  const settings = { purchaseOrderField: connection.purchaseOrderField, version: connection.settingsVersion };
  return { connection, preferences, mappings, settings };
}

/** A source invoice to map: the stored record, or a sync page's record as the provider returned it. */
type InvoiceRecord = Pick<StoredSourceRecord, 'sourceId' | 'deleted' | 'payload'>;

/**
 * Stored Items by source id (`null`: not imported, or deleted), kept across the
 * Invoice pages of one sync run. A run stores every Item before any Invoice and
 * no other writer changes source records while it holds the connection's run, so
 * an Item read for one page is still what is stored for the next.
 */
export type ItemCache = Map<string, Record<string, unknown> | null>;

/** Items kept per run at most; beyond, the cache starts again (memory stays bounded for very large catalogs). */
const ITEM_CACHE_LIMIT = 50_000;

/** The stored Items a batch of invoices references, by source id: from `cache` when given, else read. */
async function itemsOf(store: InvoicePageStore, connectionId: string, invoices: readonly InvoiceRecord[], cache: ItemCache = new Map()) {
  const itemIds = [...new Set(invoices.flatMap((r) => referencedItemIds(r.payload)))];
  let missing = itemIds.filter((id) => !cache.has(id));
  if (cache.size + missing.length > ITEM_CACHE_LIMIT) {
    cache.clear();
    missing = itemIds;
  }
  if (missing.length > 0) {
    const rows = await store.sourceRecordsOf(connectionId, 'Item', missing);
    for (const id of missing) cache.set(id, null);
    for (const i of rows) if (!i.deleted) cache.set(i.sourceId, i.payload);
  }
  const items = new Map<string, Record<string, unknown>>();
  for (const id of itemIds) {
    const payload = cache.get(id);
    if (payload) items.set(id, payload);
  }
  return items;
}

/** The stored invoices of a batch, by source id. */
async function statesOf(store: InvoicePageStore, connectionId: string, invoices: readonly InvoiceRecord[]) {
  const rows = await store.storedStates(
    connectionId,
    invoices.map((r) => r.sourceId),
  );
  return new Map(rows.map((s) => [s.ledgerInvoiceId, s]));
}

/** A mapped invoice and its network qualification, computed here where the mapper's input is at hand (never per request). */
interface Mapped {
  result: MappedInvoice;
  qualification: StoredQualification;
}

function mapRecord(rec: InvoiceRecord, context: MappingContext, items: ReadonlyMap<string, Record<string, unknown>>): Mapped {
  const used = referencedItemIds(rec.payload).flatMap((id) => (items.has(id) ? [items.get(id)!] : []));
  const { preferences, settings, mappings } = context;
  const input = { invoice: rec.payload, items: used, preferences, settings, mappings, deleted: rec.deleted };
  const result = mapInvoice(input);
  return { result, qualification: storedQualificationOf(qualificationInputOf(input, result)) };
}

/**
 * Write what changed: a mapping whose revision and deletion equal the stored invoice's is not written again, unless its
 * qualification was computed by earlier rules (the snapshot then takes the new one: `writeMappedInvoices`).
 */
async function writeChanged(
  store: InvoicePageStore,
  context: MappingContext,
  mapped: readonly (Mapped & { sourceRecordId: string; sourceId: string })[],
  states: ReadonlyMap<string, StoredInvoiceState>,
  now: Date,
) {
  const writes: MappedWrite[] = [];
  for (const { sourceRecordId, sourceId, ...m } of mapped) {
    const state = states.get(sourceId);
    if (
      state &&
      state.revision === m.result.revision &&
      state.deleted === m.result.deleted &&
      state.qualificationRules === QUALIFICATION_RULES
    ) {
      continue;
    }
    writes.push(toWrite(sourceRecordId, m, state?.id));
  }
  const { connection } = context;
  const { snapshots } = await store.writeMappedInvoices({
    scope: scopeOfConnection(connection),
    connectionId: connection.id,
    rows: writes,
    qualificationRules: QUALIFICATION_RULES,
    now,
  });
  return { mapped: writes.length, snapshots };
}

/**
 * Map a connection's stored source invoices (all, or those with the given
 * source ids) and store the result: one stored invoice per source invoice, and
 * a new immutable snapshot only when the revision changed. Runs in the caller's
 * transaction, so a sync page and its mapping commit together (docs/invoices.md).
 */
export async function mapAndStoreInvoices(
  { invoicePages: store }: Stores,
  o: { connection: LedgerConnection; ledgerInvoiceIds?: readonly string[]; now: Date },
): Promise<{ mapped: number; snapshots: number }> {
  const { connection } = o;
  if (o.ledgerInvoiceIds !== undefined && o.ledgerInvoiceIds.length === 0) return { mapped: 0, snapshots: 0 };
  const invoices = await store.sourceRecordsOf(connection.id, 'Invoice', o.ledgerInvoiceIds);
  if (invoices.length === 0) return { mapped: 0, snapshots: 0 };
  const context = await mappingContext(store, connection);
  let mapped = 0;
  let snapshots = 0;
  for (let start = 0; start < invoices.length; start += BATCH) {
    const batch = invoices.slice(start, start + BATCH);
    const items = await itemsOf(store, connection.id, batch);
    const states = await statesOf(store, connection.id, batch);
    const results = batch.map((rec) => ({ sourceRecordId: rec.id, sourceId: rec.sourceId, ...mapRecord(rec, context, items) }));
    const written = await writeChanged(store, context, results, states, o.now);
    mapped += written.mapped;
    snapshots += written.snapshots;
  }
  return { mapped, snapshots };
}

/**
 * Store one sync page of source invoices (`store`: the caller's upsert, which
 * says which records it wrote) and map them, in the caller's transaction. The
 * page's records are mapped from memory while the database stores them, rather
 * than read back after: what the mapper reads (Preferences, Items, mappings,
 * stored invoices) is read first, and storing the page's invoices changes none of it. A
 * record the upsert did not write (the same version again, or older than the
 * one stored) is mapped from what is stored instead, as `mapAndStoreInvoices` does.
 */
export async function storeAndMapInvoicePage<Stored extends { written: ReadonlyMap<string, string> }>(
  stores: Stores,
  o: {
    connection: LedgerConnection;
    records: readonly { sourceId: string; deleted: boolean; payload: Record<string, unknown> }[];
    store: () => Promise<Stored>;
    /** The run's Items read by earlier pages. */
    items: ItemCache;
    /** Called once the mapped invoices are sent to the database, to use the time it takes to write them. */
    whileWriting?: () => void;
    now: Date;
  },
): Promise<Stored> {
  const { connection } = o;
  const store = stores.invoicePages;
  const page: InvoiceRecord[] = o.records.map((r) => ({ sourceId: r.sourceId, deleted: r.deleted, payload: r.payload }));
  const context = await mappingContext(store, connection);
  const items = await itemsOf(store, connection.id, page, o.items);
  const states = await statesOf(store, connection.id, page);
  const storing = o.store();
  storing.catch(() => undefined); // awaited below; a failure must not count as unhandled while the page is mapped
  // One statement at a time on the transaction's connection: let the upsert go out, then map while the database runs it.
  await new Promise<void>((resolve) => setImmediate(resolve));
  let results: Mapped[];
  try {
    results = page.map((rec) => mapRecord(rec, context, items));
  } catch (err) {
    await storing.catch(() => undefined);
    throw err;
  }
  const stored = await storing;
  const mapped = results.flatMap((result, i) => {
    const sourceId = page[i]!.sourceId;
    const sourceRecordId = stored.written.get(sourceId);
    return sourceRecordId === undefined ? [] : [{ sourceRecordId, sourceId, ...result }];
  });
  const writing = writeChanged(store, context, mapped, states, o.now);
  writing.catch(() => undefined); // awaited below
  await new Promise<void>((resolve) => setImmediate(resolve));
  o.whileWriting?.();
  await writing;
  const notWritten = page.filter((r) => !stored.written.has(r.sourceId)).map((r) => r.sourceId);
  await mapAndStoreInvoices(stores, { connection, ledgerInvoiceIds: notWritten, now: o.now });
  return stored;
}

function toWrite(sourceRecordId: string, { result, qualification }: Mapped, existingId: string | undefined): MappedWrite {
  return {
    id: existingId ?? crypto.randomUUID(),
    stored: existingId !== undefined,
    snapshotId: crypto.randomUUID(),
    sourceRecordId,
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
    qualification,
    crossInvoiceFacts: crossInvoiceFactsOf(result.invoice, result.mappings),
  };
}

/** Map again the invoices that read these items (an item changed at the source, or its mapping changed), and their window's risks. */
export async function remapInvoicesOfItems(stores: Stores, o: { connection: LedgerConnection; itemIds: readonly string[]; now: Date }) {
  const ids = await stores.invoicePages.invoicesDependingOnItems({ connectionId: o.connection.id, itemIds: o.itemIds });
  const result = await mapAndStoreInvoices(stores, { connection: o.connection, ledgerInvoiceIds: ids, now: o.now });
  if (result.snapshots > 0) await refreshCrossInvoiceRisks(stores.invoicePages.crossInvoiceRisks, o);
  return result;
}

/**
 * After a sync run's last page, in its completing transaction: map what the pages
 * did not — invoices that read items or Preferences this run changed, invoices
 * marked deleted, and any source invoice never mapped yet. The invoices a run
 * wrote were mapped in their page, after the run stored its Preferences and Items
 * (SYNC_ENTITIES order), so they are not mapped twice.
 */
export async function remapAfterRun(stores: Stores, o: { connection: LedgerConnection; syncRunId: string; now: Date }) {
  const result = await remapRest(stores, o);
  // The run changed the window's invoices (or time moved it): the cross-invoice findings of the whole window again.
  await refreshCrossInvoiceRisks(stores.invoicePages.crossInvoiceRisks, o);
  return result;
}

async function remapRest(stores: Stores, o: { connection: LedgerConnection; syncRunId: string; now: Date }) {
  const { connection } = o;
  const store = stores.invoicePages;
  const written = (entityType: string) => store.sourceIdsWrittenBy({ connectionId: connection.id, entityType, syncRunId: o.syncRunId });
  // Invoices qualified by earlier rules, unchanged at the source: qualified again (docs/network-qualification.md, "How it is stored").
  const qualifiedBefore = () => store.invoicesQualifiedBefore(connection.id, QUALIFICATION_RULES);
  if ((await written('Preferences')).length > 0) {
    // The run's pages stored its Preferences before any Invoice and mapped each invoice they wrote with them: map the others.
    const ids = [
      ...new Set([
        ...(await store.invoicesNotWrittenBy(o)),
        ...(await store.invoicesOutOfStep(connection.id)),
        ...(await qualifiedBefore()),
      ]),
    ];
    return mapAndStoreInvoices(stores, { connection, ledgerInvoiceIds: ids, now: o.now });
  }
  const ofItems = await store.invoicesDependingOnItems({
    connectionId: connection.id,
    itemIds: await written('Item'),
    exceptWrittenByRun: o.syncRunId,
  });
  const ids = [...new Set([...ofItems, ...(await store.invoicesOutOfStep(connection.id)), ...(await qualifiedBefore())])];
  return mapAndStoreInvoices(stores, { connection, ledgerInvoiceIds: ids, now: o.now });
}
