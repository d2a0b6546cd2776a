import { describe, expect, it } from 'vitest';
import type { CanonicalInvoice } from '../../../contract/canonical-invoice.js';
import type { GwaTransactionEnrichmentRequest } from '../../../contract/enrichment.js';
import { happyInvoice, makeInvoice, makeLine } from './support/invoices.js';
import { dataOf, issuesOf, runGwa, type CodeAndPath } from './support/run.js';

const line = makeLine;
const manyLines = (count: number) => Array.from({ length: count }, (_, i) => line({ sequence: i, unitAmountMinor: 100 }));

describe('gwa transaction enrichment', () => {
  it('when a reconciled open invoice is enriched, then the whole gwa field set is produced in sequence order', () => {
    const data = dataOf(runGwa({ invoice: happyInvoice(), options: { shipsFromPostalCode: '94107-1234' } }));
    expect(data).toStrictEqual({
      amount: '134.90',
      orderId: 'INV-1001',
      purchaseOrderNumber: 'PO-7781',
      taxAmount: '9.90',
      shippingAmount: '15.00',
      discountAmount: '10.00',
      shipsFromPostalCode: '94107-1234',
      lineItems: [
        {
          kind: 'debit',
          name: 'Gadget',
          productCode: 'GAD-9',
          quantity: '1',
          unitOfMeasure: 'BOX',
          unitAmount: '70.00',
          totalAmount: '70.00',
        },
        {
          kind: 'debit',
          name: 'Industrial widget, blue, stainless',
          description: 'Blue widget with stainless steel housing',
          productCode: 'WID-1',
          commodityCode: '43211503',
          quantity: '2',
          unitOfMeasure: 'EA',
          unitAmount: '25.00',
          totalAmount: '50.00',
        },
      ],
    });
  });

  it('when tax and discount are held on the lines, then each line carries its non-zero amounts only', () => {
    const invoice = makeInvoice({
      purchaseOrderReference: null,
      lineItems: [
        line({ sequence: 1, quantity: '2.5', unitAmountMinor: 1000, taxAmountMinor: 200, discountAmountMinor: 250 }),
        line({ sequence: 2, productCode: 'SVC-1', unitOfMeasure: 'HUR', quantity: '1.50000', unitAmountMinor: 2000 }),
      ],
    });
    const data = dataOf(runGwa({ invoice, options: { purchaseOrderNumberSource: 'invoice_number' } }));
    expect(data).toStrictEqual({
      amount: '54.50',
      orderId: 'INV-1001',
      purchaseOrderNumber: 'INV-1001',
      taxAmount: '2.00',
      shippingAmount: '0.00',
      discountAmount: '2.50',
      lineItems: [
        {
          kind: 'debit',
          name: 'Widget',
          productCode: 'WID-1',
          quantity: '2.5',
          unitOfMeasure: 'EA',
          unitAmount: '10.00',
          totalAmount: '25.00',
          taxAmount: '2.00',
          discountAmount: '2.50',
        },
        {
          kind: 'debit',
          name: 'Widget',
          productCode: 'SVC-1',
          quantity: '1.5',
          unitOfMeasure: 'HUR',
          unitAmount: '20.00',
          totalAmount: '30.00',
        },
      ],
    });
  });

  it('when names and descriptions are too long, then they are shortened on code-point boundaries', () => {
    const invoice = makeInvoice({
      lineItems: [line({ productName: `${'n'.repeat(34)}😀tail`, description: `${'d'.repeat(126)}😀😀` })],
    });
    const [item] = dataOf(runGwa({ invoice })).lineItems;
    expect(item?.name).toBe(`${'n'.repeat(34)}😀`);
    expect(item?.description).toBe(`${'d'.repeat(126)}😀`);
  });

  it('when the options are absent, then shipsFromPostalCode is absent and the buyer PO is used', () => {
    const data = dataOf(runGwa({ invoice: makeInvoice() }));
    expect(Object.keys(data)).not.toContain('shipsFromPostalCode');
    expect(data.purchaseOrderNumber).toBe('PO-7781');
  });

  it.each([
    ['a 17-character PO', { purchaseOrderReference: 'P'.repeat(17) }],
    ['249 lines', { lineItems: manyLines(249) }],
    [
      '12-character identifiers',
      { lineItems: [line({ productCode: 'C'.repeat(12), commodityCode: 'D'.repeat(12), unitOfMeasure: 'U'.repeat(12) })] },
    ],
    ['a quantity with 4 fraction digits', { lineItems: [line({ quantity: '0.0001', unitAmountMinor: 10000 })] }],
    ['a blank commodity code', { lineItems: [line({ commodityCode: '   ' })] }],
  ] as [string, Partial<CanonicalInvoice>][])('when the invoice has %s, then it is accepted', (_, overrides) => {
    expect(issuesOf(runGwa({ invoice: makeInvoice(overrides) }))).toStrictEqual([]);
  });

  const refusals: [string, GwaTransactionEnrichmentRequest, CodeAndPath[]][] = [
    [
      'the currency is not USD',
      { invoice: makeInvoice({ currency: 'eur' }) },
      [{ code: 'unsupported_currency', path: 'invoice.currency' }],
    ],
    [
      'there are 250 lines',
      { invoice: makeInvoice({ lineItems: manyLines(250) }) },
      [{ code: 'too_many_line_items', path: 'invoice.lineItems' }],
    ],
    [
      'the buyer PO is missing',
      { invoice: makeInvoice({ purchaseOrderReference: null }) },
      [{ code: 'missing_purchase_order_number', path: 'invoice.purchaseOrderReference' }],
    ],
    [
      'the buyer PO is blank',
      { invoice: makeInvoice({ purchaseOrderReference: '  ' }) },
      [{ code: 'missing_purchase_order_number', path: 'invoice.purchaseOrderReference' }],
    ],
    [
      'the buyer PO has 18 characters',
      { invoice: makeInvoice({ purchaseOrderReference: 'P'.repeat(18) }) },
      [{ code: 'purchase_order_number_too_long', path: 'invoice.purchaseOrderReference' }],
    ],
    [
      'the buyer PO is not ASCII',
      { invoice: makeInvoice({ purchaseOrderReference: 'PO-Ünï' }) },
      [{ code: 'purchase_order_number_invalid', path: 'invoice.purchaseOrderReference' }],
    ],
    [
      'the invoice number stands in for the PO and is too long',
      { invoice: makeInvoice({ invoiceNumber: 'INV-2025-000000012' }), options: { purchaseOrderNumberSource: 'invoice_number' } },
      [{ code: 'purchase_order_number_too_long', path: 'invoice.invoiceNumber' }],
    ],
    [
      'a line has no product code',
      { invoice: makeInvoice({ lineItems: [line({ productCode: null })] }) },
      [{ code: 'missing_product_code', path: 'invoice.lineItems[0].productCode' }],
    ],
    [
      'a line has no unit',
      { invoice: makeInvoice({ lineItems: [line({ unitOfMeasure: ' ' })] }) },
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
      'a unit is not ASCII',
      { invoice: makeInvoice({ lineItems: [line({ unitOfMeasure: 'ÉA' })] }) },
      [{ code: 'identifier_invalid', path: 'invoice.lineItems[0].unitOfMeasure' }],
    ],
    [
      'a product code is long and not ASCII',
      { invoice: makeInvoice({ lineItems: [line({ productCode: 'Ü'.repeat(13) })] }) },
      [
        { code: 'identifier_invalid', path: 'invoice.lineItems[0].productCode' },
        { code: 'identifier_too_long', path: 'invoice.lineItems[0].productCode' },
      ],
    ],
    [
      'a quantity needs 5 fraction digits',
      { invoice: makeInvoice({ lineItems: [line({ quantity: '1.23456', unitAmountMinor: 100000 })] }) },
      [{ code: 'invalid_quantity', path: 'invoice.lineItems[0].quantity' }],
    ],
    [
      'a line has a zero unit amount',
      { invoice: makeInvoice({ lineItems: [line({ sequence: 1 }), line({ sequence: 2, unitAmountMinor: 0 })] }) },
      [{ code: 'zero_amount_line', path: 'invoice.lineItems[1].unitAmountMinor' }],
    ],
  ];

  it.each(refusals)('when %s, then exactly the expected issues are reported', (_, request, expected) => {
    expect(issuesOf(runGwa(request))).toStrictEqual(expected);
  });

  it('when several lines and the PO are wrong, then every issue is reported with the request index', () => {
    const invoice = makeInvoice({
      purchaseOrderReference: null,
      lineItems: [line({ sequence: 5, productCode: null }), line({ sequence: 0, unitOfMeasure: null, commodityCode: 'X'.repeat(20) })],
    });
    expect(issuesOf(runGwa({ invoice }))).toStrictEqual([
      { code: 'missing_product_code', path: 'invoice.lineItems[0].productCode' },
      { code: 'identifier_too_long', path: 'invoice.lineItems[1].commodityCode' },
      { code: 'missing_unit_of_measure', path: 'invoice.lineItems[1].unitOfMeasure' },
      { code: 'missing_purchase_order_number', path: 'invoice.purchaseOrderReference' },
    ]);
  });

  it('when the refusal is returned, then every issue has a message', () => {
    const result = runGwa({ invoice: makeInvoice({ currency: 'cad', purchaseOrderReference: null }) });
    expect(result.ok).toBe(false);
    if (!result.ok) for (const found of result.issues) expect(found.message.length).toBeGreaterThan(10);
  });
});
