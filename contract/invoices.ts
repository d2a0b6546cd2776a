import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { InvoiceStatusSchema } from './canonical-invoice.js';
import {
  AmountMinorSchema,
  CategorizedIssueSchema,
  CurrencySchema,
  DecimalStringSchema,
  ErrorEnvelopeSchema,
  PaymentProviderSchema,
  REFERENCE_MAX,
  TimestampSchema,
  UuidSchema,
  access,
  successEnvelope,
} from './common/index.js';

/*
 * Stored invoices imported from the accounting source (spec: StoredInvoice and
 * InvoiceSummary / InvoiceDetail) and endpoints 8 and 9.
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

/**
 * What a checkout of the invoice can be now with the calling key's provider (spec: Preparation mode): `enhanced` (ready:
 * invoice-backed preparation gives the enhanced fields), `ordinary` (payable in full as a normal payment without enhanced
 * fields; `issues` say why it will not be enhanced), `blocked` (not payable as prepared now: state, source or amount
 * problems). gwa: a gap in PO, SKU or unit (the codes of `GWA_ORDINARY_FALLBACK_CODES`, and nothing else) downgrades to
 * `ordinary` while endpoint 1 still answers 422 with those codes; gwc: what endpoint 12's `mode` would be; gwb: `enhanced`
 * or `blocked`.
 */
export const CheckoutModeSchema = z.enum(['enhanced', 'ordinary', 'blocked']);
export type CheckoutMode = z.infer<typeof CheckoutModeSchema>;

/**
 * gwa issue codes that are gaps in PO, SKU or unit: with nothing else in the way they downgrade a gwa payment to ordinary
 * instead of blocking it (spec: Preparation mode). `item_mapping_revoked` is the merchant's own removal of a SKU or unit.
 */
export const GWA_ORDINARY_FALLBACK_CODES = [
  'missing_purchase_order_number',
  'missing_product_code',
  'missing_unit_of_measure',
  'item_mapping_revoked',
] as const;

/** Product 3 transaction fields (docs/network-qualification.md, "The fields"); stable codes. */
export const PRODUCT3_TRANSACTION_FIELDS = [
  'tax',
  'discount',
  'freight',
  'duty',
  'ship_from_postal_code',
  'destination_postal_code',
  'customer_code',
  'order_reference',
] as const;
/** Product 3 line fields; stable codes. */
export const PRODUCT3_LINE_FIELDS = [
  'descriptor',
  'product_code',
  'commodity_code',
  'quantity',
  'unit_of_measure',
  'unit_cost',
  'line_discount',
  'line_total',
] as const;
/**
 * Why an applicable Product 3 field is not sent (docs/network-qualification.md, "The level"); stable codes. Only
 * `not_in_source` is fixed at the source.
 */
export const MISSING_FIELD_REASONS = ['not_in_source', 'not_mapped', 'not_carried'] as const;
/** Placeholder-risk rules (docs/network-qualification.md, "Placeholder risks"); stable codes. */
export const PLACEHOLDER_RISK_CODES = [
  'generic_product_code',
  'repeated_product_code',
  'descriptor_equals_product_code',
  'descriptor_static_across_invoices',
  'single_unit_of_measure_everywhere',
  'commodity_code_format',
  'zero_tax_on_taxable_line',
  'line_total_mismatch',
] as const;

export const QualificationLevelSchema = z
  .enum(['product_3', 'partial', 'none'])
  .describe(
    '`product_3`: every Product 3 field that applies is sent with a value; `partial`: enhanced data is sent but an applicable field is missing; `none`: no line-item data is sent for this invoice',
  );
const Product3FieldSchema = z.enum([...PRODUCT3_TRANSACTION_FIELDS, ...PRODUCT3_LINE_FIELDS]);

/** The record and field of the accounting source (or of the merchant-confirmed item mapping) to fix. */
export const SourceFieldSchema = z
  .object({
    objectType: z.enum(['Invoice', 'Item', 'ItemMapping']),
    externalId: z.string().describe('The record’s id at the source (for ItemMapping: the id of the Item it maps)'),
    field: z.string().describe('Path inside the record, in the source’s names (`Line[2].SalesItemLineDetail.Qty`)'),
  })
  .strict();

const ProviderQualificationSchema = z
  .object({
    level: QualificationLevelSchema,
    missing: z.array(
      z
        .object({
          field: Product3FieldSchema,
          reason: z
            .enum(MISSING_FIELD_REASONS)
            .describe(
              '`not_in_source`: the source holds no value (fix it there); `not_mapped`: this output has a place for it, but this service does not take it from the source for invoice-backed outputs (fixing the source does not help); `not_carried`: this output has no place for it',
            ),
          path: z.string().describe('The stored invoice’s path'),
          source: SourceFieldSchema.nullable(),
        })
        .strict(),
    ),
    risks: z.array(
      z
        .object({
          code: z.enum(PLACEHOLDER_RISK_CODES),
          field: Product3FieldSchema,
          ledgerInvoiceId: z.string().nullable(),
          path: z.string().describe('The stored invoice’s path of the value at risk'),
          source: SourceFieldSchema.nullable(),
          message: z.string(),
        })
        .strict(),
    ),
  })
  .strict();

