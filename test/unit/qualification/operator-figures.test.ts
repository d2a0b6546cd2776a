import { describe, expect, it } from 'vitest';
import type { MissingField, ProviderQualification, Qualification, RiskFinding } from '../../../server/domain/qualification/fields.js';
import { levelOfMissing } from '../../../server/domain/qualification/level-rule.js';
import { fixGroupsOf } from '../../../server/domain/qualification/operator-figures.js';
import type { FixInvoice, FixPreparation } from '../../../server/domain/qualification/ports.js';

const mapping = (externalId: string, field: string) => ({ objectType: 'ItemMapping' as const, externalId, field });
const gap = (field: MissingField['field'], reason: MissingField['reason'], source: MissingField['source']): MissingField => ({
  field,
  reason,
  path: `invoice.${field}`,
  source,
});
const risk = (source: RiskFinding['source']): RiskFinding => ({
  code: 'generic_product_code',
  field: 'product_code',
  ledgerInvoiceId: '1',
  path: 'invoice.lineItems[0].productCode',
  source,
  message: 'placeholder',
});
const none: ProviderQualification = { level: 'none', missing: [], risks: [] };
const invoice = (id: string, gwc: ProviderQualification): FixInvoice => ({
  storedInvoiceId: id,
  ledgerInvoiceId: `L${id}`,
  snapshotId: `S${id}`,
  qualification: { gwa: none, gwb: none, gwc } satisfies Qualification,
  context: null,
  crossInvoiceRisks: [],
});
const prep = (id: string, storedInvoiceId: string, amount: bigint, second: number): FixPreparation => ({
  id,
  provider: 'gwc',
  currency: 'usd',
  amountMinor: amount,
  storedInvoiceId,
  createdAt: new Date(Date.UTC(2026, 10, 1, 0, 0, second)),
});
const figures = (preparations: FixPreparation[], invoices: FixInvoice[]) =>
  fixGroupsOf(preparations, new Map(invoices.map((v) => [v.storedInvoiceId, v])), 20).map((g) => ({
    code: g.code,
    source: g.source.externalId,
    lifts: g.liftsMinor,
    withOthers: g.withOtherFixesMinor,
    invoices: g.invoiceCount,
    preparations: g.preparations,
    behind: g.invoices.map((v) => [v.storedInvoiceId, v.alone, v.preparationIds]),
  }));

describe('the level rule', () => {
  it('when an essential field is missing, then none; another, partial; nothing, product_3', () => {
    expect(levelOfMissing('gwc', [{ field: 'unit_of_measure' }, { field: 'commodity_code' }])).toBe('none');
    expect(levelOfMissing('gwc', [{ field: 'commodity_code' }])).toBe('partial');
    expect(levelOfMissing('gwa', [{ field: 'customer_code' }])).toBe('none');
    expect(levelOfMissing('gwc', [{ field: 'customer_code' }])).toBe('partial');
    expect(levelOfMissing('gwc', [])).toBe('product_3');
  });
});

describe('qualification.fixes ranking (fixGroupsOf)', () => {
  it('when one invoice was prepared three times, then it counts once, at its latest preparation, its preparations oldest first', () => {
    const q = { level: 'partial' as const, missing: [gap('commodity_code', 'not_in_source', mapping('5', 'commodityCode'))], risks: [] };
    expect(figures([prep('p2', 'A', 900n, 2), prep('p1', 'A', 1000n, 1), prep('p3', 'A', 800n, 3)], [invoice('A', q)])).toEqual([
      {
        code: 'commodity_code',
        source: '5',
        lifts: 800n,
        withOthers: 0n,
        invoices: 1,
        preparations: 3,
        behind: [['A', true, ['p1', 'p2', 'p3']]],
      },
    ]);
  });

  it('when two source gaps hold an output back, then the one that alone raises its level lifts it, the other only with it', () => {
    const q = {
      level: 'none' as const,
      missing: [
        gap('unit_of_measure', 'not_in_source', mapping('6', 'unitOfMeasure')),
        gap('commodity_code', 'not_in_source', mapping('6', 'commodityCode')),
        gap('customer_code', 'not_mapped', null),
      ],
      risks: [risk(mapping('6', 'productCode'))],
    };
    expect(figures([prep('p', 'A', 500n, 1)], [invoice('A', q)])).toEqual([
      { code: 'unit_of_measure', source: '6', lifts: 500n, withOthers: 0n, invoices: 1, preparations: 1, behind: [['A', true, ['p']]] },
      // A risk on an output that sends no enhanced data protects nothing yet.
      { code: 'commodity_code', source: '6', lifts: 0n, withOthers: 500n, invoices: 1, preparations: 1, behind: [['A', false, ['p']]] },
      {
        code: 'generic_product_code',
        source: '6',
        lifts: 0n,
        withOthers: 500n,
        invoices: 1,
        preparations: 1,
        behind: [['A', false, ['p']]],
      },
    ]);
  });

  it('when the last source gap leaves a gap only the service could close, then it still lifts; not_mapped and not_carried are no fixes', () => {
    const q = {
      level: 'partial' as const,
      missing: [
        gap('commodity_code', 'not_in_source', mapping('5', 'commodityCode')),
        gap('customer_code', 'not_mapped', null),
        gap('duty', 'not_carried', null),
      ],
      risks: [],
    };
    expect(figures([prep('p', 'A', 700n, 1)], [invoice('A', q)]).map((f) => [f.code, f.lifts])).toEqual([['commodity_code', 700n]]);
  });

  it('when an invoice is not read (deleted at the source, or never qualified), then it names no fix', () => {
    expect(figures([prep('p', 'gone', 700n, 1)], [])).toEqual([]);
  });

  it('when fixes tie on volume, then more invoices first, then by source', () => {
    const q = (item: string) => ({
      level: 'partial' as const,
      missing: [gap('commodity_code', 'not_in_source', mapping(item, 'commodityCode'))],
      risks: [],
    });
    const ranked = figures(
      [prep('a', 'A', 300n, 1), prep('b', 'B', 100n, 2), prep('c', 'C', 200n, 3), prep('d', 'D', 400n, 4)],
      [invoice('A', q('9')), invoice('B', q('8')), invoice('C', q('8')), invoice('D', q('7'))],
    );
    expect(ranked.map((f) => [f.source, f.lifts, f.invoices])).toEqual([
      ['7', 400n, 1],
      ['8', 300n, 2],
      ['9', 300n, 1],
    ]);
  });
});
