import type { InvoicePageStore } from '../../domain/invoices/ports-import.js';
import type { Database } from '../kysely.js';
import { listMappings } from '../sql/item-mappings.sql.js';
import { crossInvoiceRiskStore } from '../sql/qualification.sql.js';
import {
  invoicesDependingOnItems,
  invoicesNotWrittenBy,
  invoicesOutOfStep,
  sourceIdsWrittenBy,
  sourceRecordsOf,
  storedStates,
  writeMappedInvoices,
  invoicesQualifiedBefore,
} from '../sql/stored-invoices.sql.js';

export function invoicePageStore(db: Database): InvoicePageStore {
  return {
    sourceRecordsOf: (connectionId, entityType, sourceIds) => sourceRecordsOf(db, connectionId, entityType, sourceIds),
    storedStates: (connectionId, ledgerInvoiceIds) => storedStates(db, connectionId, ledgerInvoiceIds),
    writeMappedInvoices: (o) => writeMappedInvoices(db, o),
    invoicesQualifiedBefore: (connectionId, rules) => invoicesQualifiedBefore(db, connectionId, rules),
    invoicesDependingOnItems: (o) => invoicesDependingOnItems(db, o),
    invoicesOutOfStep: (connectionId) => invoicesOutOfStep(db, connectionId),
    invoicesNotWrittenBy: (o) => invoicesNotWrittenBy(db, o),
    sourceIdsWrittenBy: (o) => sourceIdsWrittenBy(db, o),
    listMappings: (f) => listMappings(db, f),
    crossInvoiceRisks: crossInvoiceRiskStore(db),
  };
}