/**
 * Network qualification (Product 3) of the current snapshot per provider output, computed when the invoice was mapped
 * (docs/network-qualification.md); `null` for a snapshot mapped before it was computed. Never changes an output.
 */
export const InvoiceQualificationSchema = z
  .object({ gwa: ProviderQualificationSchema, gwb: ProviderQualificationSchema, gwc: ProviderQualificationSchema })
  .strict();
export type InvoiceQualification = z.infer<typeof InvoiceQualificationSchema>;

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
  checkoutMode: CheckoutModeSchema.describe(
    '`enhanced` when ready; `ordinary` when the invoice can be paid in full as a normal payment without enhanced fields ' +
      '(gwa: only PO, SKU or unit gaps, which endpoint 1 still refuses with 422 and these issues; gwc: endpoint 12’s ordinary mode); ' +
      '`blocked` otherwise. `issues` say why it is not enhanced',
  ),
  issues: z.array(CategorizedIssueSchema),
};

export const InvoiceSummarySchema = z.object(summaryShape).strict();
export type InvoiceSummary = z.infer<typeof InvoiceSummarySchema>;

export const InvoiceDetailSchema = z
  .object({
    ...summaryShape,
    invoice: StoredInvoiceSchema.nullable(),
    provenance: InvoiceProvenanceSchema,
    qualification: InvoiceQualificationSchema.nullable().describe(
      'Per provider output: whether the data is Product-3-grade (`level`), which applicable fields are `missing` and the placeholder `risks` on the fields it sends, each with the source record and field to fix; computed when the invoice was mapped, `null` for a snapshot mapped before that',
    ),
  })
  .strict();
export type InvoiceDetail = z.infer<typeof InvoiceDetailSchema>;

/** Spec Limits: invoice list page size 1-100, default 25. */
export const INVOICE_PAGE_DEFAULT = 25;
export const INVOICE_PAGE_MAX = 100;

export const InvoiceListQuerySchema = z
  .object({
    ledgerInvoiceId: z.string().min(1).max(REFERENCE_MAX).optional().describe('Exact invoice ID in the accounting source'),
    invoiceNumber: z
      .string()
      .min(1)
      .max(REFERENCE_MAX)
      .optional()
      .describe(
        'Exact source invoice number; several invoices with one number are all returned (resolve them by `id` or `ledgerInvoiceId`, never pick the first). A shared number does not change `ready`: selecting such an invoice *by number* for a preparation answers 409 `ambiguous_invoice_number`',
      ),
    cursor: z
      .string()
      .min(1)
      .max(512)
      .optional()
      .describe(
        'Opaque: the previous page’s `nextCursor` as is, sent with identical filters; a cursor that was changed, or is used with other filters or by another integration’s key, answers 400 `invalid_cursor`',
      ),
    limit: z.coerce.number().int().min(1).max(INVOICE_PAGE_MAX).optional().describe('Page size 1-100, default 25'),
  })
  .strict();
export type InvoiceListQuery = z.infer<typeof InvoiceListQuerySchema>;

export const InvoiceListSchema = z.object({ invoices: z.array(InvoiceSummarySchema), nextCursor: z.string().nullable() }).strict();

const c = initContract();
const invoiceAccess = access(PaymentProviderSchema.options, ['invoices:read']);

/** Endpoints 8 and 9: imported invoices visible to the key (its provider integration's linked accounting sources). */
export const invoiceRoutes = c.router({
  list: {
    method: 'GET',
    path: '/invoices',
    query: InvoiceListQuerySchema,
    responses: { 200: successEnvelope('invoice.list', InvoiceListSchema) },
    summary: 'List imported invoices with readiness for the key’s provider',
    description:
      'Invoices of the accounting-source connections linked to the calling key’s integration (same organization and environment), ' +
      'oldest first, with `ready` and categorized `issues` for the key’s provider. Page with `nextCursor` and identical filters ' +
      'until it is null. An empty list means no matching visible invoice, not that none exists at the source.',
    metadata: { ...invoiceAccess, operationId: 'listInvoices' },
  },
  get: {
    method: 'GET',
    path: '/invoices/:invoiceId',
    pathParams: z
      .object({ invoiceId: z.string().max(64).describe('The invoice’s `id` (service UUID) from the list, not its `ledgerInvoiceId`') })
      .strict(),
    responses: {
      200: successEnvelope('invoice', InvoiceDetailSchema),
      404: ErrorEnvelopeSchema.describe('No such invoice visible to this key (missing, malformed and out-of-scope ids answer alike)'),
    },
    summary: 'One imported invoice with its current snapshot and provenance',
    description:
      'The summary fields, the current snapshot as `invoice`, and `provenance` (references only: never provider payloads or tokens). ' +
      '`ready` and `issues` are for the calling key’s provider, evaluated now.',
    metadata: { ...invoiceAccess, operationId: 'getInvoice' },
  },
});
