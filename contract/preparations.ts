import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  CategorizedIssueSchema,
  CurrencySchema,
  ErrorTypeSchema,
  IdempotencyKeySchema,
  IssueSchema,
  IssueCategorySchema,
  PositiveAmountMinorSchema,
  REFERENCE_MAX,
  TimestampSchema,
  UuidSchema,
  access,
  type PaymentProvider,
} from './common/index.js';
import { GwaTransactionEnrichmentDataSchema, GwbOrderEnrichmentDataSchema, GwcPaymentIntentEnrichmentDataSchema } from './enrichment.js';
import { ENRICHMENT_OBJECTS } from './inline-enrichment.js';

/*
 * Invoice-backed preparation (spec endpoints 1, 6, 11, 12; docs/decisions.md,
 * "Invoice-backed preparation"; docs/errors.md for the 409/422 split).
 */

/** The invoice selectors of a preparation request: exactly one is sent. */
export const INVOICE_SELECTORS = ['invoiceId', 'ledgerInvoiceId', 'invoiceNumber'] as const;
export type InvoiceSelector = (typeof INVOICE_SELECTORS)[number];

const requestShape = {
  invoiceId: UuidSchema.optional().describe('Service invoice UUID'),
  ledgerInvoiceId: z.string().min(1).max(REFERENCE_MAX).optional().describe('Exact invoice ID in the accounting source'),
  invoiceNumber: z.string().min(1).max(REFERENCE_MAX).optional().describe('Source invoice number; only when it names one visible invoice'),
  amountMinor: PositiveAmountMinorSchema.describe('The full invoice total, which must also be its open balance'),
  currency: CurrencySchema.describe('Lowercase currency of the invoice'),
  idempotencyKey: IdempotencyKeySchema.describe('Persist it before the first request; reuse it only for the same request'),
  expectedRevision: z
    .string()
    .min(1)
    .max(REFERENCE_MAX)
    .optional()
    .describe('The revision reviewed at lookup; a changed invoice is refused'),
};

/** Exactly one selector: zero or several is a 400 naming the selectors. */
function exactlyOneSelector(body: Partial<Record<InvoiceSelector, string>>, ctx: z.RefinementCtx): void {
  const sent = INVOICE_SELECTORS.filter((s) => body[s] !== undefined);
  if (sent.length === 1) return;
  ctx.addIssue({
    code: z.ZodIssueCode.custom,
    path: sent.length === 0 ? [] : [sent[1]!],
    message:
      sent.length === 0
        ? 'Send exactly one of invoiceId, ledgerInvoiceId or invoiceNumber'
        : `Send exactly one of invoiceId, ledgerInvoiceId or invoiceNumber, not ${sent.join(' and ')}`,
  });
}

export const PreparationRequestSchema = z.object(requestShape).strict().superRefine(exactlyOneSelector);
export type PreparationRequest = z.infer<typeof PreparationRequestSchema>;

/** gwa accepts USD only (spec: Limits, gwa currency). */
export const GwaPreparationRequestSchema = z
  .object({ ...requestShape, currency: z.literal('usd', { errorMap: () => ({ message: 'gwa accepts only usd' }) }) })
  .strict()
  .superRefine(exactlyOneSelector);

/** The saved preparation: evidence beside `data`, never merged into a provider request (spec: Preparation record). */
export const PreparationRecordSchema = z
  .object({
    id: UuidSchema.describe('Send as `enrichmentRequestId` when reporting the payment'),
    invoiceId: UuidSchema,
    snapshotId: UuidSchema,
    revision: z.string(),
    sourceIntegrationId: UuidSchema,
    sourceConnectionId: z.string(),
    checkedThrough: TimestampSchema,
    createdAt: TimestampSchema,
    amountMinor: PositiveAmountMinorSchema,
    currency: CurrencySchema,
  })
  .strict();
export type PreparationRecord = z.infer<typeof PreparationRecordSchema>;

export const PreparationModeSchema = z.enum(['enhanced', 'ordinary']);
export type PreparationMode = z.infer<typeof PreparationModeSchema>;

/** Endpoint 12's `data` (spec: Preparation mode). */
export const GwcPaymentPreparationDataSchema = z
  .object({
    mode: PreparationModeSchema,
    enrichment: GwcPaymentIntentEnrichmentDataSchema.nullable(),
    optimizationIssues: z.array(CategorizedIssueSchema),
  })
  .strict();
export type GwcPaymentPreparationData = z.infer<typeof GwcPaymentPreparationDataSchema>;

/** An error issue of a preparation: categorized when it concerns the invoice (docs/errors.md). */
export const PreparationIssueSchema = IssueSchema.extend({ category: IssueCategorySchema.optional() }).strict();

export const PreparationErrorEnvelopeSchema = z
  .object({ error: z.object({ type: ErrorTypeSchema, message: z.string(), issues: z.array(PreparationIssueSchema) }).strict() })
  .strict();

