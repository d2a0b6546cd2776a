import type { ItemMappingRow } from '../../persistence/sql/item-mappings.sql.js';
import { isoTimestamp } from '../timestamps.js';

export interface ItemMappingView {
  id: string;
  /** The connection's row id. */
  connectionRowId: string;
  /** The former name of `connectionRowId`, kept for one release (docs/decisions.md, "Names with one meaning"). */
  connectionId: string;
  sourceItemId: string;
  productCode: string;
  unitOfMeasure: string;
  commodityCode: string | null;
  version: number;
  evidence: string;
  approvedBy: string;
  approvedAt: string;
}

/** Listed and revoked mappings also say whether (and when) they were revoked. */
export type ItemMappingListView = ItemMappingView & { revokedAt: string | null };

export const toItemMappingView = (m: ItemMappingRow): ItemMappingView => ({
  id: m.id,
  connectionRowId: m.connection_id,
  connectionId: m.connection_id,
  sourceItemId: m.source_item_id,
  productCode: m.product_code,
  unitOfMeasure: m.unit_of_measure,
  commodityCode: m.commodity_code,
  version: m.version,
  evidence: m.evidence,
  approvedBy: m.approved_by,
  approvedAt: isoTimestamp(m.approved_at),
});

export const toListView = (m: ItemMappingRow): ItemMappingListView => ({ ...toItemMappingView(m), revokedAt: isoTimestamp(m.revoked_at) });
