import { describe, expect, it } from 'vitest';
import { qualificationItems } from '../../../admin/console/ui/views/qualification-items.js';
import { qualifyInvoice } from '../../../server/domain/qualification/index.js';
import { line, mapped, mapping, shipping, sourceInvoice, subtotalLine } from './support.js';

describe('the console’s qualification of an invoice', () => {
  it('when fields are missing for each reason, then only those the source lacks are fixes ("Fix"); the others say the output does not send them and why', () => {
    const source = sourceInvoice({
      Line: [line('1', '11', 2, 12.5, 25), line('2', '12', 1, 10, 10), shipping('3', 12.5), subtotalLine(35)],
      TotalAmt: 50.3,
      Balance: 50.3,
    });
    const q = qualifyInvoice(mapped({ invoice: source, mappings: [mapping('11'), mapping('12', { unitOfMeasure: 'HR' })] }));
    const invoice = (field: string) => ({ objectType: 'Invoice', externalId: '1001', field });
    const fix = (index: number) => ({
      key: `m:invoice.lineItems[${index}].commodityCode:commodity_code`,
      fix: true,
      what: 'missing commodity_code (not_in_source)',
      path: `invoice.lineItems[${index}].commodityCode`,
      source: { objectType: 'ItemMapping', externalId: String(11 + index), field: 'commodityCode' },
    });
    const notSent = (provider: string, field: string, reason: string, why: string, path: string, from: ReturnType<typeof invoice>) => ({
      key: `m:${path}:${field}`,
      fix: false,
      what: `Not sent by ${provider}: ${field} (${reason}) — ${why}.`,
      path,
      source: from,
    });
    const shipFrom = ['invoice.shipFromPostalCode', invoice('ShipFromAddr.PostalCode')] as const;
    const destination = ['invoice.destinationPostalCode', invoice('ShipAddr.PostalCode')] as const;
    const unmapped = 'this service does not take it from the source for this output';
    expect(qualificationItems('gwa', q.gwa)).toEqual([
      fix(0),
      fix(1),
      notSent('gwa', 'ship_from_postal_code', 'not_mapped', unmapped, ...shipFrom),
      notSent('gwa', 'destination_postal_code', 'not_carried', 'this output has no place for it', ...destination),
    ]);
    expect(qualificationItems('gwc', q.gwc)).toEqual([
      fix(0),
      fix(1),
      notSent('gwc', 'ship_from_postal_code', 'not_mapped', unmapped, ...shipFrom),
      notSent('gwc', 'destination_postal_code', 'not_mapped', unmapped, ...destination),
      notSent('gwc', 'customer_code', 'not_mapped', unmapped, 'invoice.purchaseOrderReference', invoice('CustomField')),
    ]);
    expect(qualificationItems('gwb', q.gwb)).toEqual([]);
  });
});
