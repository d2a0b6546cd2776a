import type { StoredQualification } from '../qualification/stored-form.js';
import type { CrossInvoiceRiskStore } from '../qualification/ports.js';
import type { CrossInvoiceFacts } from '../qualification/cross-invoice-risks.js';
import type { TenantScope } from '../tenant-scope.js';
import type { ItemMappingVersion } from '../ledger/types.js';
import type { StoredInvoiceState, StoredSourceRecord } from './types.js';

/** One mapped invoice to write: its row (summary columns) and its snapshot. */
export interface MappedWrite {
  id: string;
  /** Whether the stored invoice exists already: only then can a snapshot of the revision be stored already. */
  stored: boolean;
  snapshotId: string;
  sourceRecordId: string;
  ledgerInvoiceId: string;
  invoiceNumber: string | null;
  status: string;
  currency: string | null;
  totalAmountMinor: number | null;
  sourceVersion: string | null;
  revision: string;
  mapperVersion: string;
  deleted: boolean;
  content: unknown;
  issues: unknown;
  dependencies: unknown;
  mappings: unknown;
  qualification: StoredQualification;
  /** What the cross-invoice rules read of the mapped invoice, kept beside it so the pass after a sync reads only this. */
  crossInvoiceFacts: CrossInvoiceFacts;
}

/**
 * What storing and mapping a connection's source invoices needs from storage (store-invoices.ts: a sync page, the
 * completion of a run, a settings or mapping change); server/persistence/stores/invoice-page-store.ts implements it.
 */
export interface InvoicePageStore {
  /** Source records of one entity type of a connection: all of them, or those with these source ids. */
  sourceRecordsOf(connectionId: string, entityType: string, sourceIds?: readonly string[]): Promise<StoredSourceRecord[]>;
  storedStates(connectionId: string, ledgerInvoiceIds: readonly string[]): Promise<StoredInvoiceState[]>;
  /** The invoice rows and their new snapshots (a revision already stored is not written again); how many snapshots were new. */
  writeMappedInvoices(o: {
    scope: TenantScope;
    connectionId: string;
    rows: readonly MappedWrite[];
    /** The rules the rows' qualification was computed by. */
    qualificationRules: number;
    now: Date;
  }): Promise<{ snapshots: number }>;
  /** Ledger invoice ids of the connection (not deleted) whose qualification rules are older than `rules`. */
  invoicesQualifiedBefore(connectionId: string, rules: number): Promise<string[]>;
  /** Ledger invoice ids whose current snapshot read one of these items. */
  invoicesDependingOnItems(o: { connectionId: string; itemIds: readonly string[]; exceptWrittenByRun?: string }): Promise<string[]>;
  /** Source invoices never mapped, or mapped by an older mapper or under older settings. */
  invoicesOutOfStep(connectionId: string): Promise<string[]>;
  invoicesNotWrittenBy(o: { connection: { id: string }; syncRunId: string }): Promise<string[]>;
  sourceIdsWrittenBy(o: { connectionId: string; entityType: string; syncRunId: string }): Promise<string[]>;
  /** Every version of a connection's item mappings. */
  listMappings(f: { connectionId: string }): Promise<ItemMappingVersion[]>;
  /** The cross-invoice findings of the connection's window, on the same database handle. */
  readonly crossInvoiceRisks: CrossInvoiceRiskStore;
}
