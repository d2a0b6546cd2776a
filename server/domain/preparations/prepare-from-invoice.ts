import type { CategorizedIssue, PaymentProvider } from '../../../contract/common/index.js';
import { INVOICE_SELECTORS, type PreparationRecord, type PreparationRequest } from '../../../contract/preparations.js';
import type { PreparationContext, PreparationRow } from '../../persistence/sql/preparations.sql.js';
import type { InvoiceReadRow } from '../../persistence/sql/stored-invoices.sql.js';
import type { AuthContext } from '../auth/auth-context.js';
import { DomainError } from '../errors.js';
import { idempotentWrite, type KeyConflict } from '../idempotency/idempotent-write.js';
import { requestFingerprint } from '../idempotency/fingerprint.js';
import { invoiceIssue } from '../invoices/issue-categories.js';
import { sourceStateOfRow } from '../invoices/invoice-views.js';
import { decidePreparation, evaluate, type PreparationKind } from './evaluate.js';
import { preparationMetrics } from '../../observability/business-metrics.js';
import { inSpan } from '../../observability/spans.js';

export type { PreparationKind } from './evaluate.js';
import type { PreparationStore } from './preparation-store.js';

export interface PreparationResult {
  data: unknown;
  preparation: PreparationRecord;
  replayed: boolean;
  /** Enhanced data, or ordinary mode (endpoint 12 only). */
  mode: 'enhanced' | 'ordinary';
}

const KEY_REUSED: KeyConflict = {
  message: 'The idempotency key was used for a different preparation request',
  issue: {
    code: 'idempotency_key_conflict',
    path: 'idempotencyKey',
    message: 'This key already prepared another request; use a new key for a new request',
  },
};

/**
 * Invoice-backed preparation (spec endpoints 1, 6, 11, 12; docs/decisions.md,
 * "Invoice-backed preparation"). One answer per (integration, idempotency key):
 * an identical retry gets the saved preparation back after its checks pass again
 * now; a blocked attempt saves nothing. One read (`preparationContexts`) before the
 * answer or the insert.
 */
export async function prepareFromInvoice(store: PreparationStore, input: PrepareInput): Promise<PreparationResult> {
  // The one place a preparation's outcome is counted (docs/operations.md, svc_preparations_total).
  const endpoint = input.kind === 'enrichment' ? ENRICHMENT_ENDPOINTS[input.provider] : 'gwc_payment_preparation';
  try {
    const result = await inSpan('preparation.prepare', prepare, store, input);
    preparationMetrics.prepared(endpoint, result.mode);
    return result;
  } catch (err) {
    preparationMetrics.refused(endpoint, refusalCategory(err));
    throw err;
  }
}

type PrepareInput = { ctx: AuthContext; provider: PaymentProvider; kind: PreparationKind; request: PreparationRequest; now?: Date };

const ENRICHMENT_ENDPOINTS = { gwa: 'gwa_enrichment', gwb: 'gwb_enrichment', gwc: 'gwc_enrichment' } as const;

/** A refusal's category for the metrics: its first issue's (the deciding one: state problems come first), or what refused it. */
function refusalCategory(err: unknown): string {
  if (!(err instanceof DomainError)) return 'internal';
  if (err.type === 'not_found') return 'not_found';
  const first = err.issues[0] as { code: string; category?: string } | undefined;
  if (first?.category) return first.category;
  return first?.code === KEY_REUSED.issue.code ? 'idempotency' : err.type;
}

