import { z } from 'zod';
import { CanonicalInvoiceSchema } from './canonical-invoice.js';
import { ReferenceSchema } from './common/index.js';

/*
 * Inline enrichment (spec: Endpoints 2, 5, 10). Zod checks shape only (types,
 * unknown keys, string-vs-number, value sets). Provider limits and arithmetic are
 * meaning: the enrichment core reports them as 422 issues (docs/issue-codes.md).
 */

/** Up to 10 letters, digits, spaces or hyphens (spec: Limits, gwa shipsFromPostalCode and gwc postal codes). */
export const PostalCodeSchema = z.string().regex(/^[A-Za-z0-9 -]{1,10}$/, 'Expected 1-10 letters, digits, spaces or hyphens');

// ---------------------------------------------------------------- gwa

export const GwaTransactionEnrichmentRequestSchema = z
  .object({
    invoice: CanonicalInvoiceSchema,
    options: z
      .object({
        shipsFromPostalCode: PostalCodeSchema.optional().describe("The merchant's fulfillment postal code"),
        purchaseOrderNumberSource: z
          .enum(['purchase_order', 'invoice_number'])
          .optional()
          .describe(
            "Default `purchase_order` (the buyer's PO). `invoice_number`: the caller attests buyers use the invoice number as their reference",
          ),
      })
      .strict()
      .optional(),
  })
  .strict();
export type GwaTransactionEnrichmentRequest = z.infer<typeof GwaTransactionEnrichmentRequestSchema>;

/** Dollars and cents, for example `"12.34"`: the gwa SDK takes amounts as decimal strings. */
const GwaAmountSchema = z.string().regex(/^(0|[1-9][0-9]*)\.[0-9]{2}$/);
/** Printable ASCII, 1-12 characters (spec: Limits, gwa productCode, commodityCode, unitOfMeasure). */
const GwaIdentifierSchema = z.string().regex(/^[\x20-\x7E]{1,12}$/);

export const GwaLineItemSchema = z
  .object({
    kind: z.literal('debit'),
    name: z.string().min(1).describe('Product name shortened to 35 Unicode code points'),
    description: z.string().optional().describe('Shortened to 127 Unicode code points; omitted when the line has none'),
    productCode: GwaIdentifierSchema,
    commodityCode: GwaIdentifierSchema.optional(),
    quantity: z
      .string()
      .regex(/^(0|[1-9][0-9]*)(\.[0-9]{1,4})?$/)
      .describe('Positive decimal string with at most 4 fraction digits, trailing zeros removed'),
    unitOfMeasure: GwaIdentifierSchema,
    unitAmount: GwaAmountSchema,
    totalAmount: GwaAmountSchema.describe('quantity × unitAmount, before tax and discount'),
    taxAmount: GwaAmountSchema.optional().describe('Line tax; present only when non-zero'),
    discountAmount: GwaAmountSchema.optional().describe('Line discount; present only when non-zero'),
  })
  .strict();
export type GwaLineItem = z.infer<typeof GwaLineItemSchema>;

/** Only keys the gwa SDK's sale and submit-for-settlement calls accept (docs/provider-facts.md §1.1). */
export const GwaTransactionEnrichmentDataSchema = z
  .object({
    amount: GwaAmountSchema.describe('Full invoice total'),
    orderId: z.string().min(1).describe('Invoice number'),
    purchaseOrderNumber: z.string().regex(/^[\x20-\x7E]{1,17}$/),
    taxAmount: GwaAmountSchema.describe('Invoice-level tax total, present even when zero'),
    shippingAmount: GwaAmountSchema.describe('Invoice-level shipping, present even when zero'),
    discountAmount: GwaAmountSchema.describe('Invoice-level discount total, present even when zero'),
    shipsFromPostalCode: PostalCodeSchema.optional().describe('Present only when supplied in the request'),
    lineItems: z.array(GwaLineItemSchema).min(1),
  })
  .strict();
export type GwaTransactionEnrichmentData = z.infer<typeof GwaTransactionEnrichmentDataSchema>;

// ---------------------------------------------------------------- gwb

/**
 * gwb models taxes and discounts as ORDER-scoped (applied to every line) or
 * LINE_ITEM-scoped (applied to the lines that reference them) (docs/provider-facts.md §2.1).
 */
export const GwbRepresentationSchema = z.enum(['order', 'line_item']);

export const GwbOrderEnrichmentRequestSchema = z
  .object({
    invoice: CanonicalInvoiceSchema,
    orderReference: ReferenceSchema.optional().describe(
      'Overrides `reference_id`; else purchaseOrderReference, then invoiceNumber. gwb accepts at most 40 characters',
    ),
    taxRepresentation: GwbRepresentationSchema.optional().describe(
      'Default `order`: one ORDER-scoped percentage tax that reproduces the invoice tax total. `line_item`: one LINE_ITEM-scoped tax per taxed line reproducing that line tax',
    ),
    discountRepresentation: GwbRepresentationSchema.optional().describe(
      'Default `order`: one ORDER-scoped FIXED_AMOUNT discount of the invoice discount. `line_item`: one LINE_ITEM-scoped FIXED_AMOUNT discount per discounted line',
    ),
  })
  .strict();
export type GwbOrderEnrichmentRequest = z.infer<typeof GwbOrderEnrichmentRequestSchema>;

/** gwb Money: an integer in the currency's smallest unit and an uppercase ISO 4217 code. */
export const GwbMoneySchema = z
  .object({ amount: z.number().int().nonnegative().safe(), currency: z.string().regex(/^[A-Z]{3}$/) })
  .strict();

