import fc from 'fast-check';
import type { CanonicalInvoice, CanonicalLine } from '../../../../contract/canonical-invoice.js';

/**
 * Generators of reconciled, open, unpaid invoices. Taxes are a common rate of
 * the discounted amount, rounded half to even, as a merchant's books would hold them.
 */
export interface InvoiceShape {
  /** `decimal`: up to 4 fraction digits (gwa); `whole`: item counts (gwb, gwc). */
  readonly quantity: 'decimal' | 'whole';
  readonly taxLevel: 'line' | 'transaction';
  readonly discountLevel: 'line' | 'transaction';
  /** gwa refuses free lines; gwb and gwc accept them. */
  readonly freeLines: boolean;
}

const RATES: [bigint, bigint][] = [
  [0n, 1n],
  [5n, 100n],
  [725n, 10000n],
  [8875n, 100000n],
  [10n, 100n],
  [20n, 100n],
];

function taxAt(rate: [bigint, bigint], base: number): number {
  const [numerator, denominator] = rate;
  const scaled = BigInt(base) * numerator;
  const quotient = scaled / denominator;
  const twice = (scaled % denominator) * 2n;
  const rounded = twice > denominator || (twice === denominator && quotient % 2n === 1n) ? quotient + 1n : quotient;
  return Number(rounded);
}

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));

const quantityAndUnit = (shape: InvoiceShape) =>
  shape.quantity === 'whole'
    ? fc.record({ quantity: fc.integer({ min: 1, max: 40 }).map(String), unit: fc.integer({ min: shape.freeLines ? 0 : 1, max: 250_000 }) })
    : fc
        .record({
          units: fc.integer({ min: 1, max: 200_000 }),
          scale: fc.integer({ min: 0, max: 4 }),
          k: fc.integer({ min: 1, max: 3_000 }),
        })
        .map(({ units, scale, k }) => {
          const power = 10n ** BigInt(scale);
          // Choose the unit price so quantity × unit is a whole number of minor units.
          const unit = Number(BigInt(k) * (power / gcd(BigInt(units), power)));
          const text = ((BigInt(units) * 10n ** 4n) / power).toString().padStart(5, '0');
          const quantity = `${text.slice(0, -4)}.${text.slice(-4)}`.replace(/\.?0+$/, '');
          return { quantity, unit };
        });

function lineArbitrary(shape: InvoiceShape, sequence: number): fc.Arbitrary<CanonicalLine> {
  return fc
    .record({
      qu: quantityAndUnit(shape),
      discountShare: fc.integer({ min: 0, max: 50 }),
      rate: fc.constantFrom(...RATES),
      commodity: fc.option(fc.constant('43211503'), { nil: null }),
    })
    .map(({ qu, discountShare, rate, commodity }) => {
      const [whole = '0', fraction = ''] = qu.quantity.split('.');
      const subtotal = Number((BigInt(whole + fraction) * BigInt(qu.unit)) / 10n ** BigInt(fraction.length));
      const discount = shape.discountLevel === 'line' ? Math.floor((subtotal * discountShare) / 100) : 0;
      const tax = shape.taxLevel === 'line' ? taxAt(rate, subtotal - discount) : 0;
      return {
        sequence,
        productName: `Item ${sequence}`,
        description: null,
        productCode: `SKU-${sequence}`,
        commodityCode: commodity,
        quantity: qu.quantity,
        unitOfMeasure: 'EA',
        unitAmountMinor: qu.unit,
        subtotalAmountMinor: subtotal,
        taxAmountMinor: tax,
        discountAmountMinor: discount,
        totalAmountMinor: subtotal + tax - discount,
      };
    });
}

export function invoiceArbitrary(shape: InvoiceShape): fc.Arbitrary<CanonicalInvoice> {
  return fc
    .record({
      count: fc.integer({ min: 1, max: 6 }),
      seed: fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 6, maxLength: 6 }),
      rate: fc.constantFrom(...RATES),
      discountShare: fc.integer({ min: 0, max: 50 }),
      shipping: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5_000 })),
    })
    .chain(({ count, seed, rate, discountShare, shipping }) =>
      fc.tuple(...seed.slice(0, count).map((s, i) => lineArbitrary(shape, i * 10 + (s % 7)))).map((lines) => {
        const subtotal = lines.reduce((t, l) => t + l.subtotalAmountMinor, 0);
        const discount =
          shape.discountLevel === 'line'
            ? lines.reduce((t, l) => t + l.discountAmountMinor, 0)
            : Math.floor((subtotal * discountShare) / 100);
        const tax = shape.taxLevel === 'line' ? lines.reduce((t, l) => t + l.taxAmountMinor, 0) : taxAt(rate, subtotal - discount);
        const total = subtotal + tax + shipping - discount;
        return {
          invoiceNumber: 'INV-PROP-1',
          purchaseOrderReference: 'PO-PROP-1',
          status: 'open' as const,
          currency: 'usd',
          subtotalAmountMinor: subtotal,
          taxAmountMinor: tax,
          shippingAmountMinor: shipping,
          discountAmountMinor: discount,
          totalAmountMinor: total,
          balanceAmountMinor: total,
          issuedAt: null,
          dueAt: null,
          voidedAt: null,
          lineItems: [...lines].reverse(), // out of sequence order on purpose
        };
      }),
    )
    .filter((invoice) => invoice.totalAmountMinor > 0);
}

export const levels = fc.constantFrom<'line' | 'transaction'>('line', 'transaction');

/** An amount of the invoice or of one line, to move by one minor unit. */
export type AmountField =
  | {
      where: 'invoice';
      field: 'subtotalAmountMinor' | 'taxAmountMinor' | 'shippingAmountMinor' | 'discountAmountMinor' | 'totalAmountMinor';
    }
  | {
      where: 'line';
      field: 'unitAmountMinor' | 'subtotalAmountMinor' | 'taxAmountMinor' | 'discountAmountMinor' | 'totalAmountMinor';
      index: number;
    };

export const amountFieldArbitrary: fc.Arbitrary<Omit<AmountField, 'index'> & { index?: number }> = fc.oneof(
  fc.record({
    where: fc.constant('invoice' as const),
    field: fc.constantFrom(
      'subtotalAmountMinor' as const,
      'taxAmountMinor' as const,
      'shippingAmountMinor' as const,
      'discountAmountMinor' as const,
      'totalAmountMinor' as const,
    ),
  }),
  fc.record({
    where: fc.constant('line' as const),
    field: fc.constantFrom(
      'unitAmountMinor' as const,
      'subtotalAmountMinor' as const,
      'taxAmountMinor' as const,
      'discountAmountMinor' as const,
      'totalAmountMinor' as const,
    ),
    index: fc.nat(),
  }),
);

/** The invoice with one amount moved by `delta` (never below zero), and the path of that amount. */
export function nudge(
  invoice: CanonicalInvoice,
  target: { where: 'invoice' | 'line'; field: string; index?: number },
  delta: 1 | -1,
): { invoice: CanonicalInvoice; path: string } {
  const copy = structuredClone(invoice);
  const holder: Record<string, unknown> =
    target.where === 'invoice' ? copy : (copy.lineItems[(target.index ?? 0) % copy.lineItems.length] as unknown as Record<string, unknown>);
  const value = holder[target.field] as number;
  holder[target.field] = value === 0 ? 1 : value + delta;
  const path =
    target.where === 'invoice'
      ? `invoice.${target.field}`
      : `invoice.lineItems[${(target.index ?? 0) % copy.lineItems.length}].${target.field}`;
  return { invoice: copy, path };
}
