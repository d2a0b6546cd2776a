import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { enrichInline } from '../../../server/domain/enrichment/index.js';
import { mapInvoice, preparationRequest, toCanonicalInvoice } from '../../../server/domain/invoices/index.js';
import { canonicalOf, factsArbitrary, lineItemId, providerInvoice, type InvoiceFacts } from '../../support/invoice-facts.js';
import { input, item, mapping } from './support/source.js';

function mapperInput(f: InvoiceFacts, totalAmt?: unknown) {
  const ids = f.lines.map((_, i) => lineItemId(i));
  return input({ invoice: providerInvoice(f, {}, totalAmt), items: ids.map((id) => item(id)), mappings: ids.map((id) => mapping(id)) });
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
        const inline = canonicalOf(f);
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
