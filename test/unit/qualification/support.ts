import { mapInvoice, type ItemMapping, type MapperInput } from '../../../server/domain/invoices/index.js';
import { qualificationInputOf, type QualificationInput } from '../../../server/domain/qualification/index.js';
import { input, mapping, salesLine, shippingLine, sourceInvoice, subtotalLine } from '../invoices/support/source.js';

export { item, mapping, salesLine, shippingLine, sourceInvoice, subtotalLine } from '../invoices/support/source.js';

/** Both items mapped with a code, a unit and a commodity code: the invoice of the fixtures holds every Product 3 field. */
export const completeMappings: ItemMapping[] = [
  mapping('11', { commodityCode: '43211503' }),
  mapping('12', { unitOfMeasure: 'HR', commodityCode: '81111500' }),
];

/** Maps a provider-shaped invoice (fixture defaults, complete mappings) and returns what qualification reads. */
export function mapped(overrides: Partial<MapperInput> = {}): QualificationInput {
  const mapperInput = input({ mappings: completeMappings, ...overrides });
  return qualificationInputOf(mapperInput, mapInvoice(mapperInput));
}

/** The fixture invoice (tax 2.80) with other lines; `total` is the provider's TotalAmt as it would send it. */
export function withLines(id: string, lines: Record<string, unknown>[], subtotal: number, total: number): Partial<MapperInput> {
  return {
    invoice: sourceInvoice({ Id: id, DocNumber: `INV-${id}`, Line: [...lines, subtotalLine(subtotal)], TotalAmt: total, Balance: total }),
  };
}

export { salesLine as line, shippingLine as shipping };
