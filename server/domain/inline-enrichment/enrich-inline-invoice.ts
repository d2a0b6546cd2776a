import type { EntityManager } from '@mikro-orm/postgresql';
import type { Issue, PaymentProvider } from '../../../contract/common/index.js';
import { insertEnrichmentRecord } from '../../persistence/sql/enrichment-records.sql.js';
import { sqlOf } from '../../persistence/sql/sql.js';
import type { AuthContext } from '../auth/auth-context.js';
import { enrichInline, type EnrichmentData, type EnrichmentRequest } from '../enrichment/index.js';

type InlineProvider = PaymentProvider;

/**
 * Inline enrichment with its correlation record: the pure core produces the
 * provider fields or every issue; on success a small record (request id,
 * integration, environment, provider, amount, currency, invoice number, time)
 * is stored so a later payment report can name it as `enrichmentRequestId`.
 */
export async function enrichInlineInvoice<P extends InlineProvider>(
  em: EntityManager,
  input: { ctx: AuthContext; provider: P; request: EnrichmentRequest<P>; requestId: string },
): Promise<{ ok: true; data: EnrichmentData<P> } | { ok: false; issues: Issue[] }> {
  const result = enrichInline(input.provider, input.request);
  if (!result.ok) return result;
  const { invoice } = input.request;
  await insertEnrichmentRecord(sqlOf(em), {
    requestId: input.requestId,
    organizationId: input.ctx.organizationId,
    integrationId: input.ctx.integrationId,
    environment: input.ctx.environment,
    provider: input.provider,
    // The payment these fields go with is the whole invoice total (spec: Enrichment outputs).
    amountMinor: invoice.totalAmountMinor,
    currency: invoice.currency,
    invoiceNumber: invoice.invoiceNumber,
    createdAt: new Date(),
  });
  return result;
}
