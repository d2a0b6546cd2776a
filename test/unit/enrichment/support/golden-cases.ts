import fc from 'fast-check';
import type { CanonicalInvoice, CanonicalLine } from '../../../../contract/canonical-invoice.js';
import type { Provider } from '../../../../server/domain/enrichment/index.js';
import { invoiceArbitrary, levels, type InvoiceShape } from './arbitraries.js';

/**
 * Request bodies of every provider's inline enrichment, most of them faulty in
 * some way (identifiers, names, quantities, amounts, readiness, non-ASCII and
 * astral text), generated at a fixed seed: the golden test pins the core's
 * answer to each.
 */
export interface GoldenCase {
  readonly provider: Provider;
  readonly body: Record<string, unknown>;
}

/** Astral characters count once per code point but twice in UTF-16: they sit on both sides of every length limit. */
const text = (base: string) =>
  fc.constantFrom(
    base,
    '',
    '   ',
    ' padded ',
    'Çé-ñ',
    '😀'.repeat(12),
    '😀'.repeat(13),
    'x'.repeat(12),
    'x'.repeat(13),
    'A\u0001B',
    'tab\there',
    '\u00a0',
  );

function oneFieldOf(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return fc.oneof(...Object.entries(fields).map(([key, value]) => value.map((v) => ({ [key]: v }))));
}

const faults = (fault: fc.Arbitrary<Record<string, unknown>>) =>
  fc.array(fault, { maxLength: 2 }).map((list) => Object.assign({}, ...list) as Record<string, unknown>);

/** One fault of a line: a single field set to a value some provider (or the schema) refuses. */
const lineFault = oneFieldOf({
  productName: fc.constantFrom(
    '',
    ' ',
    'Ünïcödé part',
    'n'.repeat(35),
    'n'.repeat(36),
    'n'.repeat(512),
    'n'.repeat(513),
    '😀'.repeat(1024),
    '😀'.repeat(1025),
    'y'.repeat(1025),
  ),
  description: fc.constantFrom(null, '', 'd'.repeat(127), 'd'.repeat(128), 'Déjà vu'),
  productCode: fc.oneof(fc.constant(null), text('SKU-1')),
  commodityCode: fc.oneof(fc.constant(null), text('43211503')),
  unitOfMeasure: fc.oneof(fc.constant(null), text('EA')),
  quantity: fc.constantFrom(
    '0',
    '-1',
    '1.5',
    '2.50',
    '01',
    'abc',
    '1e3',
    '9007199254740991',
    '9007199254740993',
    '1234567890123',
    '0.00001',
    '3.0',
  ),
  sequence: fc.constantFrom(0, 10, 20),
  unitAmountMinor: fc.constantFrom(0, 1, 333),
  subtotalAmountMinor: fc.constantFrom(0, 1, 999),
  taxAmountMinor: fc.constantFrom(0, 7, -1),
  discountAmountMinor: fc.constantFrom(0, 5, 10_000_000),
  totalAmountMinor: fc.constantFrom(0, 1, 1.5),
});

const invoiceFault = oneFieldOf({
  status: fc.constantFrom('open', 'paid', 'void', 'partially_paid'),
  voidedAt: fc.constantFrom(null, '2026-01-05T00:00:00Z'),
  purchaseOrderReference: fc.oneof(fc.constant(null), text('PO-1'), fc.constant('P'.repeat(18))),
  invoiceNumber: fc.constantFrom('INV-1', 'Ïnv 7', 'I'.repeat(41)),
  currency: fc.constantFrom('usd', 'eur', 'jpy', 'USD'),
  balanceAmountMinor: fc.constantFrom(0, 1),
  subtotalAmountMinor: fc.constantFrom(0, 1),
  taxAmountMinor: fc.constantFrom(0, 1, 50_000),
  shippingAmountMinor: fc.constantFrom(0, 1, 50_000_000),
  discountAmountMinor: fc.constantFrom(0, 1, 50_000_000),
  totalAmountMinor: fc.constantFrom(0, 1),
});

const shape = fc.record({
  quantity: fc.constantFrom<InvoiceShape['quantity']>('decimal', 'whole'),
  taxLevel: levels,
  discountLevel: levels,
  freeLines: fc.boolean(),
});

