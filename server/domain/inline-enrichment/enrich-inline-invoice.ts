import type { Issue, PaymentProvider } from '../../../contract/common/index.js';
import type { AuthContext } from '../auth/auth-context.js';
import type { EnrichmentRecordInsert } from './types.js';
import { canonicalCurrency, enrichInline, type EnrichmentData, type EnrichmentRequest } from '../enrichment/index.js';

type InlineProvider = PaymentProvider;

/** Stores one enrichment record; resolves once it is committed (server/persistence/enrichment-record-group-commit.ts). */
export type EnrichmentRecordWriter = (row: EnrichmentRecordInsert) => Promise<void>;

/**
 * Inline enrichment with its enrichment record: the pure core produces the
 * provider fields or every issue; on success a small record (request id,
 * integration, environment, provider, amount, currency, invoice number, time)
 * is stored so a later payment report can name it as `enrichmentRequestId`.
 */
export async function enrichInlineInvoice<P extends InlineProvider>(
  records: EnrichmentRecordWriter,
  input: { ctx: AuthContext; provider: P; request: EnrichmentRequest<P>; requestId: string },
): Promise<{ ok: true; data: EnrichmentData<P> } | { ok: false; issues: Issue[] }> {
  const result = enrichInline(input.provider, input.request);
  if (!result.ok) return result;
  const { invoice } = input.request;
  await records({
    requestId: input.requestId,
    organizationId: input.ctx.organizationId,
    integrationId: input.ctx.integrationId,
    environment: input.ctx.environment,
    provider: input.provider,
    // The payment these fields go with is the whole invoice total (spec: Enrichment outputs).
    amountMinor: invoice.totalAmountMinor,
    currency: canonicalCurrency(invoice.currency),
    invoiceNumber: invoice.invoiceNumber,
    createdAt: new Date(),
  });
  return result;
}
