import { GWA_ORDINARY_FALLBACK_CODES } from '../../contract/invoices.js';
import { SvcError } from './errors.js';

const GWA_GAPS: ReadonlySet<string> = new Set(GWA_ORDINARY_FALLBACK_CODES);

/**
 * Whether a refusal of gwa endpoint 1 means "pay it as an ordinary sale": a 422 whose every issue is a gap in PO, SKU
 * or unit (spec: Preparation mode, "downgrades the payment to ordinary instead of blocking it"). The same rule gives
 * the invoice list and detail `checkoutMode: 'ordinary'`. Then make the sale without the enhanced fields and report it
 * without `enrichmentRequestId`; any other error is not a downgrade.
 */
export function isGwaOrdinaryFallback(error: unknown): error is SvcError {
  return error instanceof SvcError && error.status === 422 && error.issues.length > 0 && error.issues.every((i) => GWA_GAPS.has(i.code));
}
