import { z } from 'zod';
import { AmountMinorSchema, CurrencyCodeSchema, DecimalStringSchema, ReferenceSchema, TimestampSchema } from './common/index.js';

/**
 * Structural caps only. Provider limits (gwa names of 35 characters, codes of 12,
 * at most 249 or 200 lines, ...) are meaning, not shape: they are checked by the
 * enrichment core and reported as 422 issues.
 */
const MAX_TEXT = 4096;
const MAX_LINES = 1000;

const nullableReference = ReferenceSchema.nullable();
const nullableText = z.string().max(MAX_TEXT, `Must be at most ${MAX_TEXT} characters`).nullable();

export const InvoiceStatusSchema = z.enum(['draft', 'open', 'partially_paid', 'paid', 'void', 'uncollectible', 'unknown']);
export type InvoiceStatus = z.infer<typeof InvoiceStatusSchema>;

/** One line of a CanonicalInvoice (spec: CanonicalLine). Strict: every property required, nullable ones `null`. */
export const CanonicalLineSchema = z
  .object({
    sequence: z.number().int().nonnegative().safe().describe('Unique within the invoice; output is ordered by it'),
    productName: z.string().min(1, 'Must not be empty').max(MAX_TEXT, `Must be at most ${MAX_TEXT} characters`),
    description: nullableText,
    productCode: nullableReference.describe('SKU or merchant-confirmed product code'),
    commodityCode: nullableReference,
    quantity: DecimalStringSchema.describe('Exact decimal quantity as a string'),
    unitOfMeasure: nullableReference,
    unitAmountMinor: AmountMinorSchema.describe('Unit price in minor units'),
    subtotalAmountMinor: AmountMinorSchema.describe('quantity × unitAmountMinor'),
    taxAmountMinor: AmountMinorSchema,
    discountAmountMinor: AmountMinorSchema,
    totalAmountMinor: AmountMinorSchema.describe('subtotal + tax − discount'),
  })
  .strict();
export type CanonicalLine = z.infer<typeof CanonicalLineSchema>;

/** CanonicalInvoice v1, the inline invoice of the enrichment endpoints (spec: CanonicalInvoice). */
export const CanonicalInvoiceSchema = z
  .object({
    invoiceNumber: ReferenceSchema.describe('Authoritative invoice identifier'),
    purchaseOrderReference: nullableReference.describe("Buyer's purchase-order reference"),
    status: InvoiceStatusSchema,
    currency: CurrencyCodeSchema.describe('Three-letter currency code in any case; read as its lowercase form'),
    subtotalAmountMinor: AmountMinorSchema.describe('Before tax, shipping and discounts'),
    taxAmountMinor: AmountMinorSchema,
    shippingAmountMinor: AmountMinorSchema,
    discountAmountMinor: AmountMinorSchema,
    totalAmountMinor: AmountMinorSchema,
    balanceAmountMinor: AmountMinorSchema,
    issuedAt: TimestampSchema.nullable(),
    dueAt: TimestampSchema.nullable(),
    voidedAt: TimestampSchema.nullable(),
    lineItems: z.array(CanonicalLineSchema).min(1, 'An invoice needs at least one line').max(MAX_LINES, `At most ${MAX_LINES} lines`),
  })
  .strict()
  .describe('CanonicalInvoice v1');
export type CanonicalInvoice = z.infer<typeof CanonicalInvoiceSchema>;
