import type { InvoicePageStore } from '../../domain/invoices/ports-import.js';
import type { Database } from '../kysely.js';
import { listMappings } from '../sql/item-mappings.sql.js';
import { crossInvoiceRiskStore } from '../sql/qualification.sql.js';
import { sqlOfDatabase } from '../sql/sql.js';
import {
  invoicesDependingOnItems,
  invoicesNotWrittenBy,
  invoicesOutOfStep,
  sourceIdsWrittenBy,
  sourceRecordsOf,
  storedStates,
  writeMappedInvoices,
} from '../sql/stored-invoices.sql.js';

export function invoicePageStore(db: Database): InvoicePageStore {
  // TRANSITIONAL: these statement modules still take `Sql`; once they take `Database`, each call passes `db`.
  const sql = sqlOfDatabase(db);
  return {
    sourceRecordsOf: (connectionId, entityType, sourceIds) => sourceRecordsOf(sql, connectionId, entityType, sourceIds),
    storedStates: (connectionId, ledgerInvoiceIds) => storedStates(sql, connectionId, ledgerInvoiceIds),
    writeMappedInvoices: (o) => writeMappedInvoices(sql, o),
    invoicesDependingOnItems: (o) => invoicesDependingOnItems(sql, o),
    invoicesOutOfStep: (connectionId) => invoicesOutOfStep(sql, connectionId),
    invoicesNotWrittenBy: (o) => invoicesNotWrittenBy(sql, o),
    sourceIdsWrittenBy: (o) => sourceIdsWrittenBy(sql, o),
    listMappings: (f) => listMappings(sql, f),
    crossInvoiceRisks: crossInvoiceRiskStore(sql),
  };
}
