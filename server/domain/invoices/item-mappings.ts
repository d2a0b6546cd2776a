import { scopeOfConnection } from '../ledger/types.js';
import { GWA_MAX_IDENTIFIER } from '../enrichment/gwa/limits.js';
import { GWC_MAX_IDENTIFIER } from '../enrichment/gwc/limits.js';
import { DomainError } from '../errors.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { toItemMappingView, toListView, type ItemMappingListView, type ItemMappingView } from './item-mapping-view.js';
import type { InvoicePageStore } from './ports-import.js';
import type { InvoiceStore } from './ports.js';

export type { ItemMappingListView, ItemMappingView };
import { remapInvoicesOfItems } from './store-invoices.js';

/** A confirmed identifier must fit every provider it may be sent to: the strictest limit (spec Limits). */
export const MAPPED_IDENTIFIER_MAX = Math.min(GWA_MAX_IDENTIFIER, GWC_MAX_IDENTIFIER);

type Storage = UnitOfWork<{ invoices: InvoiceStore; invoicePages: InvoicePageStore }>;

const noConnection = () => new DomainError('not_found', 'No such connection');

/**
 * Confirm an item's mapping: the next version (version + 1; earlier versions stay
 * as evidence). `connectionId` is the connection's row id as `connections.list`
 * shows it (operators send it as `connectionRowId`). The tenant columns are the connection's.
 */
export async function confirmItemMapping(
  storage: Storage,
  input: {
    connectionId: string;
    sourceItemId: string;
    productCode: string;
    unitOfMeasure: string;
    commodityCode?: string | null | undefined;
    evidence: string;
    approvedBy: string;
  },
  now = new Date(),
): Promise<ItemMappingView> {
  // Confirmations of one connection are serialised on its row, so each gets the next version; the unique
  // (connection, item, version) constraint still guards it.
  const row = await storage.transaction(async (store) => {
    const { invoices } = store;
    const connection = await invoices.connectionById(input.connectionId, true);
    if (!connection) throw noConnection();
    const row = await invoices.insertNextMappingVersion({
      scope: scopeOfConnection(connection),
      connectionId: connection.id,
      sourceItemId: input.sourceItemId,
      productCode: input.productCode,
      unitOfMeasure: input.unitOfMeasure,
      commodityCode: input.commodityCode ?? null,
      evidence: input.evidence,
      approvedBy: input.approvedBy,
      now,
    });
    // The invoices that read this item get their new revision at once, with the mapping (docs/invoices.md).
    await remapInvoicesOfItems(store, { connection, itemIds: [input.sourceItemId], now });
    return row;
  });
  return toItemMappingView(row);
}

export async function listItemMappings(storage: Storage, input: { connectionId: string; sourceItemId?: string | undefined }) {
  const { invoices } = storage.store;
  if (!(await invoices.connectionById(input.connectionId))) throw noConnection();
  const filter =
    input.sourceItemId === undefined
      ? { connectionId: input.connectionId }
      : { connectionId: input.connectionId, sourceItemId: input.sourceItemId };
  return (await invoices.listMappings(filter)).map(toListView);
}

/** Revoke one version: the item counts as unmapped (a mapping issue) until it is confirmed again. */
export async function revokeItemMapping(storage: Storage, input: { id: string }, now = new Date()): Promise<ItemMappingListView> {
  return storage.transaction(async (store) => {
    const { invoices } = store;
    const mapping = await invoices.mappingById(input.id);
    if (!mapping) throw new DomainError('not_found', 'No such item mapping');
    const connection = (await invoices.connectionById(mapping.connectionId, true))!;
    if (!(await invoices.revokeMapping(input.id, now))) throw new DomainError('conflict', 'This item mapping is already revoked');
    await remapInvoicesOfItems(store, { connection, itemIds: [mapping.sourceItemId], now });
    return toListView((await invoices.mappingById(input.id))!);
  });
}
