import fc from 'fast-check';
import type { CanonicalInvoice } from '../../contract/canonical-invoice.js';
import { formatMinor } from '../../server/domain/enrichment/decimal.js';
import { discountLine, salesLine, shippingLine, sourceInvoice, subtotalLine } from '../unit/invoices/support/source.js';

/**
 * Generated invoice facts in cents: up to 5 lines (line i sells item `100 + i`),
 * transaction-level tax, shipping and a discount, and the totals they imply.
 * One source for the unit property tests (mapper) and the HTTP ones (sandbox, sync, endpoints).
 */
export const factsArbitrary = fc
  .record({
    lines: fc.array(fc.record({ qty: fc.integer({ min: 1, max: 50 }), unit: fc.integer({ min: 1, max: 500_000 }) }), {
      minLength: 1,
      maxLength: 5,
    }),
    tax: fc.integer({ min: 0, max: 100_000 }),
    shipping: fc.integer({ min: 0, max: 20_000 }),
    discountShare: fc.integer({ min: 0, max: 50 }),
  })
  .map((f) => {
    const subtotal = f.lines.reduce((t, l) => t + l.qty * l.unit, 0);
    const discount = Math.floor((subtotal * f.discountShare) / 100);
    return { ...f, subtotal, discount, total: subtotal + f.tax + f.shipping - discount };
  });
export type InvoiceFacts = typeof factsArbitrary extends fc.Arbitrary<infer T> ? T : never;

/** The source item id of line `index` (0-based). */
export const lineItemId = (index: number) => String(100 + index);

const major = (cents: number) => Number(formatMinor(cents));

/** The facts as the accounting source's Invoice entity (JSON numbers in major units); `overrides` replace top-level fields. */
export function providerInvoice(f: InvoiceFacts, overrides: Record<string, unknown> = {}, totalAmt: unknown = major(f.total)) {
  const lines = f.lines.map((l, i) => salesLine(String(i + 1), lineItemId(i), l.qty, major(l.unit), major(l.qty * l.unit)));
  return sourceInvoice({
    Line: [
      ...lines,
      subtotalLine(major(f.subtotal)),
      ...(f.discount > 0 ? [discountLine(major(f.discount))] : []),
      ...(f.shipping > 0 ? [shippingLine('99', major(f.shipping))] : []),
    ],
    TxnTaxDetail: { TotalTax: major(f.tax) },
    TotalAmt: totalAmt,
    Balance: totalAmt,
    ...overrides,
  });
}

/**
 * The same invoice written by hand as a CanonicalInvoice (the inline endpoints' input), with the
 * source's defaults (`sourceInvoice`) and every item mapped to product code `PC-<item>`, unit `EA`.
 */
export function canonicalOf(f: InvoiceFacts, o: { invoiceNumber?: string; purchaseOrderReference?: string | null } = {}): CanonicalInvoice {
  return {
    invoiceNumber: o.invoiceNumber ?? 'INV-1001',
    purchaseOrderReference: o.purchaseOrderReference === undefined ? 'PO-77' : o.purchaseOrderReference,
    status: 'open',
    currency: 'usd',
    subtotalAmountMinor: f.subtotal,
    taxAmountMinor: f.tax,
    shippingAmountMinor: f.shipping,
    discountAmountMinor: f.discount,
    totalAmountMinor: f.total,
    balanceAmountMinor: f.total,
    issuedAt: '2026-11-01T00:00:00.000Z',
    dueAt: '2026-12-01T00:00:00.000Z',
    voidedAt: null,
    lineItems: f.lines.map((l, i) => ({
      sequence: i + 1,
      productName: `Product ${lineItemId(i)}`,
      description: `Line ${i + 1}`,
      productCode: `PC-${lineItemId(i)}`,
      commodityCode: null,
      quantity: String(l.qty),
      unitOfMeasure: 'EA',
      unitAmountMinor: l.unit,
      subtotalAmountMinor: l.qty * l.unit,
      taxAmountMinor: 0,
      discountAmountMinor: 0,
      totalAmountMinor: l.qty * l.unit,
    })),
  };
}