const c = initContract();

function preparedEnvelope<Name extends string, Data extends z.ZodTypeAny>(object: Name, data: Data) {
  return z.object({ object: z.literal(object), api_version: z.literal('v1'), data, preparation: PreparationRecordSchema }).strict();
}

const PREPARATION_NOTE =
  'The invoice is selected among the invoices of the accounting sources linked to the key’s integration; it must be open, fully ' +
  'unpaid, fresh (checked within 4 hours, no sync pending) and its connection active. `amountMinor` and `currency` must equal the ' +
  'invoice total, balance and currency. Save `preparation.id` with the payment attempt and send it as `enrichmentRequestId`. ' +
  'An identical retry with the same `idempotencyKey` returns the same preparation while the invoice still passes every check; the same ' +
  'key with another body is a 409.';

function preparationRoute<Object extends string, Body extends z.ZodTypeAny, Data extends z.ZodTypeAny>(route: {
  provider: PaymentProvider;
  path: string;
  object: Object;
  body: Body;
  data: Data;
  operationId: string;
  summary: string;
  description: string;
  unprocessable: boolean;
}) {
  const responses = {
    200: preparedEnvelope(route.object, route.data),
    404: PreparationErrorEnvelopeSchema.describe('No such invoice visible to this key'),
    409: PreparationErrorEnvelopeSchema.describe(
      'The invoice or the request conflicts with the payment: not open or not fully unpaid, amount, currency or revision differs, ' +
        'source stale, paused or disconnected, ambiguous invoice number, or idempotency key reused with another body; every issue is listed',
    ),
  };
  const unprocessable = PreparationErrorEnvelopeSchema.describe(
    'The invoice cannot produce valid provider fields (mapping or validation issues); every issue is listed',
  );
  return c.mutation({
    method: 'POST',
    path: route.path,
    body: route.body,
    responses: route.unprocessable ? { ...responses, 422: unprocessable } : responses,
    summary: route.summary,
    description: `${route.description} ${PREPARATION_NOTE}`,
    metadata: { ...access(route.provider, ['invoices:read', 'enrichment:write']), operationId: route.operationId },
  });
}

/** Endpoints 1, 6, 11 and 12. */
export const preparationRoutes = {
  gwa: preparationRoute({
    provider: 'gwa',
    path: '/gwa/transaction-enrichment/from-invoice',
    object: ENRICHMENT_OBJECTS.gwa,
    body: GwaPreparationRequestSchema,
    data: GwaTransactionEnrichmentDataSchema,
    operationId: 'gwaEnrichTransactionFromInvoice',
    summary: 'Level 2/3 fields for a gwa sale from an imported invoice, with a saved preparation',
    description: 'Spread `data` into your own sale request; do not merge `preparation`.',
    unprocessable: true,
  }),
  gwb: preparationRoute({
    provider: 'gwb',
    path: '/gwb/order-enrichment/from-invoice',
    object: ENRICHMENT_OBJECTS.gwb,
    body: PreparationRequestSchema,
    data: GwbOrderEnrichmentDataSchema,
    operationId: 'gwbEnrichOrderFromInvoice',
    summary: 'An order fragment for gwb from an imported invoice, with a saved preparation',
    description: 'Merge `data` into your own create-order request.',
    unprocessable: true,
  }),
  gwc: preparationRoute({
    provider: 'gwc',
    path: '/gwc/payment-intent-enrichment/from-invoice',
    object: ENRICHMENT_OBJECTS.gwc,
    body: PreparationRequestSchema,
    data: GwcPaymentIntentEnrichmentDataSchema,
    operationId: 'gwcEnrichPaymentIntentFromInvoice',
    summary: 'payment_details and amount_details for a gwc PaymentIntent from an imported invoice (enhancement only)',
    description:
      'Merge `data.payment_details` and `data.amount_details` into your own PaymentIntent call; the order reference is the invoice number.',
    unprocessable: true,
  }),
  gwcPreparation: preparationRoute({
    provider: 'gwc',
    path: '/gwc/payment-preparations/from-invoice',
    object: 'gwc.payment_preparation',
    body: PreparationRequestSchema,
    data: GwcPaymentPreparationDataSchema,
    operationId: 'gwcPreparePaymentFromInvoice',
    summary: 'A gwc payment preparation from an imported invoice: enhanced fields, or ordinary mode with the reasons',
    description:
      'Branch only on `data.mode`: when `enhanced` merge `data.enrichment` into your PaymentIntent call; when `ordinary` omit ' +
      '`amount_details` and `payment_details`. Store `preparation.id` in the payment metadata under `svc_preparation_id` in both modes. ' +
      'Mapping and validation gaps give `ordinary` with `optimizationIssues`; payment, source and request conflicts stay 409s.',
    unprocessable: false,
  }),
};
