/**
 * @svc/sdk: the typed client of the svc API, built on its ts-rest contract.
 *
 * ```ts
 * const svc = createClient({ baseUrl: 'https://svc.example.com', apiKey: process.env.SVC_KEY! });
 * const enriched = await svc.gwc.enrichPaymentIntent({ body: { invoice } });
 * ```
 */
export { createClient, RESOURCE_NAMESPACES } from './client.js';
export type { ClientOptions, FetchLike, RouteArgs, RouteCall, RouterClient, SvcClient, SvcResponse } from './client.js';
export { SvcError, isRetryableStatus } from './errors.js';
export { isGwaOrdinaryFallback } from './checkout.js';
export type { SvcErrorInit, SvcErrorType } from './errors.js';
export { DEFAULT_RETRY_POLICY, backoffDelay, isRetrySafeBody, isRetrySafeRequest, parseRetryAfter } from './retry.js';
export type { RetryOption, RetryPolicy } from './retry.js';
export type { InvoiceListItem, InvoicesHelpers, ListAllInvoicesArgs } from './pagination.js';
export { eventIdFrom, isIdempotencyKey, newEventId, newIdempotencyKey } from './ids.js';
export {
  enrichmentRequestIdOf,
  gwaSettlementArgs,
  mergeGwaSale,
  mergeGwbOrder,
  mergeGwcPaymentIntent,
  mergeGwcPreparation,
} from './merge.js';

// The contract itself: the single source of wire types and zod schemas.
export { contract } from '../../contract/index.js';
export type { Contract } from '../../contract/index.js';
export * from '../../contract/common/index.js';
export * from '../../contract/canonical-invoice.js';
export * from '../../contract/enrichment.js';
export * from '../../contract/payment-reports.js';
export * from '../../contract/invoices.js';
export * from '../../contract/preparations.js';
