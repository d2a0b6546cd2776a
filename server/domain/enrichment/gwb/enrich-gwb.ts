import type { Issue } from '../../../../contract/common/index.js';
import type { GwbLineItem, GwbOrderEnrichmentData, GwbOrderEnrichmentRequest, GwbServiceCharge } from '../../../../contract/enrichment.js';
import { checkCanonicalInvoice } from '../canonical-checks.js';
import { issue } from '../issue-codes.js';
import { checkNameLength, checkWholeQuantity } from '../line-rules.js';
import type { EnrichmentResult } from '../result.js';
import { codePointsOver, presentText } from '../text.js';
import { GWB_CURRENCIES } from './currencies.js';
import { planDiscounts } from './discounts.js';
import { GWB_MAX_LINE_NAME, GWB_MAX_QUANTITY_DIGITS, GWB_MAX_REFERENCE_ID } from './limits.js';
import { planTaxes } from './taxes.js';

const quantityLimit = { maxDigits: GWB_MAX_QUANTITY_DIGITS };

/**
 * An Order fragment for gwb (spec: endpoint 5) whose total, as gwb computes it,
 * equals the invoice total. Defaults: taxRepresentation and discountRepresentation
 * `order`, gwb's counterpart of a transaction-level amount.
 */
export function enrichGwb(request: GwbOrderEnrichmentRequest): EnrichmentResult<GwbOrderEnrichmentData> {
  const { invoice } = request;
  const { issues, facts } = checkCanonicalInvoice(invoice);
  const currency = invoice.currency.toUpperCase();
  if (!GWB_CURRENCIES.has(currency)) issues.push(issue('unsupported_currency', 'invoice.currency'));
  const reference = resolveReferenceId(request);
  issues.push(...reference.issues);
  const quantities = facts.lines.map((ordered) => {
    checkNameLength(ordered, GWB_MAX_LINE_NAME, issues);
    return checkWholeQuantity(ordered, quantityLimit, issues);
  });
  // Taxes and discounts are planned from the line amounts, which mean something only once they reconcile.
  if (issues.some((i) => i.code === 'arithmetic_mismatch')) return { ok: false, issues };

  const discounts = planDiscounts(invoice, facts, request.discountRepresentation ?? 'order', currency);
  issues.push(...discounts.issues);
  // Taxes apply to the discounted amounts; with a discount gwb cannot carry, any tax issue would be a consequence.
  if (discounts.issues.length > 0) return { ok: false, issues };
  const taxes = planTaxes(invoice, facts, request.taxRepresentation ?? 'order', discounts);
  issues.push(...taxes.issues);
  if (issues.length > 0 || reference.value === null) return { ok: false, issues };

  const lineItems = facts.lines.map(({ line }, position): GwbLineItem => {
    const taxUid = taxes.appliedUids[position];
    const discountUid = discounts.appliedUids[position];
    return {
      uid: `line-${line.sequence}`,
      name: line.productName,
      quantity: String(quantities[position]),
      base_price_money: { amount: line.unitAmountMinor, currency },
      ...(taxUid ? { applied_taxes: [{ tax_uid: taxUid }] } : {}),
      ...(discountUid ? { applied_discounts: [{ discount_uid: discountUid }] } : {}),
    };
  });
  const purchaseOrder = presentText(invoice.purchaseOrderReference);
  const data: GwbOrderEnrichmentData = {
    reference_id: reference.value,
    line_items: lineItems,
    ...(taxes.taxes.length > 0 ? { taxes: taxes.taxes } : {}),
    ...(discounts.discounts.length > 0 ? { discounts: discounts.discounts } : {}),
    ...(invoice.shippingAmountMinor > 0 ? { service_charges: [shipping(invoice.shippingAmountMinor, currency)] } : {}),
    // Two fixed keys of [a-z_] within gwb's 10 entries of 60-character keys; the
    // contract caps both values at 160 characters, inside gwb's 255 (docs/provider-facts.md §2.1).
    metadata: {
      invoice_number: invoice.invoiceNumber,
      ...(purchaseOrder !== null ? { purchase_order_reference: purchaseOrder } : {}),
    },
  };
  return { ok: true, data };
}

/** orderReference, else the buyer's PO, else the invoice number; at most 40 characters, never truncated. */
function resolveReferenceId(request: GwbOrderEnrichmentRequest): { value: string | null; issues: Issue[] } {
  const { invoice } = request;
  const override = presentText(request.orderReference);
  const purchaseOrder = presentText(invoice.purchaseOrderReference);
  const [value, path] =
    override !== null
      ? [override, 'orderReference']
      : purchaseOrder !== null
        ? [purchaseOrder, 'invoice.purchaseOrderReference']
        : [invoice.invoiceNumber, 'invoice.invoiceNumber'];
  const length = codePointsOver(value, GWB_MAX_REFERENCE_ID);
  return length !== null
    ? { value: null, issues: [issue('order_reference_too_long', path, `It has ${length} characters.`)] }
    : { value, issues: [] };
}

/**
 * Shipping as a fixed service charge in the total phase: added after discounts
 * and tax and never taxed, so it moves neither (docs/provider-facts.md §2.1).
 */
function shipping(amount: number, currency: string): GwbServiceCharge {
  return {
    uid: 'shipping',
    name: 'Shipping',
    amount_money: { amount, currency },
    calculation_phase: 'TOTAL_PHASE',
    taxable: false,
  };
}
