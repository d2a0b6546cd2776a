import { z } from 'zod';
import { InvoiceStatusSchema } from './canonical-invoice.js';
import {
  AmountMinorSchema,
  CategorizedIssueSchema,
  CurrencySchema,
  DecimalStringSchema,
  TimestampSchema,
  UuidSchema,
} from './common/index.js';

/*
 * Stored invoices imported from the accounting source (spec: StoredInvoice and
 * InvoiceSummary / InvoiceDetail). Schemas and types only; the routes come later.
 * Unavailable facts are `null`, never derived (spec: "Unavailable facts stay null");
 * every `null` money fact comes with an issue that says why (docs/issue-codes.md).
 */

const nullableAmount = AmountMinorSchema.nullable();

/** Where an invoice holds tax or discount; the mapper produces `transaction` only (docs/decisions.md). */
export const AmountRepresentationSchema = z.enum(['transaction', 'line_item']);
export type AmountRepresentation = z.infer<typeof AmountRepresentationSchema>;

/**
 * One stored line. Tax, discount and total are `null` when held at transaction level
 * (not allocated). unitAmountMinor, subtotalAmountMinor, quantity and productName are
 * `null` only when the source value is not exact or absent; an issue explains it.
 */
export const StoredLineSchema = z
  .object({
    sourceLineId: z.string().describe("The source line's Id"),
    sourceItemId: z.string().nullable().describe("The source Item's Id (ItemRef.value)"),
    sequence: z.number().int().nonnegative().safe(),
    productName: z.string().nullable(),
    description: z.string().nullable(),
    productCode: z.string().nullable().describe('Merchant-confirmed product code, else the source SKU as is'),
    unitOfMeasure: z.string().nullable().describe('Only from a merchant-confirmed mapping'),
    commodityCode: z.string().nullable().describe('Only from a merchant-confirmed mapping'),
    quantity: DecimalStringSchema.nullable(),
    unitAmountMinor: nullableAmount,
    subtotalAmountMinor: nullableAmount,
    taxAmountMinor: nullableAmount,
    discountAmountMinor: nullableAmount,
    totalAmountMinor: nullableAmount,
  })
  .strict();
export type StoredLine = z.infer<typeof StoredLineSchema>;

/** The mapped invoice snapshot (InvoiceDetail.invoice). */
export const StoredInvoiceSchema = z
  .object({
    invoiceNumber: z.string().nullable(),
    purchaseOrderReference: z.string().nullable(),
    status: InvoiceStatusSchema,
    currency: CurrencySchema.nullable(),
    subtotalAmountMinor: nullableAmount,
    taxAmountMinor: nullableAmount,
    shippingAmountMinor: nullableAmount,
    discountAmountMinor: nullableAmount,
    totalAmountMinor: nullableAmount,
    balanceAmountMinor: nullableAmount,
    taxRepresentation: AmountRepresentationSchema,
    discountRepresentation: AmountRepresentationSchema,
    issuedAt: TimestampSchema.nullable(),
    dueAt: TimestampSchema.nullable(),
    voidedAt: TimestampSchema.nullable(),
    lineItems: z.array(StoredLineSchema),
  })
  .strict();
export type StoredInvoice = z.infer<typeof StoredInvoiceSchema>;

export const SourceObjectTypeSchema = z.enum(['Invoice', 'Item', 'Preferences']);
export type SourceObjectType = z.infer<typeof SourceObjectTypeSchema>;

/** A source record the mapping used; `sourceRecordId` is null when the record is not imported. */
export const SourceDependencySchema = z
  .object({
    sourceRecordId: UuidSchema.nullable(),
    objectType: SourceObjectTypeSchema,
    externalId: z.string(),
  })
  .strict();
export type SourceDependency = z.infer<typeof SourceDependencySchema>;

/** A merchant-confirmed item mapping as provenance shows it (references only). */
export const ConfirmedMappingSchema = z
  .object({
    id: UuidSchema,
    sourceItemId: z.string(),
    productCode: z.string().nullable(),
    unitOfMeasure: z.string().nullable(),
    version: z.number().int().positive().safe(),
    evidence: z.string().nullable(),
    approvedBy: z.string(),
    approvedAt: TimestampSchema,
  })
  .strict();
export type ConfirmedMapping = z.infer<typeof ConfirmedMappingSchema>;

export const InvoiceProvenanceSchema = z
  .object({
    sourceIntegrationId: UuidSchema,
    sourceConnectionId: z.string(),
    sourceRecordId: UuidSchema,
    mapperVersion: z.string(),
    dependencies: z.array(SourceDependencySchema),
    mappings: z.array(ConfirmedMappingSchema),
  })
  .strict();
export type InvoiceProvenance = z.infer<typeof InvoiceProvenanceSchema>;

const summaryShape = {
  id: UuidSchema,
  ledgerInvoiceId: z.string(),
  invoiceNumber: z.string().nullable(),
  status: InvoiceStatusSchema,
  currency: CurrencySchema.nullable(),
  totalAmountMinor: nullableAmount,
  sourceVersion: z.string().nullable(),
  revision: z.string().nullable(),
  snapshotId: UuidSchema.nullable(),
  checkedThrough: TimestampSchema.nullable(),
  ready: z.boolean().describe('Ready for preparation with the calling key’s provider now; not a payment reservation'),
  issues: z.array(CategorizedIssueSchema),
};

export const InvoiceSummarySchema = z.object(summaryShape).strict();
export type InvoiceSummary = z.infer<typeof InvoiceSummarySchema>;

export const InvoiceDetailSchema = z
  .object({ ...summaryShape, invoice: StoredInvoiceSchema.nullable(), provenance: InvoiceProvenanceSchema })
  .strict();
export type InvoiceDetail = z.infer<typeof InvoiceDetailSchema>;
