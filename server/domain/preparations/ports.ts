import type { Environment, PaymentProvider } from '../../../contract/common/index.js';
import type { InvoiceSelector } from '../../../contract/preparations.js';
import type { InvoiceState } from '../invoices/types.js';
import type { TenantScope } from '../tenant-scope.js';
import type { QualificationLevel } from '../qualification/fields.js';

/** `enrichment`: endpoints 1, 6, 11 (enhancement only); `payment_preparation`: endpoint 12 (enhanced or ordinary). */
export type PreparationKind = 'enrichment' | 'payment_preparation';

/** A saved preparation (table `preparations`), immutable once saved. */
export interface SavedPreparation {
  readonly id: string;
  readonly organizationId: string;
  readonly integrationId: string;
  readonly environment: Environment;
  readonly provider: PaymentProvider;
  readonly kind: PreparationKind;
  readonly storedInvoiceId: string;
  readonly snapshotId: string;
  readonly revision: string;
  readonly sourceIntegrationId: string;
  /** The connection's row id. */
  readonly connectionId: string;
  /** The accounting source's company id, as the API shows it. */
  readonly realmId: string;
  readonly checkedThrough: Date;
  readonly amountMinor: number;
  readonly currency: string;
  readonly idempotencyKey: string;
  readonly fingerprint: string;
  readonly mode: 'enhanced' | 'ordinary';
  /** The exact `data` answered. */
  readonly data: Record<string, unknown>;
  readonly createdAt: Date;
}

/** What one preparation request reads before it decides. */
export interface PreparationContextRead {
  readonly scope: TenantScope;
  readonly idempotencyKey: string;
  readonly selector: InvoiceSelector;
  readonly value: string;
}

export interface PreparationContext {
  /** The preparation already saved under the idempotency key, if any. */
  readonly saved: SavedPreparation | undefined;
  /** The visible invoices the selector names, oldest first, at most two (two: ambiguous). */
  readonly invoices: readonly InvoiceState[];
}

/** Where invoice-backed preparation reads what it decides on and saves what it decided (`server/persistence/preparation-store.ts`). */
export interface PreparationStore {
  /** The key's saved preparation and the invoices the selector names, read at once. */
  context(read: PreparationContextRead): Promise<PreparationContext>;
  /** Save one preparation; resolves once it is committed, rejects with `KeyTaken` (domain/idempotency) when the key was used already. */
  insert(preparation: SavedPreparation): Promise<void>;
}

/**
 * Saved preparations as reads of one unit of work (the `preparations` store of `UnitOfWork`): the operator views and
 * payment-report correlation. server/persistence/stores/saved-preparation-store.ts implements it.
 */
/**
 * A saved preparation as stored reads give it: with the qualification level of its provider output, which the database
 * copied from the pinned snapshot when it was saved (docs/network-qualification.md; `null`: not assessed).
 */
export interface StoredPreparation extends SavedPreparation {
  readonly qualificationLevel: QualificationLevel | null;
}

export interface SavedPreparationStore {
  /** A preparation of this integration and environment, or any when no scope is given (operators). */
  preparationById(id: string, scope?: { integrationId: string; environment: Environment }): Promise<StoredPreparation | undefined>;
  /** A keyset page in (createdAt, id) order after `after`, at most `limit`. */
  listPreparations(o: {
    invoiceId?: string | undefined;
    integrationId?: string | undefined;
    after?: { createdAt: Date; id: string } | undefined;
    limit: number;
  }): Promise<StoredPreparation[]>;
}
