import { describe, expect, it } from 'vitest';
import {
  crossInvoiceFactsOf,
  crossInvoiceInputOf,
  crossInvoiceRisks,
  qualifyInvoice,
  type QualificationInput,
  type RiskFinding,
  type SourceField,
} from '../../../server/domain/qualification/index.js';
import { item, line, mapped, mapping, withLines } from './support.js';

/** Three invoices of two items each; `names` gives each item's Name, `units` each item's confirmed unit. */
function invoices(names: Record<string, string>, units: Record<string, string>, count = 3): QualificationInput[] {
  const items = Object.entries(names).map(([id, Name]) => item(id, { Name }));
  const mappings = Object.entries(units).map(([id, unitOfMeasure]) => mapping(id, { unitOfMeasure, commodityCode: '43211503' }));
  return Array.from({ length: count }, (_, n) =>
    mapped({ ...withLines(String(2001 + n), [line('1', '11', 2, 12.5, 25), line('2', '12', 1, 10, 10)], 35, 37.8), items, mappings }),
  );
}

describe('placeholder-risk rules across invoices', () => {
  it('when one descriptor names two different items on every invoice, then descriptor_static_across_invoices names each Item Name per invoice', () => {
    const found = crossInvoiceRisks(invoices({ '11': 'Goods', '12': ' goods' }, { '11': 'EA', '12': 'HR' }));
    expect(found).toEqual(
      ['2001', '2002', '2003'].flatMap((id) =>
        ['11', '12'].map((itemId, index) => ({
          code: 'descriptor_static_across_invoices',
          field: 'descriptor',
          ledgerInvoiceId: id,
          path: `invoice.lineItems[${index}].productName`,
          source: { objectType: 'Item', externalId: itemId, field: 'Name' },
          message: 'The same descriptor is on every one of 3 invoices, for 2 different items.',
        })),
      ),
    );
  });

  it('when the shared descriptor belongs to one recurring item, or only two invoices are given (near misses), then no finding', () => {
    expect(crossInvoiceRisks(invoices({ '11': 'Monthly hosting', '12': 'Setup' }, { '11': 'EA', '12': 'HR' }))).toEqual([]);
    expect(crossInvoiceRisks(invoices({ '11': 'Goods', '12': 'Goods' }, { '11': 'EA', '12': 'HR' }, 2))).toEqual([]);
  });

  it('when every line of every invoice has one unit over two items, then single_unit_of_measure_everywhere names each item mapping', () => {
    const found = crossInvoiceRisks(invoices({ '11': 'Dock', '12': 'Cable' }, { '11': 'EA', '12': 'ea' }));
    expect(found).toHaveLength(6);
    expect(found[1]).toEqual({
      code: 'single_unit_of_measure_everywhere',
      field: 'unit_of_measure',
      ledgerInvoiceId: '2001',
      path: 'invoice.lineItems[1].unitOfMeasure',
      source: { objectType: 'ItemMapping', externalId: '12', field: 'unitOfMeasure' },
      message: 'Every line of 3 invoices has the unit EA, over 2 different items.',
    });
  });

  it('when a second unit appears, or a line has no unit (near misses), then no finding', () => {
    expect(crossInvoiceRisks(invoices({ '11': 'Dock', '12': 'Cable' }, { '11': 'EA', '12': 'FT' }))).toEqual([]);
    expect(crossInvoiceRisks(invoices({ '11': 'Dock', '12': 'Cable' }, { '11': 'EA' }))).toEqual([]);
  });

  it('when cross-invoice findings are given to one invoice, then only its own join its risks, and no output changes', () => {
    const list = invoices({ '11': 'Goods', '12': 'Goods' }, { '11': 'EA', '12': 'HR' });
    const before = JSON.stringify(list);
    const q = qualifyInvoice(list[1]!, crossInvoiceRisks(list));
    expect(q.gwa.risks.map((r) => [r.code, r.ledgerInvoiceId, r.path])).toEqual([
      ['descriptor_static_across_invoices', '2002', 'invoice.lineItems[0].productName'],
      ['descriptor_static_across_invoices', '2002', 'invoice.lineItems[1].productName'],
    ]);
    expect(q.gwa.level).toBe('product_3');
    expect(q.gwb.risks).toEqual([]);
    expect(JSON.stringify(list)).toBe(before);
  });

  it('when the rules read the facts a snapshot keeps instead of its mapped invoice, then they find the same, through JSON', () => {
    const list = invoices({ '11': 'Goods', '12': 'Goods' }, { '11': 'EA', '12': 'ea' });
    const facts = list.map((q) => JSON.parse(JSON.stringify(crossInvoiceFactsOf(q.invoice, q.mappings))));
    expect(facts[0]).toEqual({
      issuedAt: list[0]!.invoice.issuedAt,
      lines: [
        ['Goods', 'EA', '11', '1', 'PC-11'],
        ['Goods', 'ea', '12', '2', 'PC-12'],
      ],
      codeMappings: [
        ['11', 'PC-11'],
        ['12', 'PC-12'],
      ],
    });
    const fromFacts = crossInvoiceRisks(list.map((q, i) => crossInvoiceInputOf(q.ledgerInvoiceId!, facts[i])!));
    expect(fromFacts).toHaveLength(12);
    expect(fromFacts).toEqual(crossInvoiceRisks(list));
  });

  it('when a snapshot keeps facts from before they held product codes (four fields a line), then they give no input: the window reads its mapped invoice', () => {
    const older = { issuedAt: '2026-11-01', lines: [['Goods', 'EA', '11', '1']] };
    expect(crossInvoiceInputOf('2001', older as never)).toBeNull();
  });
});

