import type { AuthContext } from '../auth/auth-context.js';
import { DomainError } from '../errors.js';
import type { SavedPreparationStore } from '../preparations/ports.js';
import type { PaymentReportStore } from './ports.js';
import { enrichmentReferenceOf, type EnrichmentReference } from './enrichment-reference.js';

/** What the enrichment a report names expected the payment to be. */
export interface CorrelationTarget {
  /** The report's `enrichmentRequestId` as given (stored with the payment and its exceptions). */
  enrichmentRequestId: string;
  reference: EnrichmentReference;
  amountMinor: number;
  currency: string;
}

/**
 * Resolve `enrichmentRequestId` within the key's own integration and
 * environment: an inline enrichment's `x-svc-request-id` (`req_…`), or a saved
 * preparation's UUID. Anything not found there is a 400: it is outside the
 * caller's context or does not exist (spec: endpoint 13).
 */
export async function resolveCorrelation(
  store: { paymentReports: PaymentReportStore; preparations: SavedPreparationStore },
  ctx: AuthContext,
  enrichmentRequestId: string,
): Promise<CorrelationTarget> {
  const reference = enrichmentReferenceOf(enrichmentRequestId);
  if (reference?.kind === 'inline_enrichment') {
    const record = await store.paymentReports.findEnrichmentRecord({
      requestId: reference.requestId,
      integrationId: ctx.integrationId,
      environment: ctx.environment,
    });
    if (record) return { enrichmentRequestId, reference, ...record };
  }
  if (reference?.kind === 'preparation') {
    const preparation = await store.preparations.preparationById(reference.preparationId, {
      integrationId: ctx.integrationId,
      environment: ctx.environment,
    });
    if (preparation) return { enrichmentRequestId, reference, amountMinor: preparation.amountMinor, currency: preparation.currency };
  }
  throw new DomainError('validation_error', 'The report names an enrichment that does not exist in this integration and environment', [
    {
      code: 'enrichment_reference_not_found',
      path: 'enrichmentRequestId',
      message: "No enrichment or preparation with this id exists for this API key's integration and environment",
    },
  ]);
}

/** Differences between a report and its enrichment, recorded as correlation exceptions. */
export function correlationMismatches(target: CorrelationTarget, report: { amountMinor: number; currency: string }) {
  const out: { kind: 'amount_mismatch' | 'currency_mismatch'; expected: string; observed: string }[] = [];
  if (report.amountMinor !== target.amountMinor) {
    out.push({ kind: 'amount_mismatch', expected: String(target.amountMinor), observed: String(report.amountMinor) });
  }
  if (report.currency !== target.currency) out.push({ kind: 'currency_mismatch', expected: target.currency, observed: report.currency });
  return out;
}
