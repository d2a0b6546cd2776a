import { describe, expect, it } from 'vitest';
import type { CanonicalInvoice } from '../../../contract/canonical-invoice.js';
import type { GwcPaymentIntentEnrichmentRequest } from '../../../contract/enrichment.js';
import { happyInvoice, makeInvoice, makeLine } from './support/invoices.js';
import { dataOf, issuesOf, runGwc, type CodeAndPath } from './support/run.js';

const line = makeLine;
const manyLines = (count: number) => Array.from({ length: count }, (_, i) => line({ sequence: i, unitAmountMinor: 100 }));

function lineLevelInvoice(): CanonicalInvoice {
  return makeInvoice({
    lineItems: [
      line({ sequence: 1, productName: 'Gadget', productCode: 'GAD-9', unitAmountMinor: 7000, taxAmountMinor: 560 }),
      line({ sequence: 2, quantity: '2', unitAmountMinor: 2500, discountAmountMinor: 500, taxAmountMinor: 0 }),
    ],
    shippingAmountMinor: 900,
  });
}

describe('gwc payment intent enrichment', () => {
  it('when a reconciled invoice is enriched with the defaults, then tax and discount sit at transaction level', () => {
    const data = dataOf(runGwc({ invoice: happyInvoice() }));
    expect(data).toStrictEqual({
      payment_details: { order_reference: 'PO-7781' },
      amount_details: {
        enforce_arithmetic_validation: true,
        line_items: [
          { product_name: 'Gadget', product_code: 'GAD-9', unit_cost: 7000, quantity: 1, unit_of_measure: 'BOX' },
          {
            product_name: 'Industrial widget, blue, stainless steel housing',
            product_code: 'WID-1',
            unit_cost: 2500,
            quantity: 2,
            unit_of_measure: 'EA',
            payment_method_options: { card: { commodity_code: '43211503' } },
          },
        ],
        tax: { total_tax_amount: 990 },
        discount_amount: 1000,
        shipping: { amount: 1500 },
      },
    });
  });

  it('when line representation and every option are given, then tax sits on every line and discounts on discounted lines', () => {
    const request: GwcPaymentIntentEnrichmentRequest = {
      invoice: lineLevelInvoice(),
      options: {
        orderReference: 'ORDER-42',
        customerReference: 'CUST-7',
        taxRepresentation: 'line_item',
        discountRepresentation: 'line_item',
        shipping: { fromPostalCode: '94107', toPostalCode: 'SW1A 1AA' },
      },
    };
    expect(dataOf(runGwc(request))).toStrictEqual({
      payment_details: { order_reference: 'ORDER-42', customer_reference: 'CUST-7' },
      amount_details: {
        enforce_arithmetic_validation: true,
        line_items: [
          {
            product_name: 'Gadget',
            product_code: 'GAD-9',
            unit_cost: 7000,
            quantity: 1,
            unit_of_measure: 'EA',
            tax: { total_tax_amount: 560 },
          },
          {
            product_name: 'Widget',
            product_code: 'WID-1',
            unit_cost: 2500,
            quantity: 2,
            unit_of_measure: 'EA',
            tax: { total_tax_amount: 0 },
            discount_amount: 500,
          },
        ],
        shipping: { amount: 900, from_postal_code: '94107', to_postal_code: 'SW1A 1AA' },
      },
    });
  });

  it('when there is no shipping and no postal code, then shipping is absent and a zero discount is omitted', () => {
    const data = dataOf(runGwc({ invoice: makeInvoice({ purchaseOrderReference: null, currency: 'eur' }) }));
    expect(data).toStrictEqual({
      payment_details: { order_reference: 'INV-1001' },
      amount_details: {
        enforce_arithmetic_validation: true,
        line_items: [{ product_name: 'Widget', product_code: 'WID-1', unit_cost: 1000, quantity: 1, unit_of_measure: 'EA' }],
        tax: { total_tax_amount: 0 },
      },
    });
  });

  it('when only postal codes are given and the customer reference is null, then shipping holds only the postal codes', () => {
    const data = dataOf(
      runGwc({ invoice: makeInvoice(), options: { customerReference: null, shipping: { fromPostalCode: null, toPostalCode: '10001' } } }),
    );
    expect(data.payment_details).toStrictEqual({ order_reference: 'PO-7781' });
    expect(data.amount_details.shipping).toStrictEqual({ to_postal_code: '10001' });
  });

  it.each([
    ['200 lines', { lineItems: manyLines(200) }],
    ['a 1,024-character name', { lineItems: [line({ productName: 'n'.repeat(1024) })] }],
    ['a non-ASCII 12-character product code', { lineItems: [line({ productCode: 'Ü'.repeat(12) })] }],
    ['a safe-integer quantity', { lineItems: [line({ quantity: '9007199254740991', unitAmountMinor: 1 })] }],
  ] as [string, Partial<CanonicalInvoice>][])('when the invoice has %s, then it is accepted', (_, overrides) => {
    expect(issuesOf(runGwc({ invoice: makeInvoice(overrides) }))).toStrictEqual([]);
  });

  const refusals: [string, GwcPaymentIntentEnrichmentRequest, CodeAndPath[]][] = [
    [
      'there are 201 lines',
      { invoice: makeInvoice({ lineItems: manyLines(201) }) },
      [{ code: 'too_many_line_items', path: 'invoice.lineItems' }],
    ],
    [
      'a name has 1,025 characters',
      { invoice: makeInvoice({ lineItems: [line({ productName: 'n'.repeat(1025) })] }) },
      [{ code: 'product_name_too_long', path: 'invoice.lineItems[0].productName' }],
    ],
    [
      'a line has no product code',
      { invoice: makeInvoice({ lineItems: [line({ productCode: null })] }) },
      [{ code: 'missing_product_code', path: 'invoice.lineItems[0].productCode' }],
    ],
    [
      'a line has no unit',
      { invoice: makeInvoice({ lineItems: [line({ unitOfMeasure: null })] }) },
      [{ code: 'missing_unit_of_measure', path: 'invoice.lineItems[0].unitOfMeasure' }],
    ],
    [
      'a product code has 13 characters',
      { invoice: makeInvoice({ lineItems: [line({ productCode: 'C'.repeat(13) })] }) },
      [{ code: 'identifier_too_long', path: 'invoice.lineItems[0].productCode' }],
    ],
    [
      'a commodity code has 13 characters',
      { invoice: makeInvoice({ lineItems: [line({ commodityCode: '4'.repeat(13) })] }) },
      [{ code: 'identifier_too_long', path: 'invoice.lineItems[0].commodityCode' }],
    ],
    [
      'a unit has 13 characters',
      { invoice: makeInvoice({ lineItems: [line({ unitOfMeasure: 'U'.repeat(13) })] }) },
      [{ code: 'identifier_too_long', path: 'invoice.lineItems[0].unitOfMeasure' }],
    ],
    [
      'a quantity is fractional',
      { invoice: makeInvoice({ lineItems: [line({ quantity: '0.5' })] }) },
      [{ code: 'invalid_quantity', path: 'invoice.lineItems[0].quantity' }],
    ],
    [
      'a quantity exceeds the safe integers',
      {
        invoice: makeInvoice({
          lineItems: [line({ sequence: 1 }), line({ sequence: 2, quantity: '9007199254740992', unitAmountMinor: 0 })],
        }),
      },
      [{ code: 'invalid_quantity', path: 'invoice.lineItems[1].quantity' }],
    ],
    [
      'line tax is requested but the invoice holds tax only at transaction level',
      { invoice: makeInvoice({ taxAmountMinor: 80 }), options: { taxRepresentation: 'line_item' } },
      [{ code: 'line_tax_not_allocated', path: 'options.taxRepresentation' }],
    ],
    [
      'line discounts are requested but the invoice holds the discount only at transaction level',
      { invoice: makeInvoice({ discountAmountMinor: 80 }), options: { discountRepresentation: 'line_item' } },
      [{ code: 'line_discount_not_allocated', path: 'options.discountRepresentation' }],
    ],
    [
      'tax, shipping and discount together exceed the amount',
      { invoice: makeInvoice({ discountAmountMinor: 600, taxAmountMinor: 10, shippingAmountMinor: 100 }) },
      [{ code: 'tax_shipping_discount_exceed_amount', path: 'invoice.totalAmountMinor' }],
    ],
  ];

  it.each(refusals)('when %s, then exactly the expected issues are reported', (_, request, expected) => {
    expect(issuesOf(runGwc(request))).toStrictEqual(expected);
  });

  it('when line tax is held but transaction representation is used, then the tax appears only at transaction level', () => {
    const data = dataOf(runGwc({ invoice: lineLevelInvoice(), options: { discountRepresentation: 'line_item' } }));
    expect(data.amount_details.tax).toStrictEqual({ total_tax_amount: 560 });
    expect(data.amount_details.line_items.every((l) => l.tax === undefined)).toBe(true);
    expect(data.amount_details.discount_amount).toBeUndefined();
  });
});
