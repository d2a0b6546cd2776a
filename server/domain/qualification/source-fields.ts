import type { ConfirmedMapping, StoredInvoice, StoredLine } from '../../../contract/invoices.js';
import { SHIPPING_ITEM_ID } from '../invoices/map-lines.js';
import { record, records, refValue, text, type SourceRecord } from '../invoices/source-record.js';
import type { LineField, SourceField, TransactionField } from './fields.js';

/** What qualification reads of one mapped invoice; everything is at hand when the mapper runs. */
export interface QualificationInput {
  /** The invoice's id at the source; `null` when not known (findings then name stored-invoice paths only). */
  readonly ledgerInvoiceId: string | null;
  readonly invoice: StoredInvoice;
  /** The source Invoice record it was mapped from; `null` when not at hand (no source line positions, no tax codes). */
  readonly source: SourceRecord | null;
  /** The merchant-confirmed item mappings the mapper applied (provenance `mappings`). */
  readonly mappings: readonly ConfirmedMapping[];
}

/**
 * Where each stored value comes from at the source (docs/network-qualification.md, "Where the
 * values come from"; the mapper's rules: docs/decisions.md, "Stored invoices: mapping and readiness").
 */
export class SourceFields {
  private readonly lines: readonly SourceRecord[];
  /** Source position of each line Id, read once: an invoice may have hundreds of lines. */
  private readonly positions = new Map<string, number>();

  constructor(private readonly input: QualificationInput) {
    this.lines = records(input.source?.Line);
    this.lines.forEach((line, position) => {
      const id = text(line.Id);
      if (id !== null && !this.positions.has(id)) this.positions.set(id, position);
    });
  }

  /** The source field of a transaction value; `null` when the source has no field for it. */
  transaction(field: TransactionField): SourceField | null {
    switch (field) {
      case 'tax':
        return this.invoiceField('TxnTaxDetail.TotalTax');
      case 'discount':
        return this.invoiceField(this.linePathWhere((l) => l.DetailType === 'DiscountLineDetail', 'Amount', 'DiscountLineDetail'));
      case 'freight':
        return this.invoiceField(this.linePathWhere(isShippingLine, 'Amount', `SalesItemLineDetail.ItemRef ${SHIPPING_ITEM_ID}`));
      case 'duty':
        return null;
      case 'ship_from_postal_code':
        return this.invoiceField('ShipFromAddr.PostalCode');
      case 'destination_postal_code':
        return this.invoiceField('ShipAddr.PostalCode');
      case 'customer_code':
        return this.invoiceField('CustomField');
      case 'order_reference':
        return this.invoiceField('DocNumber');
    }
  }

  /** The source field of a line value: the invoice's line, the Item it references, or the Item's confirmed mapping. */
  line(line: StoredLine, field: LineField): SourceField | null {
    const item = line.sourceItemId;
    switch (field) {
      case 'descriptor':
      case 'unit_of_measure':
        return itemSourceField(item, field);
      case 'product_code':
        if (item === null) return null;
        // The mapper takes a confirmed mapping's code first, else the Item's SKU (map-lines.ts).
        return this.mappingOf(item)?.productCode
          ? mappingField(item, 'productCode')
          : { objectType: 'Item', externalId: item, field: 'Sku' };
      case 'commodity_code':
        return item === null ? null : mappingField(item, 'commodityCode');
      case 'quantity':
        return this.invoiceField(`${this.sourceLine(line)}.SalesItemLineDetail.Qty`);
      case 'unit_cost':
        return this.invoiceField(`${this.sourceLine(line)}.SalesItemLineDetail.UnitPrice`);
      case 'line_discount':
        return this.invoiceField(`${this.sourceLine(line)}.SalesItemLineDetail.DiscountAmt`);
      case 'line_total':
        return this.invoiceField(`${this.sourceLine(line)}.Amount`);
    }
  }

  /** The invoice's line-level path of a stored line's tax code (`Line[2].SalesItemLineDetail.TaxCodeRef`). */
  taxCode(line: StoredLine): SourceField | null {
    return this.invoiceField(`${this.sourceLine(line)}.SalesItemLineDetail.TaxCodeRef`);
  }

  /**
   * Whether the source marks the line taxable: its tax code is `TAX` (US companies: `TAX` or `NON`,
   * docs/provider-facts.md §4.2); `null` when the source line or its code is not at hand.
   */
  taxable(line: StoredLine): boolean | null {
    const source = this.lines[this.position(line) ?? -1];
    const code = refValue(record(source?.SalesItemLineDetail)?.TaxCodeRef);
    if (code === null) return null;
    return code.toUpperCase() === 'TAX';
  }

  private invoiceField(field: string | null): SourceField | null {
    const id = this.input.ledgerInvoiceId;
    return id === null || field === null ? null : { objectType: 'Invoice', externalId: id, field };
  }

  private mappingOf(itemId: string): ConfirmedMapping | undefined {
    return this.input.mappings.find((m) => m.sourceItemId === itemId);
  }

  /** `Line[i]` of the stored line at the source (by the line's Id); `Line(Id=…)` when the position is not known. */
  private sourceLine(line: StoredLine): string {
    const position = this.position(line);
    return position === null ? `Line(Id=${line.sourceLineId})` : `Line[${position}]`;
  }

  private position(line: StoredLine): number | null {
    const byId = this.positions.get(line.sourceLineId);
    if (byId !== undefined) return byId;
    // The mapper names a line without Id by its position (map-lines.ts).
    const match = /^position-(\d+)$/.exec(line.sourceLineId);
    return match ? Number(match[1]) : null;
  }

  private linePathWhere(predicate: (line: SourceRecord) => boolean, field: string, fallback: string): string {
    const position = this.lines.findIndex(predicate);
    return position >= 0 ? `Line[${position}].${field}` : `Line[] (${fallback}).${field}`;
  }
}

/**
 * The source field of a line's descriptor or unit of measure: both depend on the line's Item alone (its name; the unit
 * of its confirmed mapping), so the cross-invoice rules name them without the source record.
 */
export function itemSourceField(item: string | null, field: 'descriptor' | 'unit_of_measure'): SourceField | null {
  if (item === null) return null;
  return field === 'descriptor' ? { objectType: 'Item', externalId: item, field: 'Name' } : mappingField(item, 'unitOfMeasure');
}

function isShippingLine(line: SourceRecord): boolean {
  return refValue(record(line.SalesItemLineDetail)?.ItemRef) === SHIPPING_ITEM_ID;
}

function mappingField(itemId: string, field: 'productCode' | 'commodityCode' | 'unitOfMeasure'): SourceField {
  return { objectType: 'ItemMapping', externalId: itemId, field };
}
