import { describe, expect, it } from 'vitest';
import { qualifyInvoice, type RiskFinding } from '../../../server/domain/qualification/index.js';
import { item, line, mapped, mapping, withLines } from './support.js';

const risks = (...args: Parameters<typeof mapped>): readonly RiskFinding[] => qualifyInvoice(mapped(...args)).gwa.risks;
const codes = (...args: Parameters<typeof mapped>) => risks(...args).map((r) => r.code);
/** Mappings that leave the product code to the Item's SKU (the mapper's fall-back). */
const skuOnly = [
  mapping('11', { productCode: null, commodityCode: '43211503' }),
  mapping('12', { productCode: null, commodityCode: '81111500' }),
];

describe('placeholder-risk rules over one invoice', () => {
  it('when an Item holds a generic SKU, then generic_product_code names the Item and its Sku', () => {
    expect(risks({ mappings: skuOnly, items: [item('11', { Sku: 'N/A' }), item('12', { Sku: 'SKU-12' })] })).toEqual([
      {
        code: 'generic_product_code',
        field: 'product_code',
        ledgerInvoiceId: '1001',
        path: 'invoice.lineItems[0].productCode',
        source: { objectType: 'Item', externalId: '11', field: 'Sku' },
        message: 'The product code "N/A" identifies no product.',
      },
    ]);
  });

  it.each(['1', 'ITEM', 'sku', 'NA', '0000', 'xxx', '-'])('when the code is %j, then it is generic', (sku) => {
    expect(codes({ mappings: skuOnly, items: [item('11', { Sku: sku }), item('12')] })).toContain('generic_product_code');
  });

  it.each(['SKU-1042', 'ITEM7731', 'NAIL-08', '10', 'X1'])('when the code is %j (a near miss), then no finding', (sku) => {
    expect(codes({ mappings: skuOnly, items: [item('11', { Sku: sku }), item('12')] })).toEqual([]);
  });

  it('when a confirmed mapping holds a generic code, then the finding names the item mapping', () => {
    const found = risks({ mappings: [mapping('11', { productCode: 'ITEM', commodityCode: '43211503' }), skuOnly[1]!] });
    expect(found.map((r) => [r.code, r.source])).toEqual([
      ['generic_product_code', { objectType: 'ItemMapping', externalId: '11', field: 'productCode' }],
    ]);
  });

  it('when two different items carry one product code, then repeated_product_code is raised on both lines', () => {
    expect(risks({ mappings: skuOnly, items: [item('11', { Sku: 'AB-100' }), item('12', { Sku: 'ab 100' })] })).toEqual([
      {
        code: 'repeated_product_code',
        field: 'product_code',
        ledgerInvoiceId: '1001',
        path: 'invoice.lineItems[0].productCode',
        source: { objectType: 'Item', externalId: '11', field: 'Sku' },
        message: 'The same product code is on other items (Item 12).',
      },
      {
        code: 'repeated_product_code',
        field: 'product_code',
        ledgerInvoiceId: '1001',
        path: 'invoice.lineItems[1].productCode',
        source: { objectType: 'Item', externalId: '12', field: 'Sku' },
        message: 'The same product code is on other items (Item 11).',
      },
    ]);
  });

  it('when one item is on two lines (a near miss), then its code is not repeated', () => {
    const lines = withLines('1002', [line('1', '11', 2, 12.5, 25), line('2', '11', 1, 12.5, 12.5)], 37.5, 40.3);
    expect(codes({ ...lines, mappings: skuOnly })).toEqual([]);
  });

  it('when the Item name is its SKU, then descriptor_equals_product_code names the Item Name', () => {
    expect(risks({ mappings: skuOnly, items: [item('11', { Name: ' sku-11 ' }), item('12')] })).toEqual([
      {
        code: 'descriptor_equals_product_code',
        field: 'descriptor',
        ledgerInvoiceId: '1001',
        path: 'invoice.lineItems[0].productName',
        source: { objectType: 'Item', externalId: '11', field: 'Name' },
        message: 'The descriptor repeats the product code instead of describing the item.',
      },
    ]);
  });

  it('when the Item name contains its SKU and words (a near miss), then no finding', () => {
    expect(codes({ mappings: skuOnly, items: [item('11', { Name: 'SKU-11 USB-C dock' }), item('12')] })).toEqual([]);
  });

  it('when a mapping holds a commodity code that is not a classification, then commodity_code_format names the mapping', () => {
    const found = risks({ mappings: [mapping('11', { commodityCode: 'ABC123' }), mapping('12', { commodityCode: '12345678' })] });
    expect(found).toEqual([
      {
        code: 'commodity_code_format',
        field: 'commodity_code',
        ledgerInvoiceId: '1001',
        path: 'invoice.lineItems[0].commodityCode',
        source: { objectType: 'ItemMapping', externalId: '11', field: 'commodityCode' },
        message: 'The commodity code "ABC123" is not 2-12 digits of a classification (UNSPSC, NAICS, ...).',
      },
      {
        code: 'commodity_code_format',
        field: 'commodity_code',
        ledgerInvoiceId: '1001',
        path: 'invoice.lineItems[1].commodityCode',
        source: { objectType: 'ItemMapping', externalId: '12', field: 'commodityCode' },
        message: 'The commodity code "12345678" is not 2-12 digits of a classification (UNSPSC, NAICS, ...).',
      },
    ]);
  });

  it.each(['00000000', '1234', 'N/A', '1234567890123', '43-21'])(
    'when the commodity code is %j, then it is refused as a format',
    (code) => {
      expect(codes({ mappings: [mapping('11', { commodityCode: code }), mapping('12', { commodityCode: '81111500' })] })).toEqual([
        'commodity_code_format',
      ]);
    },
  );

  it.each(['23', '236220', '43211503', '8471300000', '123'])('when the commodity code is %j (a near miss), then no finding', (code) => {
    expect(codes({ mappings: [mapping('11', { commodityCode: code }), mapping('12', { commodityCode: '81111500' })] })).toEqual([]);
  });
});

