import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuthContext } from '../auth/auth-context.js';
import { findEnrichmentRecord } from '../../persistence/sql/payment-reports.sql.js';
import { preparationById } from '../../persistence/sql/preparations.sql.js';
import { sqlOf } from '../../persistence/sql/sql.js';
import { DomainError } from '../errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the enrichment a report names expected the payment to be. */
export interface CorrelationTarget {
  enrichmentRequestId: string;
  amountMinor: number;
  currency: string;
}

/**
 * Resolve `enrichmentRequestId` within the key's own integration and
 * environment: an inline enrichment's `x-svc-request-id` (`req_…`), or a saved
 * preparation's UUID. Anything not found there is a 400: it is outside the
 * caller's context or does not exist (spec: endpoint 13).
 */
export async function resolveCorrelation(em: EntityManager, ctx: AuthContext, enrichmentRequestId: string): Promise<CorrelationTarget> {
  if (enrichmentRequestId.startsWith('req_')) {
    const record = await findEnrichmentRecord(sqlOf(em), {
      requestId: enrichmentRequestId,
      integrationId: ctx.integrationId,
      environment: ctx.environment,
    });
    if (record) return { enrichmentRequestId, ...record };
  }
  if (UUID.test(enrichmentRequestId)) {
    const preparation = await preparationById(sqlOf(em), enrichmentRequestId.toLowerCase(), {
      integrationId: ctx.integrationId,
      environment: ctx.environment,
    });
    if (preparation) return { enrichmentRequestId, amountMinor: preparation.amountMinor, currency: preparation.currency };
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
