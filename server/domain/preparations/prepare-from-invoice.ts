import type { CategorizedIssue, PaymentProvider } from '../../../contract/common/index.js';
import {
  INVOICE_SELECTORS,
  type GwcPaymentPreparationData,
  type PreparationRecord,
  type PreparationRequest,
} from '../../../contract/preparations.js';
import type { PreparationContext, PreparationRow } from '../../persistence/sql/preparations.sql.js';
import type { InvoiceReadRow } from '../../persistence/sql/stored-invoices.sql.js';
import type { AuthContext } from '../auth/auth-context.js';
import { DomainError } from '../errors.js';
import { idempotentWrite, type KeyConflict } from '../idempotency/idempotent-write.js';
import { requestFingerprint } from '../idempotency/fingerprint.js';
import { invoiceIssue } from '../invoices/issue-categories.js';
import { sourceStateOfRow } from '../invoices/invoice-views.js';
import { evaluate } from './evaluate.js';
import type { PreparationStore } from './preparation-store.js';

/** `enrichment`: endpoints 1, 6, 11 (enhancement only); `payment_preparation`: endpoint 12 (enhanced or ordinary). */
export type PreparationKind = 'enrichment' | 'payment_preparation';

export interface PreparationResult {
  data: unknown;
  preparation: PreparationRecord;
  replayed: boolean;
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
export async function prepareFromInvoice(
  store: PreparationStore,
  input: { ctx: AuthContext; provider: PaymentProvider; kind: PreparationKind; request: PreparationRequest; now?: Date },
): Promise<PreparationResult> {
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
      const data = prepareData(invoice, provider, kind, request, now);
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
  return { data: row.data, preparation: preparationRecord(row), replayed };
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

/** Every issue of a blocked preparation: any state problem is a 409, otherwise field problems are a 422. */
function refuse(state: CategorizedIssue[], fields: CategorizedIssue[]): never {
  if (state.length > 0) {
    throw new DomainError('conflict', 'The invoice cannot be prepared for this payment now', [...state, ...fields]);
  }
  throw new DomainError('validation_error', 'The invoice cannot produce valid provider fields', fields, 422);
}

function prepareData(
  invoice: InvoiceReadRow,
  provider: PaymentProvider,
  kind: PreparationKind,
  request: PreparationRequest,
  now: Date,
): { mode: 'enhanced' | 'ordinary'; data: unknown } {
  const { state, fields, enrichment } = evaluate(invoice, provider, request, now);
  // Without a snapshot there is nothing to pin, whichever the endpoint.
  if (state.length > 0 || (fields.length > 0 && (kind === 'enrichment' || invoice.snapshot_id === null))) refuse(state, fields);
  // Readiness ran the enrichment core on this invoice: without issues it made the fields.
  const enhanced = fields.length === 0 && enrichment !== null;
  if (kind === 'enrichment') {
    if (!enhanced) throw new Error('enrichment failed on a ready invoice');
    return { mode: 'enhanced', data: enrichment };
  }
  const data: GwcPaymentPreparationData = enhanced
    ? { mode: 'enhanced', enrichment: enrichment as GwcPaymentPreparationData['enrichment'], optimizationIssues: [] }
    : { mode: 'ordinary', enrichment: null, optimizationIssues: fields };
  return { mode: data.mode, data };
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
  const { state } = evaluate(invoice, provider, request, now);
  if (invoice.id !== saved.stored_invoice_id || invoice.revision !== saved.revision) {
    state.push(invoiceIssue('revision_mismatch', 'invoice.revision', `Prepared at revision ${saved.revision}.`));
  }
  if (state.length > 0) throw blocked(state);
}
