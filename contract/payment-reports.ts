import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  AmountMinorSchema,
  CurrencySchema,
  ErrorEnvelopeSchema,
  ReferenceSchema,
  TimestampSchema,
  access,
  successEnvelope,
  type PaymentProvider,
} from './common/index.js';

const c = initContract();

/** Largest accepted report body (spec: 413 for oversized reports); generous for 20 fields of ≤ 160 characters. */
export const MAX_REPORT_BYTES = 16 * 1024;

const ALL_STATUSES = [
  'requires_action',
  'authorized',
  'captured',
  'partially_refunded',
  'refunded',
  'failed',
  'canceled',
  'unknown',
] as const;
export const ReportStatusSchema = z.enum(ALL_STATUSES);
export type ReportStatus = z.infer<typeof ReportStatusSchema>;
/** gwa has no customer-action state (spec: Report statuses). */
export const GwaReportStatusSchema = ReportStatusSchema.exclude(['requires_action']);

const identifier = (pattern: RegExp, description: string) =>
  z.string().min(1).max(160, 'Must be at most 160 characters').regex(pattern, description);

/**
 * `enrichmentRequestId`: a saved preparation's UUID, or the `x-svc-request-id`
 * of an inline enrichment response (spec: endpoint 13, correlation).
 */
export const EnrichmentRequestIdSchema = z
  .string()
  .regex(
    /^(req_[0-9a-f]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/,
    'Expected a preparation id (UUID) or an x-svc-request-id (req_…)',
  );

const commonReportShape = {
  eventId: ReferenceSchema.describe('Stable identity of this one observation; reused only for identical retries'),
  attemptId: ReferenceSchema.describe('Stable identity of the payment attempt; later observations reuse it'),
  currency: CurrencySchema.describe('Applies to all amounts'),
  amountMinor: AmountMinorSchema.describe('Attempt amount'),
  capturedAmountMinor: AmountMinorSchema.describe('Cumulative captured amount (not the authorization amount)'),
  refundedAmountMinor: AmountMinorSchema.describe('Cumulative refunded amount'),
  occurredAt: TimestampSchema.describe('When the outcome was observed (not the retry time); at most 5 minutes in the future'),
  enrichmentRequestId: EnrichmentRequestIdSchema.optional(),
  invoiceReference: ReferenceSchema.optional(),
  providerEventId: ReferenceSchema.optional(),
};

const errorCode = (pattern: RegExp) =>
  z
    .string()
    .max(80, 'Must be at most 80 characters')
    .regex(pattern, 'Must start with a lowercase letter, then letters, digits or underscores');

export const GwaPaymentReportSchema = z
  .object({
    ...commonReportShape,
    status: GwaReportStatusSchema,
    errorCode: errorCode(/^[a-z][a-z0-9_]*$/).optional(),
    source: z.enum(['merchant_webhook', 'api']),
    transactionId: identifier(/^[a-z0-9]+$/, 'Lowercase letters and digits only').optional(),
    merchantAccountId: ReferenceSchema.optional(),
  })
  .strict()
  .describe('Payment report (gwa)');

export const GwbPaymentReportSchema = z
  .object({
    ...commonReportShape,
    status: ReportStatusSchema,
    errorCode: errorCode(/^[a-z][A-Za-z0-9_]*$/).optional(),
    source: z.enum(['sdk', 'merchant_webhook', 'api']),
    paymentId: ReferenceSchema.optional(),
    orderId: ReferenceSchema.optional().describe('Correlation evidence only; one order may hold several payments'),
    locationId: ReferenceSchema.optional(),
  })
  .strict()
  .describe('Payment report (gwb)');

export const GwcPaymentReportSchema = z
  .object({
    ...commonReportShape,
    status: ReportStatusSchema,
    errorCode: errorCode(/^[a-z][A-Za-z0-9_]*$/).optional(),
    source: z.enum(['sdk', 'merchant_webhook', 'api']),
    paymentIntentId: identifier(/^pi_[A-Za-z0-9]+$/, 'Expected pi_ followed by letters and digits').optional(),
    chargeId: identifier(/^ch_[A-Za-z0-9]+$/, 'Expected ch_ followed by letters and digits').optional(),
    gwcAccountId: identifier(/^acct_[A-Za-z0-9]+$/, 'Expected acct_ followed by letters and digits').optional(),
  })
  .strict()
  .describe('Payment report (gwc)');

export type GwaPaymentReport = z.infer<typeof GwaPaymentReportSchema>;
export type GwbPaymentReport = z.infer<typeof GwbPaymentReportSchema>;
export type GwcPaymentReport = z.infer<typeof GwcPaymentReportSchema>;
export type PaymentReport = GwaPaymentReport | GwbPaymentReport | GwcPaymentReport;

const acknowledgment = <Name extends string>(object: Name) =>
  successEnvelope(object, z.object({ id: z.string().uuid(), duplicate: z.boolean() }).strict());

const reportRoute = <Provider extends PaymentProvider, Body extends z.ZodTypeAny>(provider: Provider, body: Body) =>
  c.mutation({
    method: 'POST',
    path: `/${provider}/payment-reports`,
    body,
    responses: {
      200: acknowledgment(`${provider}.payment_report` as const),
      409: ErrorEnvelopeSchema.describe('eventId reused with a different payload, or identity, currency or totals conflict'),
    },
    summary: `Report a ${provider} payment outcome`,
    description:
      'Record one immutable observation of a payment outcome seen by the merchant backend. Identical retries (same eventId and payload) ' +
      'are acknowledged with the first id and `duplicate: true`. The receipt confirms acceptance, not that the report became the latest ' +
      'state. Never retries or executes a payment.',
    metadata: { ...access(provider, ['payments:write'], { maxBodyBytes: MAX_REPORT_BYTES }), operationId: `${provider}ReportPayment` },
  });

export const paymentReportRoutes = {
  gwa: reportRoute('gwa', GwaPaymentReportSchema),
  gwb: reportRoute('gwb', GwbPaymentReportSchema),
  gwc: reportRoute('gwc', GwcPaymentReportSchema),
};
