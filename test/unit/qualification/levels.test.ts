import { describe, expect, it } from 'vitest';
import { qualifyInvoice } from '../../../server/domain/qualification/index.js';
import { completeMappings, line, mapped, mapping, shipping, sourceInvoice, subtotalLine } from './support.js';

const invoice = (field: string) => ({ objectType: 'Invoice', externalId: '1001', field });
const itemMapping = (id: string, field: string) => ({ objectType: 'ItemMapping', externalId: id, field });
/** gwc's invoice-backed output has a place for the buyer's PO (customer_reference) but never fills it. */
const gwcPo = { field: 'customer_code', reason: 'not_mapped', path: 'invoice.purchaseOrderReference', source: invoice('CustomField') };

describe('Product 3 level per provider output', () => {
  it('when the source holds every applicable field, then gwa reaches product_3, gwc, which does not send the buyer PO, partial (not_mapped), and gwb, which sends no enhanced data, none', () => {
    const q = qualifyInvoice(mapped());
    expect(q.gwa).toEqual({ level: 'product_3', missing: [], risks: [] });
    expect(q.gwc).toEqual({ level: 'partial', missing: [gwcPo], risks: [] });
    expect(q.gwb).toEqual({ level: 'none', missing: [], risks: [] });
  });

  it('when no item has a confirmed mapping, then every line lacks a unit and a commodity code and gwa and gwc send no line items (none)', () => {
    const q = qualifyInvoice(mapped({ mappings: [] }));
    const missing = [
      {
        field: 'commodity_code',
        reason: 'not_in_source',
        path: 'invoice.lineItems[0].commodityCode',
        source: itemMapping('11', 'commodityCode'),
      },
      {
        field: 'unit_of_measure',
        reason: 'not_in_source',
        path: 'invoice.lineItems[0].unitOfMeasure',
        source: itemMapping('11', 'unitOfMeasure'),
      },
      {
        field: 'commodity_code',
        reason: 'not_in_source',
        path: 'invoice.lineItems[1].commodityCode',
        source: itemMapping('12', 'commodityCode'),
      },
      {
        field: 'unit_of_measure',
        reason: 'not_in_source',
        path: 'invoice.lineItems[1].unitOfMeasure',
        source: itemMapping('12', 'unitOfMeasure'),
      },
    ];
    expect(q.gwa).toEqual({ level: 'none', missing, risks: [] });
    expect(q.gwc).toEqual({ level: 'none', missing: [gwcPo, ...missing], risks: [] });
  });

  it('when one item lacks only its commodity code, then the outputs are partial and name that item mapping', () => {
    const q = qualifyInvoice(mapped({ mappings: [completeMappings[0]!, mapping('12', { unitOfMeasure: 'HR' })] }));
    const missing = [
      {
        field: 'commodity_code',
        reason: 'not_in_source',
        path: 'invoice.lineItems[1].commodityCode',
        source: itemMapping('12', 'commodityCode'),
      },
    ];
    expect(q.gwa).toEqual({ level: 'partial', missing, risks: [] });
    expect(q.gwc).toEqual({ level: 'partial', missing: [gwcPo, ...missing], risks: [] });
  });

  it('when the invoice charges shipping, then freight is carried but no invoice-backed output sends the postal codes: not_mapped where the output has a place, not_carried where it has none (partial)', () => {
    const source = sourceInvoice({
      Line: [line('1', '11', 2, 12.5, 25), line('2', '12', 1, 10, 10), shipping('3', 12.5), subtotalLine(35)],
      TotalAmt: 50.3,
      Balance: 50.3,
    });
    const q = qualifyInvoice(mapped({ invoice: source }));
    const shipFrom = {
      field: 'ship_from_postal_code',
      reason: 'not_mapped',
      path: 'invoice.shipFromPostalCode',
      source: invoice('ShipFromAddr.PostalCode'),
    };
    const destination = {
      field: 'destination_postal_code',
      reason: 'not_mapped',
      path: 'invoice.destinationPostalCode',
      source: invoice('ShipAddr.PostalCode'),
    };
    // gwa's output has shipsFromPostalCode but no destination key; gwc's has both (shipping.from/to_postal_code).
    expect(q.gwa).toEqual({ level: 'partial', missing: [shipFrom, { ...destination, reason: 'not_carried' }], risks: [] });
    expect(q.gwc).toEqual({ level: 'partial', missing: [shipFrom, destination, gwcPo], risks: [] });
  });

  it('when the invoice has no buyer PO, then gwa (which refuses without one) reaches none and gwc, whose reference is the invoice number, stays partial', () => {
    const q = qualifyInvoice(mapped({ settings: { purchaseOrderField: null, version: 1 } }));
    expect(q.gwa).toEqual({
      level: 'none',
      missing: [
        { field: 'customer_code', reason: 'not_in_source', path: 'invoice.purchaseOrderReference', source: invoice('CustomField') },
      ],
      risks: [],
    });
    expect(q.gwc).toEqual({ level: 'partial', missing: [gwcPo], risks: [] });
  });

  it('when the source does not say the tax, then neither output can be produced (none) and the tax total is named', () => {
    const q = qualifyInvoice(mapped({ invoice: sourceInvoice({ TxnTaxDetail: {} }) }));
    const missing = [{ field: 'tax', reason: 'not_in_source', path: 'invoice.taxAmountMinor', source: invoice('TxnTaxDetail.TotalTax') }];
    expect(q.gwa).toMatchObject({ level: 'none', missing });
    expect(q.gwc).toMatchObject({ level: 'none', missing: [...missing, gwcPo] });
  });

  it('when the source holds a discount line, then the discount is carried from that line and no duty is asked (the source holds none)', () => {
    const source = sourceInvoice({
      Line: [
        line('1', '11', 2, 12.5, 25),
        line('2', '12', 1, 10, 10),
        subtotalLine(35),
        { Amount: 5, DetailType: 'DiscountLineDetail', DiscountLineDetail: {} },
      ],
      TotalAmt: 32.8,
      Balance: 32.8,
    });
    const input = mapped({ invoice: source });
    expect(input.invoice.discountAmountMinor).toBe(500);
    const q = qualifyInvoice(input);
    expect(q.gwa).toEqual({ level: 'product_3', missing: [], risks: [] });
    expect(q.gwc).toEqual({ level: 'partial', missing: [gwcPo], risks: [] });
  });

  it('when no source record is at hand, then missing fields name stored-invoice paths and line sources by the item only', () => {
    const q = qualifyInvoice({ ...mapped({ mappings: [] }), source: null, ledgerInvoiceId: null });
    expect(q.gwa.missing[0]).toEqual({
      field: 'commodity_code',
      reason: 'not_in_source',
      path: 'invoice.lineItems[0].commodityCode',
      source: itemMapping('11', 'commodityCode'),
    });
    const noTax = qualifyInvoice({ ...mapped({ invoice: sourceInvoice({ TxnTaxDetail: {} }) }), source: null, ledgerInvoiceId: null });
    expect(noTax.gwc.missing).toEqual([
      { field: 'tax', reason: 'not_in_source', path: 'invoice.taxAmountMinor', source: null },
      { ...gwcPo, source: null },
    ]);
  });

  it('when a source line holds a DiscountAmt, then the line discount applies and, as the mapper does not take it, is missing (not_mapped) with its source field; the stored line is unchanged', () => {
    const source = sourceInvoice({
      Line: [discounted({ DiscountAmt: 2.5 }), line('2', '12', 1, 10, 10), subtotalLine(32.5)],
      TotalAmt: 35.3,
      Balance: 35.3,
    });
    const input = mapped({ invoice: source });
    expect(input.invoice.lineItems[0]).toMatchObject({ subtotalAmountMinor: 2250, discountAmountMinor: null, totalAmountMinor: null });
    const q = qualifyInvoice(input);
    const lineDiscount = {
      field: 'line_discount',
      reason: 'not_mapped',
      path: 'invoice.lineItems[0].discountAmountMinor',
      source: invoice('Line[0].SalesItemLineDetail.DiscountAmt'),
    };
    expect(q.gwa).toEqual({ level: 'partial', missing: [lineDiscount], risks: [] });
    expect(q.gwc).toEqual({ level: 'partial', missing: [gwcPo, lineDiscount], risks: [] });
    expect(q.gwb).toEqual({ level: 'none', missing: [], risks: [] });
  });

  it('when a source line holds a DiscountRate only, then the line discount applies too; a DiscountAmt and DiscountRate of 0 (near miss) do not make it apply', () => {
    const rated = sourceInvoice({ Line: [discounted({ DiscountRate: 10 }), line('2', '12', 1, 10, 10), subtotalLine(32.5)] });
    const byRate = qualifyInvoice(mapped({ invoice: rated })).gwa;
    expect(byRate.missing.map((m) => [m.field, m.reason])).toEqual([['line_discount', 'not_mapped']]);
    // The rate's amount is not known exactly: the line total is not compared.
    expect(byRate.risks).toEqual([]);
    const zero = sourceInvoice({
      Line: [
        line('1', '11', 2, 12.5, 25, {
          SalesItemLineDetail: {
            ItemRef: { value: '11' },
            Qty: 2,
            UnitPrice: 12.5,
            TaxCodeRef: { value: 'TAX' },
            DiscountAmt: 0,
            DiscountRate: 0,
          },
        }),
        line('2', '12', 1, 10, 10),
        subtotalLine(35),
      ],
    });
    expect(qualifyInvoice(mapped({ invoice: zero })).gwa).toEqual({ level: 'product_3', missing: [], risks: [] });
  });
});

/** Line 1 of the fixture, 2 × 12.50 with a discount at the source (`detail`), its Amount 22.50 net of a 2.50 discount. */
function discounted(detail: Record<string, unknown>) {
  return line('1', '11', 2, 12.5, 22.5, {
    SalesItemLineDetail: { ItemRef: { value: '11' }, Qty: 2, UnitPrice: 12.5, TaxCodeRef: { value: 'TAX' }, ...detail },
  });
}