/**
 * An invoice of items 11 and `second` (line 2), each code from a mapping (`codes`) or else the Item's Sku (`skus`); each
 * item in a unit of its own, so that only the product codes make a pattern.
 */
function coded(id: string, second: string, codes: Record<string, string>, skus: Record<string, string> = {}): QualificationInput {
  const items = ['11', '12', '13', '14'].map((itemId) => item(itemId, skus[itemId] === undefined ? {} : { Sku: skus[itemId] }));
  const mappings = ['11', '12', '13', '14'].map((itemId) =>
    mapping(itemId, { productCode: codes[itemId] ?? null, unitOfMeasure: `U${itemId}`, commodityCode: '43211503' }),
  );
  return mapped({ ...withLines(id, [line('1', '11', 2, 12.5, 25), line('2', second, 1, 10, 10)], 35, 37.8), items, mappings });
}

const repeated = (ledgerInvoiceId: string, index: number, source: SourceField, others: string): RiskFinding => ({
  code: 'repeated_product_code',
  field: 'product_code',
  ledgerInvoiceId,
  path: `invoice.lineItems[${index}].productCode`,
  source,
  message: `The same product code is on other items of other invoices (${others}).`,
});

describe('one product code on different items across invoices', () => {
  it('when two invoices put one code (normalized) on different Items, then repeated_product_code names each such line and where its code comes from', () => {
    const found = crossInvoiceRisks([
      coded('2001', '12', { '11': 'PC-11', '12': 'AB-100' }),
      coded('2002', '13', { '11': 'PC-11' }, { '13': 'ab 100' }),
    ]);
    expect(found).toEqual([
      repeated('2001', 1, { objectType: 'ItemMapping', externalId: '12', field: 'productCode' }, 'Item 13 on 2002'),
      repeated('2002', 1, { objectType: 'Item', externalId: '13', field: 'Sku' }, 'Item 12 on 2001'),
    ]);
  });

  it('when one Item has its code on every invoice, or a code is on two Items of one invoice only (near misses: the second is the one-invoice rule), then no finding', () => {
    const same = ['2001', '2002', '2003'].map((id) => coded(id, '12', { '11': 'PC-11', '12': 'PC-12' }));
    expect(crossInvoiceRisks(same)).toEqual([]);
    const within = [coded('2001', '12', { '11': 'AB-100', '12': 'AB-100' }), coded('2002', '12', { '11': 'AB-100', '12': 'AB-100' })];
    expect(crossInvoiceRisks(within)).toEqual([]);
    expect(qualifyInvoice(within[0]!).gwa.risks.map((r) => r.code)).toEqual(['repeated_product_code', 'repeated_product_code']);
  });

  it('when a line already has the one-invoice finding, then it gets no second one, while the other invoice’s line is named with every other item', () => {
    const found = crossInvoiceRisks([
      coded('2001', '12', { '11': 'AB-100', '12': 'AB-100' }),
      coded('2002', '13', { '11': 'PC-11', '13': 'AB-100' }),
    ]);
    expect(found).toEqual([
      repeated('2002', 1, { objectType: 'ItemMapping', externalId: '13', field: 'productCode' }, 'Item 11 on 2001; Item 12 on 2001'),
    ]);
  });

  it('when the finding is given to its invoice, then the outputs that send product codes show it and no output changes', () => {
    const list = [coded('2001', '12', { '11': 'PC-11', '12': 'AB-100' }), coded('2002', '13', { '11': 'PC-11', '13': 'AB-100' })];
    const before = JSON.stringify(list);
    const q = qualifyInvoice(list[1]!, crossInvoiceRisks(list));
    expect(q.gwa.risks.map((r) => [r.code, r.path])).toEqual([['repeated_product_code', 'invoice.lineItems[1].productCode']]);
    expect(q.gwc.risks).toEqual(q.gwa.risks);
    expect(q.gwb.risks).toEqual([]);
    expect(JSON.stringify(list)).toBe(before);
  });
});
