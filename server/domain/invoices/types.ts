import type { InvoiceStatus } from '../../../contract/canonical-invoice.js';
import type { CategorizedIssue, ConnectionStatus } from '../../../contract/common/index.js';
import type { ConfirmedMapping, SourceObjectType, StoredInvoice } from '../../../contract/invoices.js';
import type { Qualification, RiskFinding } from '../qualification/fields.js';
import type { EarlierStoredQualification, StoredQualification } from '../qualification/stored-form.js';
import type { SourceRecord } from './source-record.js';

/** A merchant-confirmed item mapping, every version of it; provenance shows the applied ones (ConfirmedMapping). */
export interface ItemMapping extends ConfirmedMapping {
  readonly commodityCode: string | null;
  readonly revoked: boolean;
}

/** Per-connection settings an operator chose. */
export interface ConnectionSettings {
  /** Label of the invoice custom field that holds the buyer's PO; `null` when not configured. */
  readonly purchaseOrderField: string | null;
  /** Changes whenever the settings change; part of the revision. */
  readonly version: number;
}

export interface MapperInput {
  /** The Invoice record as the provider returned it (parsed JSON). */
  readonly invoice: SourceRecord;
  /** The Item records the invoice references (others are ignored); a missing one is an issue. */
  readonly items: readonly SourceRecord[];
  /** The company Preferences record, `null` when not imported. */
  readonly preferences: SourceRecord | null;
  readonly settings: ConnectionSettings;
  /** Confirmed item mappings of the connection, all versions (revoked ones included). */
  readonly mappings: readonly ItemMapping[];
  /** The source reported the invoice deleted (CDC `status: "Deleted"`); `invoice` is its last snapshot. */
  readonly deleted: boolean;
}

/** A source record the mapping read; the caller adds `sourceRecordId` (the mapper knows external ids only). */
export interface UsedDependency {
  readonly objectType: SourceObjectType;
  readonly externalId: string;
  /** The record's SyncToken when known; part of the revision. */
  readonly version: string | null;
}

export interface MappedInvoice {
  readonly mapperVersion: string;
  readonly ledgerInvoiceId: string;
  /** The invoice's SyncToken. */
  readonly sourceVersion: string | null;
  /** Opaque; changes whenever the invoice, a dependency, the settings, a mapping or the mapper changes. */
  readonly revision: string;
  readonly deleted: boolean;
  readonly invoice: StoredInvoice;
  readonly dependencies: readonly UsedDependency[];
  /** The confirmed mappings applied to lines (provenance `mappings`). */
  readonly mappings: readonly ConfirmedMapping[];
  /** Every issue found, each with its category; provider-specific field rules are left to readiness. */
  readonly issues: readonly CategorizedIssue[];
}

/**
 * A stored invoice as the domain reads it: its current snapshot and what readiness needs of its connection, in the
 * contract's types (persistence maps its rows to this; the domain never sees a row).
 */
export interface InvoiceState {
  readonly id: string;
  /** The ledger integration that imported it. */
  readonly integrationId: string;
  /** The connection's row id. */
  readonly connectionId: string;
  /** The accounting source's company id (the API's `connectionId` / `sourceConnectionId`). */
  readonly realmId: string;
  readonly connectionStatus: ConnectionStatus;
  /** Boundary of the connection's last completed sync checkpoint; `null` when none completed. */
  readonly checkedThrough: Date | null;
  /** A sync of the connection is queued or running. */
  readonly syncActive: boolean;
  readonly sourceRecordId: string;
  readonly ledgerInvoiceId: string;
  readonly invoiceNumber: string | null;
  readonly status: InvoiceStatus;
  readonly currency: string | null;
  readonly totalAmountMinor: number | null;
  readonly sourceVersion: string | null;
  readonly revision: string | null;
  readonly deleted: boolean;
  readonly createdAt: Date;
  readonly snapshotId: string | null;
  readonly mapperVersion: string | null;
  /** The snapshot's mapped invoice; `null` without a snapshot. */
  readonly invoice: StoredInvoice | null;
  /** The mapper's issues of the snapshot. */
  readonly issues: readonly CategorizedIssue[];
  readonly dependencies: readonly { objectType: SourceObjectType; externalId: string }[];
  readonly mappings: readonly ConfirmedMapping[];
  /**
   * The snapshot's network qualification as stored (`qualificationOfStored` reads each form) and the invoice's
   * cross-invoice findings; `null` when not read or not computed.
   */
  readonly qualification: StoredQualification | EarlierStoredQualification | Qualification | null;
  readonly crossInvoiceRisks: readonly RiskFinding[] | null;
}

/** An imported source record as the mapper reads it (table `ledger_source_records`). */
export interface StoredSourceRecord {
  /** The row id. */
  readonly id: string;
  /** The record's id at the source. */
  readonly sourceId: string;
  readonly syncToken: string | null;
  readonly deleted: boolean;
  /** The record as the source returned it (card numbers already replaced). */
  readonly payload: Record<string, unknown>;
}

/** What a stored invoice's row needs to know before a mapping is written. */
export interface StoredInvoiceState {
  readonly id: string;
  readonly ledgerInvoiceId: string;
  /** `null` until a mapping was written. */
  readonly revision: string | null;
  readonly deleted: boolean;
  /** The version of the rules its current snapshot's qualification was computed by (QUALIFICATION_RULES). */
  readonly qualificationRules: number;
}
