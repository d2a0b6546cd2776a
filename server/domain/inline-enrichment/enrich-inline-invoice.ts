import type { Issue, PaymentProvider } from '../../../contract/common/index.js';
import { batched, settleTogetherOrAlone, unwrap } from '../../persistence/sql/batch.js';
import { insertEnrichmentRecords } from '../../persistence/sql/enrichment-records.sql.js';
import type { Sql } from '../../persistence/sql/sql.js';
import type { AuthContext } from '../auth/auth-context.js';
import type { EnrichmentRecordInsert } from './types.js';
import { canonicalCurrency, enrichInline, type EnrichmentData, type EnrichmentRequest } from '../enrichment/index.js';

type InlineProvider = PaymentProvider;

/** Stores one correlation record; resolves once it is committed. */
export type EnrichmentRecordWriter = (row: EnrichmentRecordInsert) => Promise<void>;

/**
 * Correlation records of concurrent requests written as one multi-row INSERT
 * (group commit); each request is answered only after the statement holding
 * its row has committed. A refused statement is retried row by row, so one
 * row's failure is only its own request's.
 */
export function groupCommittedEnrichmentRecords(sql: Sql): EnrichmentRecordWriter {
  const write = batched((rows: EnrichmentRecordInsert[]) =>
    settleTogetherOrAlone(rows, async (some) => {
      await insertEnrichmentRecords(sql, some);
      return some.map(() => undefined);
    }),
  );
  return async (row) => unwrap(await write(row));
}

/**
 * Inline enrichment with its correlation record: the pure core produces the
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