async function prepare(store: PreparationStore, input: PrepareInput): Promise<PreparationResult> {
  const { ctx, provider, kind, request } = input;
  const now = input.now ?? new Date();
  const selector = INVOICE_SELECTORS.find((s) => request[s] !== undefined)!;
  const fingerprint = requestFingerprint({
    kind,
    provider,
    invoiceId: request.invoiceId?.toLowerCase() ?? null,
    ledgerInvoiceId: request.ledgerInvoiceId ?? null,
    invoiceNumber: request.invoiceNumber ?? null,
    amountMinor: request.amountMinor,
    currency: request.currency,
    expectedRevision: request.expectedRevision ?? null,
  });
  const value = selector === 'invoiceId' ? request.invoiceId!.toLowerCase() : request[selector]!;
  let context: Pick<PreparationContext, 'saved' | 'invoices'> = { saved: undefined, invoices: [] };
  const { answer: row, replayed } = await idempotentWrite<PreparationRow>({
    fingerprint,
    find: async () => {
      context = await store.context({ scope: ctx, idempotencyKey: request.idempotencyKey, selector, value });
      return context.saved && { fingerprint: context.saved.fingerprint, answer: context.saved };
    },
    create: async () => {
      const invoice = selectedInvoice(context.invoices, selector, value);
      const data = decidePreparation(evaluate(invoice, provider, request, now), kind);
      const saved: PreparationRow = {
        id: crypto.randomUUID(),
        organization_id: ctx.organizationId,
        integration_id: ctx.integrationId,
        environment: ctx.environment,
        provider,
        kind,
        stored_invoice_id: invoice.id,
        snapshot_id: invoice.snapshot_id!,
        revision: invoice.revision!,
        source_integration_id: invoice.integration_id,
        connection_id: invoice.connection_id,
        source_connection_id: invoice.realm_id,
        checked_through: invoice.checked_through!,
        amount_minor: String(request.amountMinor),
        currency: request.currency,
        idempotency_key: request.idempotencyKey,
        fingerprint,
        mode: data.mode,
        data: data.data as Record<string, unknown>,
        created_at: now,
      };
      await store.insert(saved);
      return saved;
    },
    conflict: KEY_REUSED,
  });
  if (replayed) checkReplay(selectedInvoice(context.invoices, selector, value), row, provider, request, now);
  return { data: row.data, preparation: preparationRecord(row), replayed, mode: row.mode === 'ordinary' ? 'ordinary' : 'enhanced' };
}

/** The API's preparation record of a saved row. */
export function preparationRecord(row: PreparationRow): PreparationRecord {
  return {
    id: row.id,
    invoiceId: row.stored_invoice_id,
    snapshotId: row.snapshot_id,
    revision: row.revision,
    sourceIntegrationId: row.source_integration_id,
    sourceConnectionId: row.source_connection_id,
    checkedThrough: row.checked_through.toISOString(),
    createdAt: row.created_at.toISOString(),
    amountMinor: Number(row.amount_minor),
    currency: row.currency,
  };
}

/** The one visible invoice the request selects: none is a 404, several (one number, one source id) a 409. */
function selectedInvoice(found: readonly InvoiceReadRow[], selector: (typeof INVOICE_SELECTORS)[number], value: string): InvoiceReadRow {
  if (found.length === 0) throw new DomainError('not_found', 'No such invoice');
  if (found.length > 1) {
    throw new DomainError('conflict', 'The invoice selection is ambiguous', [
      invoiceIssue('ambiguous_invoice_number', selector, `"${value}" names several invoices.`),
    ]);
  }
  return found[0]!;
}

/**
 * An identical retry is answered with the saved preparation only while its
 * checks still pass now: the same invoice at the same revision, and no payment,
 * source, freshness or access problem (docs/decisions.md). While the invoice's
 * current snapshot is still the one prepared from, only what can change without
 * a new snapshot is checked again (`sourceStateIssues`): every other check read
 * that immutable snapshot, with this request's fingerprint, and passed when the
 * preparation was saved.
 */
function checkReplay(
  invoice: InvoiceReadRow,
  saved: PreparationRow,
  provider: PaymentProvider,
  request: PreparationRequest,
  now: Date,
): void {
  const blocked = (issues: CategorizedIssue[]) => new DomainError('conflict', 'The saved preparation no longer passes its checks', issues);
  if (invoice.id === saved.stored_invoice_id && invoice.snapshot_id === saved.snapshot_id) {
    const state = sourceStateOfRow(invoice, now);
    if (state.length > 0) throw blocked(state);
    return;
  }
  const { state, fields, paymentEstablished } = evaluate(invoice, provider, request, now);
  if (invoice.id !== saved.stored_invoice_id || invoice.revision !== saved.revision) {
    state.push(invoiceIssue('revision_mismatch', 'invoice.revision', `Prepared at revision ${saved.revision}.`));
  }
  if (state.length > 0 || !paymentEstablished) throw blocked([...state, ...(paymentEstablished ? [] : fields)]);
}