/** A reconciled invoice, then some faults on some lines and on the invoice (none in about a quarter of the cases). */
const invoice: fc.Arbitrary<CanonicalInvoice> = shape
  .chain((s) => invoiceArbitrary(s))
  .chain((base) =>
    fc
      .record({
        lines: fc.array(faults(lineFault), { minLength: base.lineItems.length, maxLength: base.lineItems.length }),
        invoice: faults(invoiceFault),
        duplicateSequence: fc.boolean(),
        pristine: fc.integer({ min: 0, max: 3 }),
      })
      .map(({ lines, invoice: invoiceFaults, duplicateSequence, pristine }) => {
        if (pristine === 0) return base;
        const lineItems: CanonicalLine[] = base.lineItems.map((line, i) => ({ ...line, ...lines[i] }) as CanonicalLine);
        if (duplicateSequence && lineItems.length > 1)
          lineItems[lineItems.length - 1] = { ...lineItems[lineItems.length - 1]!, sequence: lineItems[0]!.sequence };
        return { ...base, ...invoiceFaults, lineItems } as CanonicalInvoice;
      }),
  );

const postal = fc.constantFrom('94107', 'SW1A 1AA', '10115', 'bad_code!');

const options: Record<Provider, fc.Arbitrary<Record<string, unknown>>> = {
  gwa: fc.record(
    {
      options: fc.record(
        { shipsFromPostalCode: postal, purchaseOrderNumberSource: fc.constantFrom('purchase_order', 'invoice_number') },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  ),
  gwb: fc.record(
    {
      orderReference: fc.constantFrom('ORD-1', 'O'.repeat(40), 'O'.repeat(41), '😀'.repeat(40), '😀'.repeat(41)),
      taxRepresentation: fc.constantFrom('order', 'line_item'),
      discountRepresentation: fc.constantFrom('order', 'line_item'),
    },
    { requiredKeys: [] },
  ),
  gwc: fc.record(
    {
      options: fc.record(
        {
          orderReference: fc.constantFrom('ORD-1', '  ', 'Ørder'),
          customerReference: fc.constantFrom(null, 'CUST-9', '\u00a0'),
          taxRepresentation: fc.constantFrom('transaction', 'line_item'),
          discountRepresentation: fc.constantFrom('transaction', 'line_item'),
          shipping: fc.record(
            { fromPostalCode: fc.oneof(fc.constant(null), postal), toPostalCode: fc.oneof(fc.constant(null), postal) },
            { requiredKeys: [] },
          ),
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  ),
};

const goldenCase: fc.Arbitrary<GoldenCase> = fc
  // gwc twice as often: its benchmark path is the hottest.
  .constantFrom<Provider>('gwa', 'gwb', 'gwc', 'gwc')
  .chain((provider) => fc.record({ provider: fc.constant(provider), invoice, extra: options[provider] }))
  .map(({ provider, invoice: inv, extra }) => ({ provider, body: { invoice: inv, ...extra } }));

/** More lines than gwa (249) and gwc (200) accept, and an invoice of the benchmark's size. */
function longInvoices(): GoldenCase[] {
  const [base] = fc.sample(invoiceArbitrary({ quantity: 'whole', taxLevel: 'line', discountLevel: 'line', freeLines: false }), {
    seed: 7,
    numRuns: 1,
  });
  const line = base!.lineItems[0]!;
  const many = (count: number): CanonicalInvoice => {
    const lineItems = Array.from({ length: count }, (_, i) => ({ ...line, sequence: i }));
    const add = (pick: (l: CanonicalLine) => number) => lineItems.reduce((t, l) => t + pick(l), 0);
    const subtotal = add((l) => l.subtotalAmountMinor);
    const tax = add((l) => l.taxAmountMinor);
    const discount = add((l) => l.discountAmountMinor);
    const total = subtotal + tax - discount;
    return {
      ...base!,
      subtotalAmountMinor: subtotal,
      taxAmountMinor: tax,
      discountAmountMinor: discount,
      shippingAmountMinor: 0,
      totalAmountMinor: total,
      balanceAmountMinor: total,
      lineItems,
    };
  };
  return (['gwa', 'gwb', 'gwc'] as const).flatMap((provider) =>
    [50, 201, 250].map((count) => ({ provider, body: { invoice: many(count) } })),
  );
}

export function goldenCases(): GoldenCase[] {
  return [...fc.sample(goldenCase, { seed: 20261123, numRuns: 500 }), ...longInvoices()];
}
