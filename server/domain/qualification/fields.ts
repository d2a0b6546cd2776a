import { PaymentProviderSchema } from '../../../contract/common/index.js';
import {
  MISSING_FIELD_REASONS,
  PLACEHOLDER_RISK_CODES,
  PRODUCT3_LINE_FIELDS,
  PRODUCT3_TRANSACTION_FIELDS,
} from '../../../contract/invoices.js';
import type { Provider } from '../enrichment/index.js';

/*
 * The Product 3 data elements this service reasons about (docs/network-qualification.md,
 * "The fields"): the names are stable codes, shown to merchants and operators; the lists are the contract's.
 */

export const TRANSACTION_FIELDS = PRODUCT3_TRANSACTION_FIELDS;
export type TransactionField = (typeof TRANSACTION_FIELDS)[number];

export const LINE_FIELDS = PRODUCT3_LINE_FIELDS;
export type LineField = (typeof LINE_FIELDS)[number];

export type Product3Field = TransactionField | LineField;

/**
 * `product_3`: every Product 3 field that applies to the invoice is carried with a value;
 * `partial`: the output carries enhanced data but some applicable field is missing;
 * `none`: the output carries no line-item data to the card networks for this invoice.
 */
export type QualificationLevel = 'product_3' | 'partial' | 'none';

/**
 * A field of the accounting source, the place a merchant fixes a value:
 * `Invoice` and `Item` are the source's records (by their id there); `ItemMapping` is the
 * merchant-confirmed mapping of an Item in this service (the source has no unit of measure
 * or commodity code: docs/provider-facts.md §4.4).
 */
export interface SourceField {
  readonly objectType: 'Invoice' | 'Item' | 'ItemMapping';
  /** The record's id at the source (for `ItemMapping`, the id of the Item it maps). */
  readonly externalId: string;
  /** Path inside the record, in the source's own names (`Line[2].SalesItemLineDetail.Qty`). */
  readonly field: string;
}

/**
 * Why an applicable field is not sent: `not_in_source`, the source holds no value (fixed there); `not_mapped`, the
 * output has a place for it but this service does not take it from the source for invoice-backed outputs (fixing the
 * source does not help); `not_carried`, the output has no place for it.
 */
export type MissingReason = (typeof MISSING_FIELD_REASONS)[number];

export interface MissingField {
  readonly field: Product3Field;
  readonly reason: MissingReason;
  /** The stored invoice's path (`invoice.lineItems[1].unitOfMeasure`). */
  readonly path: string;
  /** Where the value would come from; `null` when the source has no such field or it is not known. */
  readonly source: SourceField | null;
}

export const RISK_CODES = PLACEHOLDER_RISK_CODES;
export type RiskCode = (typeof RISK_CODES)[number];

/** One placeholder-risk finding: explains itself and names what to fix; it never changes an output. */
export interface RiskFinding {
  readonly code: RiskCode;
  /** The Product 3 field at risk. */
  readonly field: Product3Field;
  /** The invoice the finding is about (its id at the source); `null` when the invoice has none. */
  readonly ledgerInvoiceId: string | null;
  /** The stored invoice's path of the value at risk. */
  readonly path: string;
  /** The source record and field to fix; `null` when the source path is not known (the `path` then says where). */
  readonly source: SourceField | null;
  readonly message: string;
}

export interface ProviderQualification {
  readonly level: QualificationLevel;
  /** Applicable Product 3 fields the output will not send, each with where to fix it. */
  readonly missing: readonly MissingField[];
  /** Risk findings on fields this output carries. */
  readonly risks: readonly RiskFinding[];
}

export type Qualification = { readonly [P in Provider]: ProviderQualification };

const PROVIDERS: readonly Provider[] = PaymentProviderSchema.options;

/** One value per provider output (a qualification, its stored form): `of` called for each provider in turn. */
export function perProvider<T>(of: (provider: Provider) => T): { readonly [P in Provider]: T } {
  return Object.fromEntries(PROVIDERS.map((provider) => [provider, of(provider)])) as { [P in Provider]: T };
}
