import type { EntityManager } from '@mikro-orm/postgresql';
import { connectionById } from '../../persistence/sql/ledger-connections.sql.js';
import { insertNextMappingVersion, listMappings, mappingById, revokeMapping } from '../../persistence/sql/item-mappings.sql.js';
import { sqlOf } from '../../persistence/sql/sql.js';
import { databaseOf } from '../../persistence/kysely.js';
import { storesOf } from '../../persistence/unit-of-work.js';
import { scopeOfConnection } from '../ledger/types.js';
import { GWA_MAX_IDENTIFIER } from '../enrichment/gwa/limits.js';
import { GWC_MAX_IDENTIFIER } from '../enrichment/gwc/limits.js';
import { DomainError } from '../errors.js';
import { toItemMappingView, toListView, type ItemMappingListView, type ItemMappingView } from './item-mapping-view.js';

export type { ItemMappingListView, ItemMappingView };
import { remapInvoicesOfItems } from './store-invoices.js';

/** A confirmed identifier must fit every provider it may be sent to: the strictest limit (spec Limits). */
export const MAPPED_IDENTIFIER_MAX = Math.min(GWA_MAX_IDENTIFIER, GWC_MAX_IDENTIFIER);

const noConnection = () => new DomainError('not_found', 'No such connection');

/**
 * Confirm an item's mapping: the next version (version + 1; earlier versions stay
 * as evidence). `connectionId` is the connection's row id as `connections.list`
 * shows it (operators send it as `connectionRowId`). The tenant columns are the connection's.
 */
export async function confirmItemMapping(
  em: EntityManager,
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
  const row = await em.transactional(async (tem) => {
    const sql = sqlOf(tem);
    const connection = await connectionById(databaseOf(tem), input.connectionId, true);
    if (!connection) throw noConnection();
    const row = await insertNextMappingVersion(sql, {
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
    await remapInvoicesOfItems(storesOf(databaseOf(tem)), { connection, itemIds: [input.sourceItemId], now });
    return row;
  });
  return toItemMappingView(row);
}

export async function listItemMappings(em: EntityManager, input: { connectionId: string; sourceItemId?: string | undefined }) {
  const sql = sqlOf(em);
  if (!(await connectionById(databaseOf(em), input.connectionId))) throw noConnection();
  const filter =
    input.sourceItemId === undefined
      ? { connectionId: input.connectionId }
      : { connectionId: input.connectionId, sourceItemId: input.sourceItemId };
  return (await listMappings(sql, filter)).map(toListView);
}

/** Revoke one version: the item counts as unmapped (a mapping issue) until it is confirmed again. */
export async function revokeItemMapping(em: EntityManager, input: { id: string }, now = new Date()): Promise<ItemMappingListView> {
  return em.transactional(async (tem) => {
    const sql = sqlOf(tem);
    const mapping = await mappingById(sql, input.id);
    if (!mapping) throw new DomainError('not_found', 'No such item mapping');
    const connection = (await connectionById(databaseOf(tem), mapping.connectionId, true))!;
    if (!(await revokeMapping(sql, input.id, now))) throw new DomainError('conflict', 'This item mapping is already revoked');
    await remapInvoicesOfItems(storesOf(databaseOf(tem)), { connection, itemIds: [mapping.sourceItemId], now });
    return toListView((await mappingById(sql, input.id))!);
  });
}