export const GwbLineItemSchema = z
  .object({
    uid: z.string().describe('`line-<sequence>`, unique within the order'),
    name: z.string().min(1),
    quantity: z
      .string()
      .regex(/^[1-9][0-9]{0,11}$/)
      .describe('Whole number of items, 1-12 characters'),
    base_price_money: GwbMoneySchema.describe('Unit price before tax'),
    applied_taxes: z.array(z.object({ tax_uid: z.string() }).strict()).optional(),
    applied_discounts: z.array(z.object({ discount_uid: z.string() }).strict()).optional(),
  })
  .strict();
export type GwbLineItem = z.infer<typeof GwbLineItemSchema>;

export const GwbTaxSchema = z
  .object({
    uid: z.string(),
    name: z.string(),
    type: z.literal('ADDITIVE'),
    percentage: z
      .string()
      .regex(/^[0-9]+(\.[0-9]+)?$/)
      .max(10)
      .describe('Chosen so that gwb, rounding half to even, computes exactly the invoice tax'),
    scope: z.enum(['ORDER', 'LINE_ITEM']),
  })
  .strict();
export type GwbTax = z.infer<typeof GwbTaxSchema>;

export const GwbDiscountSchema = z
  .object({
    uid: z.string(),
    name: z.string(),
    type: z.literal('FIXED_AMOUNT'),
    amount_money: GwbMoneySchema,
    scope: z.enum(['ORDER', 'LINE_ITEM']),
  })
  .strict();
export type GwbDiscount = z.infer<typeof GwbDiscountSchema>;

export const GwbServiceChargeSchema = z
  .object({
    uid: z.string(),
    name: z.string(),
    amount_money: GwbMoneySchema,
    calculation_phase: z.literal('TOTAL_PHASE').describe('Added after discounts and tax, so it changes neither'),
    taxable: z.literal(false),
  })
  .strict();
export type GwbServiceCharge = z.infer<typeof GwbServiceChargeSchema>;

/** An Order fragment, not a complete create-order request: the caller adds `location_id` and the rest. */
export const GwbOrderEnrichmentDataSchema = z
  .object({
    reference_id: z.string().min(1).describe('At most 40 characters'),
    line_items: z.array(GwbLineItemSchema).min(1),
    taxes: z.array(GwbTaxSchema).optional().describe('Omitted when the invoice has no tax'),
    discounts: z.array(GwbDiscountSchema).optional().describe('Omitted when the invoice has no discount'),
    service_charges: z.array(GwbServiceChargeSchema).optional().describe('Shipping; omitted when zero'),
    metadata: z.record(z.string()).describe('`invoice_number` and, when present, `purchase_order_reference`'),
  })
  .strict();
export type GwbOrderEnrichmentData = z.infer<typeof GwbOrderEnrichmentDataSchema>;

// ---------------------------------------------------------------- gwc

export const GwcRepresentationSchema = z.enum(['transaction', 'line_item']);

export const GwcPaymentIntentEnrichmentRequestSchema = z
  .object({
    invoice: CanonicalInvoiceSchema,
    options: z
      .object({
        orderReference: ReferenceSchema.optional().describe(
          'Overrides payment_details.order_reference; else purchaseOrderReference, then invoiceNumber',
        ),
        customerReference: ReferenceSchema.nullable().optional(),
        taxRepresentation: GwcRepresentationSchema.optional().describe('Default `transaction`'),
        discountRepresentation: GwcRepresentationSchema.optional().describe('Default `transaction`'),
        shipping: z
          .object({
            fromPostalCode: PostalCodeSchema.nullable().optional(),
            toPostalCode: PostalCodeSchema.nullable().optional(),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type GwcPaymentIntentEnrichmentRequest = z.infer<typeof GwcPaymentIntentEnrichmentRequestSchema>;

const GwcTaxSchema = z.object({ total_tax_amount: z.number().int().nonnegative().safe() }).strict();

export const GwcLineItemSchema = z
  .object({
    product_name: z.string().min(1),
    product_code: z.string().min(1),
    unit_cost: z.number().int().nonnegative().safe().describe('Unit price in minor units'),
    quantity: z.number().int().positive().safe(),
    unit_of_measure: z.string().min(1),
    tax: GwcTaxSchema.optional().describe('Present on every line when taxRepresentation is `line_item`'),
    discount_amount: z
      .number()
      .int()
      .positive()
      .safe()
      .optional()
      .describe('Present on discounted lines when discountRepresentation is `line_item`'),
    payment_method_options: z
      .object({ card: z.object({ commodity_code: z.string().min(1) }).strict() })
      .strict()
      .optional(),
  })
  .strict();
export type GwcLineItem = z.infer<typeof GwcLineItemSchema>;

export const GwcPaymentIntentEnrichmentDataSchema = z
  .object({
    payment_details: z.object({ order_reference: z.string().min(1), customer_reference: z.string().min(1).optional() }).strict(),
    amount_details: z
      .object({
        enforce_arithmetic_validation: z.literal(true),
        line_items: z.array(GwcLineItemSchema).min(1),
        tax: GwcTaxSchema.optional().describe('Present when taxRepresentation is `transaction`'),
        discount_amount: z
          .number()
          .int()
          .positive()
          .safe()
          .optional()
          .describe('Present when discountRepresentation is `transaction` and the discount is non-zero'),
        shipping: z
          .object({
            amount: z.number().int().positive().safe().optional().describe('Present when shipping is non-zero'),
            from_postal_code: z.string().optional(),
            to_postal_code: z.string().optional(),
          })
          .strict()
          .optional(),
      })
      .strict(),
  })
  .strict();
export type GwcPaymentIntentEnrichmentData = z.infer<typeof GwcPaymentIntentEnrichmentDataSchema>;
