import { describe, expect, it } from 'vitest';
import {
  qualificationOfStored,
  qualifyInvoice,
  storedQualificationOf,
  type MissingField,
  type Qualification,
  type RiskFinding,
  type SourceField,
} from '../../../server/domain/qualification/index.js';
import { line, mapped, mapping, shipping, sourceInvoice, subtotalLine } from './support.js';

/** A fixture invoice whose source puts its lines after a description line, one line without a quantity, and shipping last. */
function input() {
  const source = sourceInvoice({
    Line: [
      { DetailType: 'DescriptionOnly', Description: 'Order 7', DescriptionLineDetail: {} },
      line('1', '11', 2, 12.5, 25),
      { ...line('2', '12', 1, 10, 10), SalesItemLineDetail: { ItemRef: { value: '12' }, UnitPrice: 10, TaxCodeRef: { value: 'TAX' } } },
      subtotalLine(35),
      shipping('3', 12.5),
    ],
    TotalAmt: 50.3,
    Balance: 50.3,
  });
  return mapped({ invoice: source, mappings: [mapping('11', { productCode: 'ITEM', commodityCode: '43211503' })] });
}

describe('the stored form of a qualification', () => {
  it('when an invoice is mapped, then each provider keeps its level and indexes, each missing field is kept once as field@line, and the source facts beside them', () => {
    const stored = storedQualificationOf(input());
    expect(stored).toStrictEqual({
      gwa: { level: 'none', missing: [0, 1, 2, 3, 4], risks: [0] },
      gwb: { level: 'none', missing: [], risks: [] },
      gwc: { level: 'none', missing: [0, 1, 5, 2, 3, 4], risks: [0] },
      missingAt: [
        'ship_from_postal_code',
        'destination_postal_code',
        'commodity_code@1',
        'quantity@1',
        'unit_of_measure@1',
        'customer_code',
      ],
      riskFindings: [
        {
          code: 'generic_product_code',
          field: 'product_code',
          ledgerInvoiceId: '1001',
          path: 'invoice.lineItems[0].productCode',
          source: { objectType: 'ItemMapping', externalId: '11', field: 'productCode' },
          message: 'The product code "ITEM" identifies no product.',
        },
      ],
      source: { lines: [1, 2], taxable: [true, true], discountLine: null, shippingLine: 4 },
    });
  });

  it('when read back through JSON, without the source record, then each missing field is named as from the source: including the line position at the source', () => {
    const q = qualificationOfStored(JSON.parse(JSON.stringify(storedQualificationOf(input()))), { ...input(), ledgerInvoiceId: '1001' });
    const invoice = (field: string): SourceField => ({ objectType: 'Invoice', externalId: '1001', field });
    const missing = (field: MissingField['field'], reason: MissingField['reason'], path: string, source: MissingField['source']) => ({
      field,
      reason,
      path,
      source,
    });
    const shipFrom = missing('ship_from_postal_code', 'not_mapped', 'invoice.shipFromPostalCode', invoice('ShipFromAddr.PostalCode'));
    const destination = (reason: MissingField['reason']) =>
      missing('destination_postal_code', reason, 'invoice.destinationPostalCode', invoice('ShipAddr.PostalCode'));
    const lines = [
      missing('commodity_code', 'not_in_source', 'invoice.lineItems[1].commodityCode', {
        objectType: 'ItemMapping',
        externalId: '12',
        field: 'commodityCode',
      }),
      missing('quantity', 'not_in_source', 'invoice.lineItems[1].quantity', invoice('Line[2].SalesItemLineDetail.Qty')),
      missing('unit_of_measure', 'not_in_source', 'invoice.lineItems[1].unitOfMeasure', {
        objectType: 'ItemMapping',
        externalId: '12',
        field: 'unitOfMeasure',
      }),
    ];
    // The reasons are decided again when read: gwa has no place for the destination; gwc does not send the buyer's PO.
    expect(q.gwa.missing).toStrictEqual([shipFrom, destination('not_carried'), ...lines]);
    expect(q.gwc.missing).toStrictEqual([
      shipFrom,
      destination('not_mapped'),
      missing('customer_code', 'not_mapped', 'invoice.purchaseOrderReference', invoice('CustomField')),
      ...lines,
    ]);
    expect(q).toStrictEqual(JSON.parse(JSON.stringify(qualifyInvoice(input()))));
  });

  it('when a snapshot holds a form stored before (missing fields as tuples, or each provider its objects), then it reads as it was stored', () => {
    const commodity: MissingField = {
      field: 'commodity_code',
      reason: 'not_in_source',
      path: 'invoice.lineItems[0].commodityCode',
      source: { objectType: 'ItemMapping', externalId: '21', field: 'commodityCode' },
    };
    const duty: MissingField = { field: 'duty', reason: 'not_carried', path: 'invoice.dutyAmountMinor', source: null };
    const risk: RiskFinding = {
      code: 'generic_product_code',
      field: 'product_code',
      ledgerInvoiceId: '1001',
      path: 'invoice.lineItems[0].productCode',
      source: { objectType: 'ItemMapping', externalId: '21', field: 'productCode' },
      message: 'The product code "ITEM" identifies no product.',
    };
    const qualification: Qualification = {
      gwa: { level: 'none', missing: [commodity, duty], risks: [risk] },
      gwb: { level: 'none', missing: [], risks: [] },
      gwc: { level: 'partial', missing: [commodity], risks: [risk] },
    };
    const tuples = {
      gwa: { level: 'none', missing: [0, 1], risks: [0] },
      gwb: { level: 'none', missing: [], risks: [] },
      gwc: { level: 'partial', missing: [0], risks: [0] },
      missingFields: [
        ['commodity_code', 'not_in_source', 'invoice.lineItems[0].commodityCode', 'ItemMapping', '21', 'commodityCode'],
        ['duty', 'not_carried', 'invoice.dutyAmountMinor', null, null, null],
      ],
      riskFindings: [risk],
    };
    const context = input();
    expect(qualificationOfStored(JSON.parse(JSON.stringify(tuples)), context)).toStrictEqual(qualification);
    const objects = JSON.parse(JSON.stringify(qualification));
    expect(qualificationOfStored(objects, context)).toStrictEqual(objects);
  });
});
