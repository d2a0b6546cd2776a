import type { ItemMappingVersion } from '../ledger/types.js';
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

export const toItemMappingView = (m: ItemMappingVersion): ItemMappingView => ({
  id: m.id,
  connectionRowId: m.connectionId,
  connectionId: m.connectionId,
  sourceItemId: m.sourceItemId,
  productCode: m.productCode,
  unitOfMeasure: m.unitOfMeasure,
  commodityCode: m.commodityCode,
  version: m.version,
  evidence: m.evidence,
  approvedBy: m.approvedBy,
  approvedAt: isoTimestamp(m.approvedAt),
});

export const toListView = (m: ItemMappingVersion): ItemMappingListView => ({
  ...toItemMappingView(m),
  revokedAt: isoTimestamp(m.revokedAt),
});
