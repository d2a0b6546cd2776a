import { describe, expect, it } from 'vitest';
import {
  qualificationOfStored,
  storedQualificationOf,
  type MissingField,
  type Qualification,
  type RiskFinding,
  type SourceField,
} from '../../../server/domain/qualification/index.js';

const notInSource = (field: MissingField['field'], path: string, source: SourceField): MissingField => ({
  field,
  reason: 'not_in_source',
  path,
  source,
});
const commodity = notInSource('commodity_code', 'invoice.lineItems[0].commodityCode', {
  objectType: 'ItemMapping',
  externalId: '21',
  field: 'commodityCode',
});
const po = notInSource('customer_code', 'invoice.purchaseOrderReference', {
  objectType: 'Invoice',
  externalId: '1001',
  field: 'CustomField',
});
const duty: MissingField = { field: 'duty', reason: 'not_carried', path: 'invoice.dutyAmountMinor', source: null };
const risk: RiskFinding = {
  code: 'generic_product_code',
  field: 'product_code',
  ledgerInvoiceId: '1001',
  path: 'invoice.lineItems[0].productCode',
  source: { objectType: 'ItemMapping', externalId: '21', field: 'productCode' },
  message: 'The product code "ITEM" identifies no product.',
};

// gwa and gwc share the commodity code and the risk (the same finding object, as `qualifyInvoice` gives it).
const qualification: Qualification = {
  gwa: { level: 'none', missing: [po, { ...commodity }, duty], risks: [risk] },
  gwb: { level: 'none', missing: [], risks: [] },
  gwc: { level: 'partial', missing: [{ ...commodity }], risks: [risk] },
};

describe('the stored form of a qualification', () => {
  it('when outputs share missing fields and findings, then each is stored once (a missing field as a tuple) and the providers name them by index', () => {
    expect(storedQualificationOf(qualification)).toStrictEqual({
      gwa: { level: 'none', missing: [0, 1, 2], risks: [0] },
      gwb: { level: 'none', missing: [], risks: [] },
      gwc: { level: 'partial', missing: [1], risks: [0] },
      missingFields: [
        ['customer_code', 'not_in_source', 'invoice.purchaseOrderReference', 'Invoice', '1001', 'CustomField'],
        ['commodity_code', 'not_in_source', 'invoice.lineItems[0].commodityCode', 'ItemMapping', '21', 'commodityCode'],
        ['duty', 'not_carried', 'invoice.dutyAmountMinor', null, null, null],
      ],
      riskFindings: [risk],
    });
  });

  it('when read back, through JSON as the database returns it, then it is the qualification it was made from', () => {
    const stored = JSON.parse(JSON.stringify(storedQualificationOf(qualification)));
    expect(qualificationOfStored(stored)).toStrictEqual(JSON.parse(JSON.stringify(qualification)));
  });

  it('when a snapshot holds the form stored before (each provider its objects), then it reads as it is', () => {
    const earlier = JSON.parse(JSON.stringify(qualification));
    expect(qualificationOfStored(earlier)).toStrictEqual(earlier);
  });
});