describe('tax and arithmetic risks', () => {
  const untaxed = (taxCode: string) =>
    withLines(
      '1003',
      [
        line('1', '11', 2, 12.5, 25),
        line('2', '12', 1, 10, 10, {
          SalesItemLineDetail: { ItemRef: { value: '12' }, Qty: 1, UnitPrice: 10, TaxCodeRef: { value: taxCode } },
        }),
      ],
      35,
      35,
    );

  it('when the source marks lines taxable and the invoice tax is 0, then zero_tax_on_taxable_line names each line tax code', () => {
    const source = untaxed('TAX');
    const invoice = { ...(source.invoice as Record<string, unknown>), TxnTaxDetail: { TotalTax: 0 } };
    expect(risks({ invoice })).toEqual(
      [0, 1].map((i) => ({
        code: 'zero_tax_on_taxable_line',
        field: 'tax',
        ledgerInvoiceId: '1003',
        path: 'invoice.taxAmountMinor',
        source: { objectType: 'Invoice', externalId: '1003', field: `Line[${i}].SalesItemLineDetail.TaxCodeRef` },
        message:
          'The source marks the line taxable (TaxCodeRef TAX) but its tax is 0: record the tax, or mark the line NON if it is exempt.',
      })),
    );
  });

  it('when only the non-taxable line has no tax (near miss: tax 2.80 on the invoice, or the line marked NON), then no finding', () => {
    expect(codes()).toEqual([]);
    const source = untaxed('NON');
    const invoice = {
      ...(source.invoice as Record<string, unknown>),
      Line: [
        line('1', '11', 2, 12.5, 25, {
          SalesItemLineDetail: { ItemRef: { value: '11' }, Qty: 2, UnitPrice: 12.5, TaxCodeRef: { value: 'NON' } },
        }),
        line('2', '12', 1, 10, 10, {
          SalesItemLineDetail: { ItemRef: { value: '12' }, Qty: 1, UnitPrice: 10, TaxCodeRef: { value: 'NON' } },
        }),
      ],
      TxnTaxDetail: { TotalTax: 0 },
    };
    expect(codes({ invoice })).toEqual([]);
  });

  it('when a source line amount is not quantity × unit price, then line_total_mismatch names the line Amount', () => {
    const lines = withLines('1004', [line('1', '11', 3, 12.5, 25), line('2', '12', 1, 10, 10)], 35, 37.8);
    expect(risks(lines)).toEqual([
      {
        code: 'line_total_mismatch',
        field: 'line_total',
        ledgerInvoiceId: '1004',
        path: 'invoice.lineItems[0].subtotalAmountMinor',
        source: { objectType: 'Invoice', externalId: '1004', field: 'Line[0].Amount' },
        message: 'The line total does not add up: quantity × unitAmountMinor is 3750.',
      },
    ]);
  });

  it('when a fractional quantity gives the exact amount (near miss: 1.5 × 12.50 = 18.75), then no finding', () => {
    const lines = withLines('1005', [line('1', '11', 1.5, 12.5, 18.75), line('2', '12', 1, 10, 10)], 28.75, 31.55);
    expect(codes(lines)).toEqual([]);
  });

  /** The fixture with line 1 at 2 × 12.50, its Amount `amount`, and a source `DiscountAmt` of `discount`. */
  const discountedAt = (amount: number, discount: unknown) =>
    withLines(
      '1006',
      [
        line('1', '11', 2, 12.5, amount, {
          SalesItemLineDetail: { ItemRef: { value: '11' }, Qty: 2, UnitPrice: 12.5, TaxCodeRef: { value: 'TAX' }, DiscountAmt: discount },
        }),
        line('2', '12', 1, 10, 10),
      ],
      amount + 10,
      amount + 12.8,
    );

  it('when a source line holds a DiscountAmt and its amount is quantity × unit price − discount (near miss: 2 × 12.50 − 2.50 = 22.50), then no finding', () => {
    expect(codes(discountedAt(22.5, 2.5))).toEqual([]);
  });

  it('when a source line holds a DiscountAmt and its amount is not quantity × unit price − discount, then line_total_mismatch names the line Amount', () => {
    expect(risks(discountedAt(25, 2.5))).toEqual([
      {
        code: 'line_total_mismatch',
        field: 'line_total',
        ledgerInvoiceId: '1006',
        path: 'invoice.lineItems[0].subtotalAmountMinor',
        source: { objectType: 'Invoice', externalId: '1006', field: 'Line[0].Amount' },
        message: 'The line total does not add up: quantity × unitAmountMinor − discount is 2250.',
      },
    ]);
  });

  it('when the source DiscountAmt is not exact in the currency (2.555), then the line total is not compared', () => {
    expect(codes(discountedAt(25, 2.555))).toEqual([]);
  });

  it('when no source line holds a discount but the stored line does, then its discount is the one subtracted', () => {
    const input = mapped();
    const withDiscount = (subtotalAmountMinor: number) =>
      qualifyInvoice({
        ...input,
        source: null,
        invoice: {
          ...input.invoice,
          lineItems: [{ ...input.invoice.lineItems[0]!, discountAmountMinor: 250, subtotalAmountMinor }, input.invoice.lineItems[1]!],
        },
      }).gwa.risks;
    expect(withDiscount(2250)).toEqual([]);
    expect(withDiscount(2500)).toEqual([
      {
        code: 'line_total_mismatch',
        field: 'line_total',
        ledgerInvoiceId: '1001',
        path: 'invoice.lineItems[0].subtotalAmountMinor',
        source: { objectType: 'Invoice', externalId: '1001', field: 'Line(Id=1).Amount' },
        message: 'The line total does not add up: quantity × unitAmountMinor − discount is 2250.',
      },
    ]);
  });
});
