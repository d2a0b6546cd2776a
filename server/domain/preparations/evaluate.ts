import type { CategorizedIssue, PaymentProvider } from '../../../contract/common/index.js';
import type { StoredInvoice } from '../../../contract/invoices.js';
import type { GwcPaymentPreparationData, PreparationRequest } from '../../../contract/preparations.js';
import type { InvoiceState } from '../invoices/types.js';
import type { SnapshotChecksCache } from '../invoices/readiness.js';
import { categorize, invoiceIssue } from '../invoices/issue-categories.js';
import { readinessOfInvoice } from '../invoices/invoice-views.js';
import { checkoutModeOf, isFieldIssue, paymentEstablished } from '../invoices/checkout-mode.js';
import { issue } from '../enrichment/index.js';
import { DomainError } from '../errors.js';

import type { PreparationKind } from './ports.js';

export type { PreparationKind } from './ports.js';

export { isFieldIssue } from '../invoices/checkout-mode.js';

export interface Evaluation {
  /** Payment, source, freshness and access problems, and the request's own conflicts (amount, currency, revision). */
  readonly state: CategorizedIssue[];
  /** Mapping and validation problems: the invoice cannot produce valid provider fields. */
  readonly fields: CategorizedIssue[];
  /** The provider fields of the invoice (readiness ran the enrichment core), or `null` when it refused. */
  readonly enrichment: unknown;
  /**
   * Whether the invoice's total, balance and currency are known exactly, so that the request's amount and currency were
   * checked against them. When not, no preparation is issued in any mode: ordinary mode is for enhanced-data gaps only.
   */
  readonly paymentEstablished: boolean;
  /**
   * gwa only: every issue is a gap in PO, SKU or unit, so the payment goes ahead as an ordinary sale (spec: Preparation
   * mode); endpoint 1 still refuses with the issues and says so.
   */
  readonly ordinaryFallback?: boolean;
}

/**
 * The checks of one preparation request against a stored invoice now: the
 * invoice's readiness for the provider (the one implementation endpoints 8
 * and 9 show) plus what only a request brings: amountMinor (full total and
 * balance), currency and expectedRevision.
 */
export function evaluate(
  state: InvoiceState,
  provider: PaymentProvider,
  request: PreparationRequest,
  now: Date,
  checks?: SnapshotChecksCache,
): Evaluation {
  const stored = state.invoice;
  if (state.snapshotId === null || stored === null) {
    const fields = [invoiceIssue('fact_unavailable', 'invoice', 'The source invoice could not be mapped.')];
    return { state: [], fields, enrichment: null, paymentEstablished: false };
  }
  const readiness = readinessOfInvoice(state, provider, now, checks);
  const issues = [...readiness.issues, ...requestIssues(stored, state.revision, request)];
  return {
    state: issues.filter((i) => !isFieldIssue(i)),
    fields: issues.filter(isFieldIssue),
    enrichment: readiness.enrichment,
    paymentEstablished: paymentEstablished(stored),
    ordinaryFallback: provider === 'gwa' && checkoutModeOf(provider, issues, stored) === 'ordinary',
  };
}

function requestIssues(stored: StoredInvoice, revision: string | null, request: PreparationRequest): CategorizedIssue[] {
  const issues: CategorizedIssue[] = [];
  const total = stored.totalAmountMinor;
  const balance = stored.balanceAmountMinor;
  if ((total !== null && request.amountMinor !== total) || (balance !== null && request.amountMinor !== balance)) {
    issues.push(
      categorize(
        issue(
          'payment_amount_mismatch',
          'amountMinor',
          `amountMinor ${request.amountMinor}; invoice total ${total ?? 'unknown'}, balance ${balance ?? 'unknown'}.`,
        ),
      ),
    );
  }
  if (stored.currency !== null && request.currency !== stored.currency) {
    issues.push(invoiceIssue('currency_mismatch', 'currency', `Invoice currency ${stored.currency}.`));
  }
  if (request.expectedRevision !== undefined && request.expectedRevision !== revision) {
    issues.push(invoiceIssue('revision_mismatch', 'expectedRevision', `Current revision ${revision ?? 'none'}.`));
  }
  return issues;
}

/** Every issue of a blocked preparation: any state problem is a 409, otherwise field problems are a 422. */
function refuse(state: CategorizedIssue[], fields: CategorizedIssue[], ordinaryFallback: boolean): never {
  if (state.length > 0) {
    throw new DomainError('conflict', 'The invoice cannot be prepared for this payment now', [...state, ...fields]);
  }
  const message = ordinaryFallback
    ? 'The invoice cannot produce enhanced gwa fields: it lacks a purchase-order number, product code or unit. ' +
      'Pay it as an ordinary sale without these fields (its checkoutMode is ordinary) and report it without enrichmentRequestId'
    : 'The invoice cannot produce valid provider fields';
  throw new DomainError('validation_error', message, fields, 422);
}

/**
 * What a preparation request gets from its evaluation: a refusal (thrown: 409 or 422 with every issue), or the saved
 * mode and data. Ordinary mode (endpoint 12) covers gaps in the enhanced fields only: an amount, balance or currency
 * that is not known exactly was never checked against the request, so no endpoint prepares it.
 */
export function decidePreparation(evaluation: Evaluation, kind: PreparationKind): { mode: 'enhanced' | 'ordinary'; data: unknown } {
  const { state, fields, enrichment, paymentEstablished } = evaluation;
  if (state.length > 0 || (fields.length > 0 && (kind === 'enrichment' || !paymentEstablished))) {
    refuse(state, fields, evaluation.ordinaryFallback === true);
  }
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
