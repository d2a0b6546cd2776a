import type { Environment } from '../../../contract/common/index.js';
import type { LedgerConnection, ItemMappingVersion } from '../ledger/types.js';
import type { TenantScope } from '../tenant-scope.js';
import type { InvoiceState } from './types.js';

/** Which stored invoices a reader may see: those of these ledger integrations, in this organization and environment. */
export interface InvoiceVisibility {
  organizationId: string;
  environment: Environment;
  ledgerIntegrationIds: readonly string[];
}

/** The filters of a list page, all optional; `after` is the keyset cursor in (createdAt, id) order. */
export interface InvoiceListFilters {
  connectionId?: string | undefined;
  ledgerInvoiceId?: string | undefined;
  invoiceNumber?: string | undefined;
  after?: { createdAt: Date; id: string } | undefined;
}

/** A new version of an item's mapping, as an operator confirms it; the store numbers it. */
export interface NextMappingVersion {
  scope: TenantScope;
  connectionId: string;
  sourceItemId: string;
  productCode: string;
  unitOfMeasure: string;
  commodityCode: string | null;
  evidence: string;
  approvedBy: string;
  now: Date;
}

/** What the stored-invoice and item-mapping use cases need from storage; server/persistence/stores/invoices-store.ts implements it. */
export interface InvoiceStore {
  /** The ledger integrations linked to a payment provider integration, of the same organization and environment. */
  linkedLedgerIntegrations(providerIntegrationId: string): Promise<string[]>;
  /** A keyset page in (createdAt, id) order, `limit` rows at most; every invoice when `visibility` is undefined (operators). */
  listStoredInvoices(o: InvoiceListFilters & { visibility: InvoiceVisibility | undefined; limit: number }): Promise<InvoiceState[]>;
  storedInvoiceById(visibility: InvoiceVisibility | undefined, id: string): Promise<InvoiceState | undefined>;
  /** Source record ids of a connection's records, by `objectType:externalId` (provenance references). */
  sourceRecordIds(connectionId: string, refs: readonly { objectType: string; externalId: string }[]): Promise<Map<string, string>>;
  /** The connection an item mapping belongs to; `lock` holds its row until the transaction ends (serialises confirmations). */
  connectionById(id: string, lock?: boolean): Promise<LedgerConnection | undefined>;
  /** Adds the next version of an item's mapping (numbered in the statement, guarded by the unique version). */
  insertNextMappingVersion(m: NextMappingVersion): Promise<ItemMappingVersion>;
  mappingById(id: string): Promise<ItemMappingVersion | undefined>;
  /** Every version of a connection's mappings (optionally one item's), newest version first per item. */
  listMappings(f: { connectionId: string; sourceItemId?: string }): Promise<ItemMappingVersion[]>;
  /** Revoke one version; false when it was already revoked. */
  revokeMapping(id: string, now: Date): Promise<boolean>;
}
