import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GwcPaymentIntentEnrichmentData } from '../../../contract/enrichment.js';
import { enrichInline, type Provider } from '../../../server/domain/enrichment/index.js';
import { amountFieldArbitrary, invoiceArbitrary, levels, nudge, type InvoiceShape } from './support/arbitraries.js';
import { gwbTotalsUnderEveryModel } from './support/gwb-order-calculator.js';
import { dataOf, runGwa, runGwb, runGwc } from './support/run.js';

/** Exact value of a decimal string as a fraction over 10^4 (gwa strings have at most 4 fraction digits). */
function tenThousandths(text: string): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole + fraction.padEnd(4, '0'));
}

const gwaShape = (taxLevel: InvoiceShape['taxLevel'], discountLevel: InvoiceShape['discountLevel']): InvoiceShape => ({
  quantity: 'decimal',
  taxLevel,
  discountLevel,
  freeLines: false,
});
const wholeShape = (taxLevel: InvoiceShape['taxLevel'], discountLevel: InvoiceShape['discountLevel']): InvoiceShape => ({
  quantity: 'whole',
  taxLevel,
  discountLevel,
  freeLines: true,
});
const anyShape = (make: typeof gwaShape) => fc.tuple(levels, levels).chain(([tax, discount]) => invoiceArbitrary(make(tax, discount)));

describe('enrichment properties', () => {
  it('when any reconciled invoice is mapped for gwa, then line totals + tax + shipping − discount equal amount exactly', () => {
    fc.assert(
      fc.property(anyShape(gwaShape), (invoice) => {
        const data = dataOf(runGwa({ invoice }));
        const cents = (text: string) => tenThousandths(text) / 100n;
        for (const item of data.lineItems) {
          // totalAmount = quantity × unitAmount, exactly, on the strings themselves.
          expect(tenThousandths(item.quantity) * cents(item.unitAmount)).toBe(cents(item.totalAmount) * 10_000n);
        }
        const lines = data.lineItems.reduce((t, l) => t + cents(l.totalAmount), 0n);
        const amount = lines + cents(data.taxAmount) + cents(data.shippingAmount) - cents(data.discountAmount);
        expect(amount).toBe(cents(data.amount));
        expect(cents(data.amount)).toBe(BigInt(invoice.totalAmountMinor));
        expect(data.lineItems).toHaveLength(invoice.lineItems.length);
      }),
    );
  });

  it('when any reconciled invoice is mapped for gwb, then gwb totals the order to the invoice total however it spreads a discount', () => {
    let mapped = 0;
    fc.assert(
      fc.property(
        fc
          .constantFrom(
            ['order', 'order', 'transaction', 'transaction'] as const,
            ['order', 'order', 'line', 'line'] as const,
            ['order', 'line_item', 'transaction', 'line'] as const,
            ['line_item', 'line_item', 'line', 'line'] as const,
            ['line_item', 'order', 'line', 'transaction'] as const,
          )
          .chain(([taxRepresentation, discountRepresentation, taxLevel, discountLevel]) =>
            fc.record({
              invoice: invoiceArbitrary(wholeShape(taxLevel, discountLevel)),
              taxRepresentation: fc.constant(taxRepresentation),
              discountRepresentation: fc.constant(discountRepresentation),
            }),
          ),
        (request) => {
          const result = runGwb(request);
          if (!result.ok) {
            // The only admissible refusal: an amount no percentage reproduces under gwb's rounding.
            expect(result.issues.map((i) => i.code)).toStrictEqual(result.issues.map(() => 'tax_not_representable'));
            return;
          }
          mapped += 1;
          for (const total of gwbTotalsUnderEveryModel(result.data)) expect(total).toBe(BigInt(request.invoice.totalAmountMinor));
        },
      ),
      { numRuns: 300 },
    );
    expect(mapped).toBeGreaterThan(270);
  });

  it('when any reconciled invoice is mapped for gwc, then gwc arithmetic in minor units equals the invoice total', () => {
    const providerTotal = ({ amount_details: d }: GwcPaymentIntentEnrichmentData) =>
      d.line_items.reduce((t, l) => t + l.unit_cost * l.quantity - (l.discount_amount ?? 0) + (l.tax?.total_tax_amount ?? 0), 0) -
      (d.discount_amount ?? 0) +
      (d.tax?.total_tax_amount ?? 0) +
      (d.shipping?.amount ?? 0);
    fc.assert(
      fc.property(
        fc.tuple(levels, levels).chain(([taxLevel, discountLevel]) =>
          fc.record({
            invoice: invoiceArbitrary(wholeShape(taxLevel, discountLevel)),
            options: fc.record({
              taxRepresentation: fc.constant(taxLevel === 'line' ? ('line_item' as const) : ('transaction' as const)),
              discountRepresentation: fc.constantFrom(
                ...(discountLevel === 'line' ? (['line_item', 'transaction'] as const) : (['transaction'] as const)),
              ),
            }),
          }),
        ),
        (request) => {
          const data = dataOf(runGwc(request));
          expect(providerTotal(data)).toBe(request.invoice.totalAmountMinor);
        },
      ),
    );
  });

  const shapes: Record<Provider, typeof gwaShape> = { gwa: gwaShape, gwb: wholeShape, gwc: wholeShape };
  it.each(['gwa', 'gwb', 'gwc'] as const)(
    'when any single amount of a valid invoice moves by one minor unit, then %s reports arithmetic_mismatch',
    (provider) => {
      fc.assert(
        fc.property(anyShape(shapes[provider]), amountFieldArbitrary, fc.constantFrom<1 | -1>(1, -1), (invoice, target, delta) => {
          const { invoice: broken } = nudge(invoice, target, delta);
          const result = enrichInline(provider, { invoice: broken });
          expect(result.ok).toBe(false);
          if (!result.ok) expect(result.issues.map((i) => i.code)).toContain('arithmetic_mismatch');
        }),
      );
    },
  );

  it.each(['gwa', 'gwb', 'gwc'] as const)('when the balance of a valid invoice moves by one minor unit, then %s refuses it', (provider) => {
    fc.assert(
      fc.property(anyShape(shapes[provider]), fc.constantFrom<1 | -1>(1, -1), (invoice, delta) => {
        const broken = { ...invoice, balanceAmountMinor: invoice.balanceAmountMinor + delta };
        const result = enrichInline(provider, { invoice: broken });
        const expected = delta > 0 ? 'arithmetic_mismatch' : 'invoice_balance_not_full';
        const issues = (result.ok ? [] : result.issues).map(({ code, path }) => ({ code, path }));
        expect(issues).toContainEqual({ code: expected, path: 'invoice.balanceAmountMinor' });
        // Besides, gwb may find the (still reconciled) tax unrepresentable; nothing else may appear.
        const others = issues.filter((i) => i.path !== 'invoice.balanceAmountMinor').map((i) => i.code);
        expect(others.every((code) => code === 'tax_not_representable')).toBe(true);
      }),
    );
  });
});
