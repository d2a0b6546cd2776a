import { describe, expect, it } from 'vitest';
import type { CanonicalInvoice } from '../../../contract/canonical-invoice.js';
import { checkCanonicalInvoice, enrichInline, type Provider } from '../../../server/domain/enrichment/index.js';
import { makeInvoice, makeLine } from './support/invoices.js';
import { issuesOf, sortIssues, type CodeAndPath } from './support/run.js';

const providers: Provider[] = ['gwa', 'gwb', 'gwc'];
const twoLines = () => [makeLine({ sequence: 1 }), makeLine({ sequence: 2, productCode: 'WID-2', unitAmountMinor: 500 })];

/** Invoices that break one shared rule, and exactly what every provider must report. */
const cases: { name: string; invoice: CanonicalInvoice; issues: CodeAndPath[] }[] = [
  {
    name: 'when the invoice is paid, then it is not open',
    invoice: makeInvoice({ status: 'paid' }),
    issues: [{ code: 'invoice_not_open', path: 'invoice.status' }],
  },
  {
    name: 'when the invoice is voided, then it is not open',
    invoice: makeInvoice({ voidedAt: '2025-01-03T00:00:00.000Z' }),
    issues: [{ code: 'invoice_not_open', path: 'invoice.voidedAt' }],
  },
  {
    name: 'when part of the invoice is paid, then the balance is not full',
    invoice: makeInvoice({ status: 'partially_paid', balanceAmountMinor: 400 }),
    issues: [
      { code: 'invoice_balance_not_full', path: 'invoice.balanceAmountMinor' },
      { code: 'invoice_not_open', path: 'invoice.status' },
    ],
  },
  {
    name: 'when the balance exceeds the total, then the amounts do not reconcile',
    invoice: makeInvoice({ balanceAmountMinor: 1001 }),
    issues: [{ code: 'arithmetic_mismatch', path: 'invoice.balanceAmountMinor' }],
  },
  {
    name: 'when quantity × unit amount differs from the line subtotal, then the subtotal is reported',
    invoice: makeInvoice({ lineItems: [makeLine({ quantity: '2', subtotalAmountMinor: 1999, totalAmountMinor: 1999 })] }),
    issues: [{ code: 'arithmetic_mismatch', path: 'invoice.lineItems[0].subtotalAmountMinor' }],
  },
  {
    name: 'when quantity × unit amount is a fraction of a minor unit, then it is reported and never rounded',
    invoice: makeInvoice({
      lineItems: [makeLine({ quantity: '0.5', unitAmountMinor: 3, subtotalAmountMinor: 2, totalAmountMinor: 2 })],
    }),
    issues: [{ code: 'arithmetic_mismatch', path: 'invoice.lineItems[0].subtotalAmountMinor' }],
  },
  {
    name: 'when a line total is not subtotal + tax − discount, then the line total is reported',
    invoice: makeInvoice({ lineItems: [makeLine({ taxAmountMinor: 80, totalAmountMinor: 1079 })], totalAmountMinor: 1080 }),
    issues: [{ code: 'arithmetic_mismatch', path: 'invoice.lineItems[0].totalAmountMinor' }],
  },
  {
    name: 'when the lines do not add up to the invoice subtotal, then the subtotal is reported',
    invoice: makeInvoice({ subtotalAmountMinor: 1001, totalAmountMinor: 1001 }),
    issues: [{ code: 'arithmetic_mismatch', path: 'invoice.subtotalAmountMinor' }],
  },
  {
    name: 'when the total is not subtotal + tax + shipping − discount, then the total is reported',
    invoice: makeInvoice({ shippingAmountMinor: 200, totalAmountMinor: 1100, balanceAmountMinor: 1100 }),
    issues: [{ code: 'arithmetic_mismatch', path: 'invoice.totalAmountMinor' }],
  },
  {
    name: 'when line taxes are held but do not add up to the invoice tax, then the invoice tax is reported',
    invoice: makeInvoice({ lineItems: [makeLine({ taxAmountMinor: 80 })], taxAmountMinor: 90 }),
    issues: [{ code: 'arithmetic_mismatch', path: 'invoice.taxAmountMinor' }],
  },
  {
    name: 'when line discounts are held but do not add up to the invoice discount, then the invoice discount is reported',
    invoice: makeInvoice({ lineItems: [makeLine({ discountAmountMinor: 100 })], discountAmountMinor: 150 }),
    issues: [{ code: 'arithmetic_mismatch', path: 'invoice.discountAmountMinor' }],
  },
  {
    name: 'when two lines share a sequence, then the later one is reported by its request index',
    invoice: makeInvoice({ lineItems: [makeLine({ sequence: 4 }), makeLine({ sequence: 4, productCode: 'WID-2' })] }),
    issues: [{ code: 'duplicate_sequence', path: 'invoice.lineItems[1].sequence' }],
  },
  {
    name: 'when a quantity is zero, then it is invalid',
    invoice: makeInvoice({ lineItems: [...twoLines(), makeLine({ sequence: 3, quantity: '0', subtotalAmountMinor: 0 })] }),
    issues: [{ code: 'invalid_quantity', path: 'invoice.lineItems[2].quantity' }],
  },
  {
    name: 'when a quantity is negative, then it is invalid',
    invoice: makeInvoice({
      lineItems: [...twoLines(), makeLine({ sequence: 3, quantity: '-1', subtotalAmountMinor: 0 })],
    }),
    issues: [{ code: 'invalid_quantity', path: 'invoice.lineItems[2].quantity' }],
  },
  {
    name: 'when the total is zero, then there is nothing to pay',
    invoice: makeInvoice({ discountAmountMinor: 1000, totalAmountMinor: 0, lineItems: [makeLine({ discountAmountMinor: 1000 })] }),
    issues: [{ code: 'zero_amount_invoice', path: 'invoice.totalAmountMinor' }],
  },
];

