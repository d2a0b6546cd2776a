import { describe, expect, it } from 'vitest';
import type { GwbOrderEnrichmentRequest } from '../../../contract/enrichment.js';
import { gwbTotalsUnderEveryModel } from './support/gwb-order-calculator.js';
import { happyInvoice, makeInvoice, makeLine } from './support/invoices.js';
import { dataOf, issuesOf, runGwb, type CodeAndPath } from './support/run.js';

const line = makeLine;
const usd = (amount: number) => ({ amount, currency: 'USD' });

/** Line-level tax and discount: 8.875 % of 45.00 → 3.99, 5 % of 9.99 → 0.50 (3.99375 and 0.4995 before rounding). */
function lineLevelInvoice() {
  return makeInvoice({
    purchaseOrderReference: null,
    lineItems: [
      line({ sequence: 1, productName: 'Gadget', unitAmountMinor: 7000 }),
      line({ sequence: 2, quantity: '2', unitAmountMinor: 2500, discountAmountMinor: 500, taxAmountMinor: 399 }),
      line({ sequence: 3, productName: 'Cable', quantity: '3', unitAmountMinor: 333, taxAmountMinor: 50 }),
    ],
    shippingAmountMinor: 700,
  });
}

describe('gwb order enrichment', () => {
  it('when a reconciled invoice is enriched with the defaults, then one order tax and one order discount reproduce its total', () => {
    const invoice = happyInvoice();
    const data = dataOf(runGwb({ invoice }));
    expect(data).toStrictEqual({
      reference_id: 'PO-7781',
      line_items: [
        { uid: 'line-1', name: 'Gadget', quantity: '1', base_price_money: usd(7000) },
        { uid: 'line-2', name: 'Industrial widget, blue, stainless steel housing', quantity: '2', base_price_money: usd(2500) },
      ],
      taxes: [{ uid: 'tax-order', name: 'Sales tax', type: 'ADDITIVE', percentage: '9', scope: 'ORDER' }],
      discounts: [{ uid: 'discount-order', name: 'Invoice discount', type: 'FIXED_AMOUNT', amount_money: usd(1000), scope: 'ORDER' }],
      service_charges: [{ uid: 'shipping', name: 'Shipping', amount_money: usd(1500), calculation_phase: 'TOTAL_PHASE', taxable: false }],
      metadata: { invoice_number: 'INV-1001', purchase_order_reference: 'PO-7781' },
    });
    expect(new Set(gwbTotalsUnderEveryModel(data))).toStrictEqual(new Set([BigInt(invoice.totalAmountMinor)]));
  });

  it('when line representation is requested, then each taxed or discounted line gets its own tax or discount', () => {
    const invoice = lineLevelInvoice();
    const data = dataOf(runGwb({ invoice, taxRepresentation: 'line_item', discountRepresentation: 'line_item' }));
    expect(data).toStrictEqual({
      reference_id: 'INV-1001',
      line_items: [
        { uid: 'line-1', name: 'Gadget', quantity: '1', base_price_money: usd(7000) },
        {
          uid: 'line-2',
          name: 'Widget',
          quantity: '2',
          base_price_money: usd(2500),
          applied_taxes: [{ tax_uid: 'tax-line-2' }],
          applied_discounts: [{ discount_uid: 'discount-line-2' }],
        },
        { uid: 'line-3', name: 'Cable', quantity: '3', base_price_money: usd(333), applied_taxes: [{ tax_uid: 'tax-line-3' }] },
      ],
      taxes: [
        { uid: 'tax-line-2', name: 'Tax on line 2', type: 'ADDITIVE', percentage: '8.86', scope: 'LINE_ITEM' },
        { uid: 'tax-line-3', name: 'Tax on line 3', type: 'ADDITIVE', percentage: '5', scope: 'LINE_ITEM' },
      ],
      discounts: [{ uid: 'discount-line-2', name: 'Discount on line 2', type: 'FIXED_AMOUNT', amount_money: usd(500), scope: 'LINE_ITEM' }],
      service_charges: [{ uid: 'shipping', name: 'Shipping', amount_money: usd(700), calculation_phase: 'TOTAL_PHASE', taxable: false }],
      metadata: { invoice_number: 'INV-1001' },
    });
    expect(new Set(gwbTotalsUnderEveryModel(data))).toStrictEqual(new Set([BigInt(invoice.totalAmountMinor)]));
  });

  it('when there is no tax, discount or shipping, then taxes, discounts and service charges are absent', () => {
    const data = dataOf(runGwb({ invoice: makeInvoice({ currency: 'jpy' }) }));
    expect(data).toStrictEqual({
      reference_id: 'PO-7781',
      line_items: [{ uid: 'line-1', name: 'Widget', quantity: '1', base_price_money: { amount: 1000, currency: 'JPY' } }],
      metadata: { invoice_number: 'INV-1001', purchase_order_reference: 'PO-7781' },
    });
  });

  it.each([
    ['orderReference is given', { orderReference: 'ORDER-42' }, {}, 'ORDER-42'],
    ['only the buyer PO is given', {}, {}, 'PO-7781'],
    ['the buyer PO is blank', {}, { purchaseOrderReference: ' ' }, 'INV-1001'],
    ['neither is given', {}, { purchaseOrderReference: null }, 'INV-1001'],
    ['the reference has exactly 40 characters', { orderReference: 'R'.repeat(40) }, {}, 'R'.repeat(40)],
  ])('when %s, then reference_id follows orderReference, PO, invoice number', (_, request, invoiceOverrides, expected) => {
    const data = dataOf(runGwb({ invoice: makeInvoice(invoiceOverrides), ...request }));
    expect(data.reference_id).toBe(expected);
  });

  const refusals: [string, GwbOrderEnrichmentRequest, CodeAndPath[]][] = [
    [
      'the currency is unknown to gwb',
      { invoice: makeInvoice({ currency: 'xyz' }) },
      [{ code: 'unsupported_currency', path: 'invoice.currency' }],
    ],
    [
      'orderReference has 41 characters',
      { invoice: makeInvoice(), orderReference: 'R'.repeat(41) },
      [{ code: 'order_reference_too_long', path: 'orderReference' }],
    ],
    [
      'the buyer PO has 41 characters',
      { invoice: makeInvoice({ purchaseOrderReference: 'P'.repeat(41) }) },
      [{ code: 'order_reference_too_long', path: 'invoice.purchaseOrderReference' }],
    ],
    [
      'the invoice number has 41 characters and there is no PO',
      { invoice: makeInvoice({ purchaseOrderReference: null, invoiceNumber: 'I'.repeat(41) }) },
      [{ code: 'order_reference_too_long', path: 'invoice.invoiceNumber' }],
    ],
    [
      'a name has 513 characters',
      { invoice: makeInvoice({ lineItems: [line({ productName: 'n'.repeat(513) })] }) },
      [{ code: 'product_name_too_long', path: 'invoice.lineItems[0].productName' }],
    ],
    [
      'a quantity is fractional',
      { invoice: makeInvoice({ lineItems: [line({ quantity: '1.5' })] }) },
      [{ code: 'invalid_quantity', path: 'invoice.lineItems[0].quantity' }],
    ],
    [
      'a whole quantity is written with a fraction',
      { invoice: makeInvoice({ lineItems: [line({ quantity: '2.0' })] }) },
      [{ code: 'invalid_quantity', path: 'invoice.lineItems[0].quantity' }],
    ],
    [
      'a quantity has 13 digits',
      { invoice: makeInvoice({ lineItems: [line({ quantity: '1000000000000', unitAmountMinor: 1 })] }) },
      [{ code: 'invalid_quantity', path: 'invoice.lineItems[0].quantity' }],
    ],
    [
      'line tax is requested but the invoice holds tax only at transaction level',
      { invoice: makeInvoice({ taxAmountMinor: 80 }), taxRepresentation: 'line_item' },
      [{ code: 'line_tax_not_allocated', path: 'taxRepresentation' }],
    ],
    [
      'line discounts are requested but the invoice holds the discount only at transaction level',
      { invoice: makeInvoice({ discountAmountMinor: 80 }), discountRepresentation: 'line_item' },
      [{ code: 'line_discount_not_allocated', path: 'discountRepresentation' }],
    ],
    [
      'only free lines would carry the order tax (the tax is on shipping)',
      { invoice: makeInvoice({ lineItems: [line({ unitAmountMinor: 0 })], shippingAmountMinor: 1000, taxAmountMinor: 80 }) },
      [{ code: 'tax_not_representable', path: 'invoice.taxAmountMinor' }],
    ],
    [
      'a free line carries tax',
      {
        invoice: makeInvoice({ lineItems: [line({ sequence: 1 }), line({ sequence: 2, unitAmountMinor: 0, taxAmountMinor: 5 })] }),
        taxRepresentation: 'line_item',
      },
      [{ code: 'tax_not_representable', path: 'invoice.lineItems[1].taxAmountMinor' }],
    ],
    [
      'the order discount exceeds the lines (it also covers shipping)',
      { invoice: makeInvoice({ shippingAmountMinor: 500, discountAmountMinor: 1200 }) },
      [{ code: 'discount_not_representable', path: 'invoice.discountAmountMinor' }],
    ],
    [
      'a line discount exceeds its line (it also covers the line tax)',
      {
        invoice: makeInvoice({ lineItems: [line({ taxAmountMinor: 500, discountAmountMinor: 1200 })] }),
        discountRepresentation: 'line_item',
      },
      [{ code: 'discount_not_representable', path: 'invoice.lineItems[0].discountAmountMinor' }],
    ],
  ];

  it.each(refusals)('when %s, then exactly the expected issues are reported', (_, request, expected) => {
    expect(issuesOf(runGwb(request))).toStrictEqual(expected);
  });

  it('when the arithmetic does not reconcile, then taxes and discounts are not planned and only the mismatch is reported', () => {
    const invoice = makeInvoice({ taxAmountMinor: 1, totalAmountMinor: 999_999 });
    expect(issuesOf(runGwb({ invoice }))).toStrictEqual([{ code: 'arithmetic_mismatch', path: 'invoice.totalAmountMinor' }]);
  });

  it('when an order discount is spread with any rounding, then the order total is unchanged', () => {
    const invoice = makeInvoice({
      lineItems: [
        line({ sequence: 1, unitAmountMinor: 1001 }),
        line({ sequence: 2, unitAmountMinor: 1001 }),
        line({ sequence: 3, unitAmountMinor: 998 }),
      ],
      discountAmountMinor: 100,
      taxAmountMinor: 218,
    });
    const data = dataOf(runGwb({ invoice }));
    expect(new Set(gwbTotalsUnderEveryModel(data))).toStrictEqual(new Set([BigInt(invoice.totalAmountMinor)]));
  });
});
