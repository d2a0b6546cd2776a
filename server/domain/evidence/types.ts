import type { QualificationLevel } from '../qualification/fields.js';
import type { Environment, PaymentProvider } from '../../../contract/common/index.js';

/** Which preparations an evidence read covers: saved in `[from, to)`, optionally one organization or integration. */
export interface EvidenceFilter {
  organizationId?: string | undefined;
  integrationId?: string | undefined;
  from: Date;
  to: Date;
  /** Only preparations whose fact key is one of these (a state filter, docs/evidence.md). */
  factKeys?: number[] | undefined;
  /** Only preparations whose output had this qualification level when saved (`not_assessed`: none was recorded). */
  level?: QualificationLevelFilter | undefined;
}

/** A qualification level as an evidence filter: `not_assessed` for preparations saved without one (docs/network-qualification.md). */
export type QualificationLevelFilter = QualificationLevel | 'not_assessed';

/** One correlation exception naming the preparation. */
export interface EvidenceException {
  kind: 'amount_mismatch' | 'currency_mismatch';
  expected: string;
  observed: string;
  observationId: string;
  at: string;
}

/** The chain of one preparation with its fact key (docs/evidence.md, "The chain of one preparation"). */
export interface EvidenceChain {
  id: string;
  organizationId: string;
  integrationId: string;
  environment: Environment;
  provider: PaymentProvider;
  mode: 'enhanced' | 'ordinary';
  amountMinor: number;
  currency: string;
  createdAt: Date;
  storedInvoiceId: string;
  ledgerInvoiceId: string;
  invoiceNumber: string | null;
  snapshotId: string;
  revision: string;
  factKey: number;
  /** The level the preparation's output had when it was saved; `null`: not assessed. */
  qualificationLevel: QualificationLevel | null;
  payment: {
    id: string;
    attemptId: string;
    providerPaymentId: string | null;
    status: string | null;
    amountMinor: number | null;
    currency: string | null;
    capturedAmountMinor: number;
    refundedAmountMinor: number;
  } | null;
  verifiedCapture: { observationId: string; eventId: string; occurredAt: Date } | null;
  reportedCapture: { observationId: string; eventId: string; occurredAt: Date } | null;
  exceptions: EvidenceException[];
}
