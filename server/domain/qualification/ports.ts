import type { Provider } from '../enrichment/index.js';
import type { WindowInvoice } from './cross-invoice-risks.js';
import type { Qualification, QualificationLevel, RiskFinding, SourceField } from './fields.js';
import type { EarlierStoredQualification, StoredInvoiceContext, StoredQualification } from './stored-form.js';

/** The preparations an operator figure covers: saved in `[from, to)`, optionally of one organization or integration. */
export interface QualificationFilter {
  organizationId?: string | undefined;
  integrationId?: string | undefined;
  from: Date;
  to: Date;
}

/** Preparations of one UTC month, recorded level, currency and evidence fact key (docs/evidence.md, "Facts"). */
export interface LevelGroup {
  month: string;
  /** `null`: the preparation's snapshot was mapped before qualification was computed. */
  level: QualificationLevel | null;
  currency: string;
  factKey: number;
  count: number;
  /** Net of refunds, as the evidence ledger counts it. */
  netMinor: bigint;
}

/** One source fix in one currency: the invoices it holds back, and their volume (docs/network-qualification.md, "Operator figures"). */
export interface FixGroup {
  kind: 'missing' | 'risk';
  /** The missing Product 3 field's code, or the risk rule's code. */
  code: string;
  source: SourceField;
  currency: string;
  /** Invoices the fix names (each with preparations in the range), and their preparations. */
  invoiceCount: number;
  preparations: number;
  /** Volume of the invoices this fix alone would lift, each once at its latest preparation's amount. */
  liftsMinor: bigint;
  /** Volume of the invoices it holds back only together with other fixes. */
  withOtherFixesMinor: bigint;
}

/** A preparation in the filter of `qualification.fixes`: its output, amount and invoice. */
export interface FixPreparation {
  id: string;
  provider: Provider;
  currency: string;
  amountMinor: bigint;
  storedInvoiceId: string;
  createdAt: Date;
}

/**
 * A prepared invoice as it stands now: its current snapshot's stored qualification, what it is read with (`context`:
 * `null` for the forms that need none) and the invoice's cross-invoice findings.
 */
export interface FixInvoice {
  storedInvoiceId: string;
  ledgerInvoiceId: string;
  snapshotId: string;
  qualification: StoredQualification | EarlierStoredQualification | Qualification;
  context: StoredInvoiceContext | null;
  crossInvoiceRisks: readonly RiskFinding[];
}

/** What the operator's qualification figures read; server/persistence/stores/qualification-store.ts implements it. */
export interface QualificationStore {
  levelGroups(filter: QualificationFilter): Promise<LevelGroup[]>;
  /**
   * The preparations in the filter, and each one's invoice as it stands now (by stored invoice id): only invoices not
   * deleted at the source whose current snapshot has a qualification.
   */
  fixInputs(filter: QualificationFilter): Promise<{ preparations: FixPreparation[]; invoices: ReadonlyMap<string, FixInvoice> }>;
}

/** Where the cross-invoice findings of a connection's window are read from and written to (server/persistence/sql/qualification.sql.ts). */
export interface CrossInvoiceRiskStore {
  /** The connection's stored invoices issued (or, without a date, imported) at or after `since`. */
  window(connectionId: string, since: Date): Promise<WindowInvoice[]>;
  /** Store each listed invoice's findings and none on every other invoice of the connection; returns the rows changed. */
  write(connectionId: string, findings: ReadonlyMap<string, readonly RiskFinding[]>): Promise<number>;
}
