import { initContract } from '@ts-rest/core';
import type { z } from 'zod';
import { ErrorEnvelopeSchema, access, successEnvelope, type PaymentProvider } from './common/index.js';
import {
  GwaTransactionEnrichmentDataSchema,
  GwaTransactionEnrichmentRequestSchema,
  GwbOrderEnrichmentDataSchema,
  GwbOrderEnrichmentRequestSchema,
  GwcPaymentIntentEnrichmentDataSchema,
  GwcPaymentIntentEnrichmentRequestSchema,
} from './enrichment.js';

const c = initContract();

/** `object` of each provider's enrichment envelope, inline or invoice-backed. */
export const ENRICHMENT_OBJECTS = {
  gwa: 'gwa.transaction_enrichment',
  gwb: 'gwb.order_enrichment',
  gwc: 'gwc.payment_intent_enrichment',
} as const satisfies Record<PaymentProvider, string>;

const CORRELATION_NOTE =
  "The response's `x-svc-request-id` identifies this enrichment: send it as `enrichmentRequestId` when reporting the payment outcome.";

function enrichmentRoute<Object extends string, Body extends z.ZodTypeAny, Data extends z.ZodTypeAny>(route: {
  provider: PaymentProvider;
  path: string;
  object: Object;
  body: Body;
  data: Data;
  operationId: string;
  summary: string;
  description: string;
}) {
  return c.mutation({
    method: 'POST',
    path: route.path,
    body: route.body,
    responses: {
      200: successEnvelope(route.object, route.data),
      422: ErrorEnvelopeSchema.describe('The invoice is well-formed but cannot produce valid provider fields; every issue is listed'),
    },
    summary: route.summary,
    description: `${route.description} ${CORRELATION_NOTE}`,
    metadata: { ...access(route.provider, ['enrichment:write']), operationId: route.operationId },
  });
}

/** Endpoints 2, 5 and 10: inline enrichment from a CanonicalInvoice. */
export const inlineEnrichmentRoutes = {
  gwa: enrichmentRoute({
    provider: 'gwa',
    path: '/gwa/transaction-enrichment',
    object: ENRICHMENT_OBJECTS.gwa,
    body: GwaTransactionEnrichmentRequestSchema,
    data: GwaTransactionEnrichmentDataSchema,
    operationId: 'gwaEnrichTransaction',
    summary: 'Level 2/3 fields for a gwa sale from an inline invoice',
    description:
      'Spread `data` into your own sale request next to the payment-method nonce; for authorize-then-capture pass `data.amount` as the ' +
      'settlement amount and the other fields as submit-for-settlement options. The transaction amount is the invoice total.',
  }),
  gwb: enrichmentRoute({
    provider: 'gwb',
    path: '/gwb/order-enrichment',
    object: ENRICHMENT_OBJECTS.gwb,
    body: GwbOrderEnrichmentRequestSchema,
    data: GwbOrderEnrichmentDataSchema,
    operationId: 'gwbEnrichOrder',
    summary: 'An order fragment for gwb from an inline invoice',
    description:
      "Merge `data` into your own create-order request (add `location_id` and your idempotency key). The fragment totals exactly the invoice total under gwb's own arithmetic.",
  }),
  gwc: enrichmentRoute({
    provider: 'gwc',
    path: '/gwc/payment-intent-enrichment',
    object: ENRICHMENT_OBJECTS.gwc,
    body: GwcPaymentIntentEnrichmentRequestSchema,
    data: GwcPaymentIntentEnrichmentDataSchema,
    operationId: 'gwcEnrichPaymentIntent',
    summary: 'payment_details and amount_details for a gwc PaymentIntent from an inline invoice',
    description:
      'Merge `data.payment_details` and `data.amount_details` into your own PaymentIntent create, update, confirm or capture call; its `amount` must be the invoice total.',
  }),
};
