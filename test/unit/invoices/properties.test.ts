import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CanonicalInvoice } from '../../../contract/canonical-invoice.js';
import { formatMinor } from '../../../server/domain/enrichment/decimal.js';
import { enrichInline } from '../../../server/domain/enrichment/index.js';
import { mapInvoice, preparationRequest, toCanonicalInvoice } from '../../../server/domain/invoices/index.js';
import { discountLine, input, item, mapping, salesLine, shippingLine, sourceInvoice, subtotalLine } from './support/source.js';

/** An invoice's facts in cents, rendered as the provider's JSON numbers (major units). */
const factsArbitrary = fc
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
type Facts = typeof factsArbitrary extends fc.Arbitrary<infer T> ? T : never;

const major = (cents: number) => Number(formatMinor(cents));

function providerInvoice(f: Facts, totalAmt: unknown = major(f.total)) {
  const lines = f.lines.map((l, i) => salesLine(String(i + 1), String(100 + i), l.qty, major(l.unit), major(l.qty * l.unit)));
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
  });
}

function mapperInput(f: Facts, totalAmt?: unknown) {
  const ids = f.lines.map((_, i) => String(100 + i));
  return input({ invoice: providerInvoice(f, totalAmt), items: ids.map((id) => item(id)), mappings: ids.map((id) => mapping(id)) });
}

describe('stored invoice properties', () => {
  it('when a consistent provider invoice is mapped, then every amount is the exact number of cents and nothing is reported', () => {
    fc.assert(
      fc.property(factsArbitrary, (f) => {
        const mapped = mapInvoice(mapperInput(f));
        expect(mapped.issues).toStrictEqual([]);
        expect(mapped.invoice).toMatchObject({
          subtotalAmountMinor: f.subtotal,
          taxAmountMinor: f.tax,
          shippingAmountMinor: f.shipping,
          discountAmountMinor: f.discount,
          totalAmountMinor: f.total,
          balanceAmountMinor: f.total,
        });
        expect(mapped.invoice.lineItems.map((l) => [l.quantity, l.unitAmountMinor, l.subtotalAmountMinor])).toStrictEqual(
          f.lines.map((l) => [String(l.qty), l.unit, l.qty * l.unit]),
        );
      }),
    );
  });

  it('when the total is any number or text, then the mapped money reconciles or an issue says why', () => {
    const anyTotal = fc.oneof(
      fc.double({ noNaN: false }),
      fc.double({ min: 0, max: 1e7 }),
      fc.string(),
      fc.constantFrom(null, undefined, '1e3', '00.1'),
    );
    fc.assert(
      fc.property(factsArbitrary, anyTotal, (f, totalAmt) => {
        const mapped = mapInvoice(mapperInput(f, totalAmt));
        const { totalAmountMinor } = mapped.invoice;
        const reconciles = totalAmountMinor !== null && totalAmountMinor === f.subtotal + f.tax + f.shipping - f.discount;
        expect(reconciles || mapped.issues.some((i) => i.path === 'invoice.totalAmountMinor')).toBe(true);
        if (totalAmountMinor !== null) expect(Number.isSafeInteger(totalAmountMinor)).toBe(true);
      }),
    );
  });

  it('when a generated invoice is prepared from its stored form, then each provider output equals the inline output for the same CanonicalInvoice', () => {
    fc.assert(
      fc.property(factsArbitrary, fc.constantFrom('gwa' as const, 'gwb' as const, 'gwc' as const), (f, provider) => {
        const inline: CanonicalInvoice = {
          invoiceNumber: 'INV-1001',
          purchaseOrderReference: 'PO-77',
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
            productName: `Product ${100 + i}`,
            description: `Line ${i + 1}`,
            productCode: `PC-${100 + i}`,
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
        const canonical = toCanonicalInvoice(mapInvoice(mapperInput(f)).invoice);
        expect(canonical).toStrictEqual({ ok: true, invoice: inline });
        if (!canonical.ok) return;
        expect(enrichInline(provider, preparationRequest(provider, canonical.invoice))).toStrictEqual(
          enrichInline(provider, preparationRequest(provider, inline)),
        );
      }),
    );
  });
});
