import type { InvoiceStore } from '../../domain/invoices/ports.js';
import type { Database } from '../kysely.js';
import { insertNextMappingVersion, listMappings, mappingById, revokeMapping } from '../sql/item-mappings.sql.js';
import { connectionById } from '../sql/ledger-connections.sql.js';
import { linkedLedgerIntegrations, listStoredInvoices, sourceRecordIds, storedInvoiceById } from '../sql/stored-invoices.sql.js';

export function invoicesStore(db: Database): InvoiceStore {
  return {
    linkedLedgerIntegrations: (providerIntegrationId) => linkedLedgerIntegrations(db, providerIntegrationId),
    listStoredInvoices: (o) => listStoredInvoices(db, o),
    storedInvoiceById: (visibility, id) => storedInvoiceById(db, visibility, id),
    sourceRecordIds: (connectionId, refs) => sourceRecordIds(db, connectionId, refs),
    connectionById: (id, lock) => connectionById(db, id, lock),
    insertNextMappingVersion: (m) => insertNextMappingVersion(db, m),
    mappingById: (id) => mappingById(db, id),
    listMappings: (f) => listMappings(db, f),
    revokeMapping: (id, now) => revokeMapping(db, id, now),
  };
}
