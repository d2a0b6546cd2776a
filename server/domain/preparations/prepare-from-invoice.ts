import type { CategorizedIssue, PaymentProvider } from '../../../contract/common/index.js';
import { INVOICE_SELECTORS, type PreparationRecord, type PreparationRequest } from '../../../contract/preparations.js';
import type { AuthContext } from '../auth/auth-context.js';
import { DomainError } from '../errors.js';
import { idempotentWrite, type KeyConflict } from '../idempotency/idempotent-write.js';
import { requestFingerprint } from '../idempotency/fingerprint.js';
import { invoiceIssue } from '../invoices/issue-categories.js';
import { sourceStateOf } from '../invoices/invoice-views.js';
import type { InvoiceState } from '../invoices/types.js';
import type { SnapshotChecksCache } from '../invoices/readiness.js';
import { decidePreparation, evaluate } from './evaluate.js';
import type { PreparationContext, PreparationKind, PreparationStore, SavedPreparation } from './ports.js';
import { preparationMetrics } from '../../observability/business-metrics.js';
import { inSpan } from '../../observability/spans.js';

export type { PreparationKind } from './ports.js';

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

type PrepareInput = {
  ctx: AuthContext;
  provider: PaymentProvider;
  kind: PreparationKind;
  request: PreparationRequest;
  now?: Date;
  /** Snapshot-only readiness results kept across requests (`snapshotChecksCache`); none: computed each time. */
  checks?: SnapshotChecksCache | undefined;
};

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
  const { ctx, provider, kind, request, checks } = input;
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
  let context: PreparationContext = { saved: undefined, invoices: [] };
  const { answer: saved, replayed } = await idempotentWrite<SavedPreparation>({
    fingerprint,
    find: async () => {
      context = await store.context({ scope: ctx, idempotencyKey: request.idempotencyKey, selector, value });
      return context.saved && { fingerprint: context.saved.fingerprint, answer: context.saved };
    },
    create: async () => {
      const invoice = selectedInvoice(context.invoices, selector, value);
      const data = decidePreparation(evaluate(invoice, provider, request, now, checks), kind);
      const preparation: SavedPreparation = {
        id: crypto.randomUUID(),
        organizationId: ctx.organizationId,
        integrationId: ctx.integrationId,
        environment: ctx.environment,
        provider,
        kind,
        storedInvoiceId: invoice.id,
        snapshotId: invoice.snapshotId!,
        revision: invoice.revision!,
        sourceIntegrationId: invoice.integrationId,
        connectionId: invoice.connectionId,
        realmId: invoice.realmId,
        checkedThrough: invoice.checkedThrough!,
        amountMinor: request.amountMinor,
        currency: request.currency,
        idempotencyKey: request.idempotencyKey,
        fingerprint,
        mode: data.mode,
        data: data.data as Record<string, unknown>,
        createdAt: now,
      };
      await store.insert(preparation);
      return preparation;
    },
    conflict: KEY_REUSED,
  });
  if (replayed) checkReplay(selectedInvoice(context.invoices, selector, value), saved, provider, request, now, checks);
  return { data: saved.data, preparation: preparationRecord(saved), replayed, mode: saved.mode };
}

/** The API's preparation record of a saved preparation. */
export function preparationRecord(saved: SavedPreparation): PreparationRecord {
  return {
    id: saved.id,
    invoiceId: saved.storedInvoiceId,
    snapshotId: saved.snapshotId,
    revision: saved.revision,
    sourceIntegrationId: saved.sourceIntegrationId,
    sourceConnectionId: saved.realmId,
    checkedThrough: saved.checkedThrough.toISOString(),
    createdAt: saved.createdAt.toISOString(),
    amountMinor: saved.amountMinor,
    currency: saved.currency,
  };
}

/** The one visible invoice the request selects: none is a 404, several (one number, one source id) a 409. */
function selectedInvoice(found: readonly InvoiceState[], selector: (typeof INVOICE_SELECTORS)[number], value: string): InvoiceState {
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
  invoice: InvoiceState,
  saved: SavedPreparation,
  provider: PaymentProvider,
  request: PreparationRequest,
  now: Date,
  checks: SnapshotChecksCache | undefined,
): void {
  const blocked = (issues: CategorizedIssue[]) => new DomainError('conflict', 'The saved preparation no longer passes its checks', issues);
  if (invoice.id === saved.storedInvoiceId && invoice.snapshotId === saved.snapshotId) {
    const state = sourceStateOf(invoice, now);
    if (state.length > 0) throw blocked(state);
    return;
  }
  const { state, fields, paymentEstablished } = evaluate(invoice, provider, request, now, checks);
  if (invoice.id !== saved.storedInvoiceId || invoice.revision !== saved.revision) {
    state.push(invoiceIssue('revision_mismatch', 'invoice.revision', `Prepared at revision ${saved.revision}.`));
  }
  if (state.length > 0 || !paymentEstablished) throw blocked([...state, ...(paymentEstablished ? [] : fields)]);
}