describe('shared canonical checks', () => {
  it.each(cases)('$name', ({ invoice, issues }) => {
    expect(sortIssues(checkCanonicalInvoice(invoice).issues)).toStrictEqual(issues);
  });

  it.each(providers)('when %s enriches an invoice that breaks a shared rule, then it reports exactly the shared issues', (provider) => {
    for (const { invoice, issues } of cases) {
      const found = issuesOf(enrichInline(provider, { invoice }));
      // gwa also refuses zero-priced lines and gwb/gwc whole quantities; only shared issues are compared here.
      expect(found.filter((i) => issues.some((e) => e.code === i.code))).toStrictEqual(issues);
    }
  });

  it('when an invoice breaks several rules, then every issue is collected', () => {
    const invoice = makeInvoice({
      status: 'draft',
      lineItems: [
        makeLine({ sequence: 1, quantity: '2', subtotalAmountMinor: 1000, totalAmountMinor: 1000 }),
        makeLine({ sequence: 1, productCode: 'WID-2' }),
      ],
      totalAmountMinor: 2500,
    });
    expect(sortIssues(checkCanonicalInvoice(invoice).issues)).toStrictEqual([
      { code: 'arithmetic_mismatch', path: 'invoice.lineItems[0].subtotalAmountMinor' },
      { code: 'duplicate_sequence', path: 'invoice.lineItems[1].sequence' },
      { code: 'invoice_not_open', path: 'invoice.status' },
      { code: 'arithmetic_mismatch', path: 'invoice.totalAmountMinor' },
    ]);
  });

  it('when amounts add up past the largest safe integer, then the sums are exact and reported in full', () => {
    const max = Number.MAX_SAFE_INTEGER;
    const big = (sequence: number) =>
      makeLine({ sequence, quantity: '1', unitAmountMinor: max, subtotalAmountMinor: max, taxAmountMinor: max, totalAmountMinor: max });
    const invoice = makeInvoice({ lineItems: [big(1), big(2)], subtotalAmountMinor: max, taxAmountMinor: max, totalAmountMinor: max });
    expect(checkCanonicalInvoice(invoice).issues.map(({ path, message }) => [path, message])).toStrictEqual([
      [
        'invoice.lineItems[0].totalAmountMinor',
        'Line, tax, shipping, discount or total amounts do not reconcile. subtotal + tax − discount is 18014398509481982.',
      ],
      [
        'invoice.lineItems[1].totalAmountMinor',
        'Line, tax, shipping, discount or total amounts do not reconcile. subtotal + tax − discount is 18014398509481982.',
      ],
      [
        'invoice.subtotalAmountMinor',
        "Line, tax, shipping, discount or total amounts do not reconcile. The lines' subtotals add up to 18014398509481982.",
      ],
      [
        'invoice.totalAmountMinor',
        'Line, tax, shipping, discount or total amounts do not reconcile. subtotal + tax + shipping − discount is 18014398509481982.',
      ],
      ['invoice.taxAmountMinor', 'Line, tax, shipping, discount or total amounts do not reconcile. The lines add up to 18014398509481982.'],
    ]);
  });

  it('when lines arrive out of order, then the facts list them by sequence with their request index', () => {
    const invoice = makeInvoice({
      lineItems: [makeLine({ sequence: 9 }), makeLine({ sequence: 0, productCode: 'A' }), makeLine({ sequence: 3 })],
    });
    const { facts } = checkCanonicalInvoice(invoice);
    expect(facts.lines.map(({ index, line }) => [index, line.sequence])).toStrictEqual([
      [1, 0],
      [2, 3],
      [0, 9],
    ]);
  });

  it.each([
    ['the lines carry the tax', makeInvoice({ lineItems: [makeLine({ taxAmountMinor: 80 })] }), 'line'],
    ['only the invoice carries the tax', makeInvoice({ taxAmountMinor: 80 }), 'transaction'],
    ['there is no tax', makeInvoice(), 'transaction'],
  ] as const)('when %s, then the tax level is %s', (_, invoice, level) => {
    expect(checkCanonicalInvoice(invoice).facts.taxLevel).toBe(level);
  });
});
