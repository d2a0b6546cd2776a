import type { ConfirmedMapping, StoredInvoice } from '../../../contract/invoices.js';
import { isPositive, parseDecimal } from '../enrichment/decimal.js';
import { SHIPPING_ITEM_ID } from '../invoices/map-lines.js';
import { currencyExponent, exactDecimalText, toMinorUnits } from '../invoices/source-money.js';
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
 * What qualification needs of the source Invoice record beyond the stored invoice: where each stored line sits in the
 * source's `Line` list and whether the source marks it taxable, and where its discount and shipping lines are. Read
 * once when the invoice is mapped and stored with the snapshot's qualification, so its source paths are named again
 * when it is read, without the source record (which moves on with later versions).
 */
export interface SourceFacts {
  /** Each stored line's position in the source's `Line` list (index-aligned with `lineItems`); `null` when not known. */
  readonly lines: readonly (number | null)[];
  /** Whether the source marks each stored line taxable (tax code `TAX`); `null` when its code is not at hand. */
  readonly taxable: readonly (boolean | null)[];
  /** The position of the source's first discount line; `null` when it has none. */
  readonly discountLine: number | null;
  /** The position of the source's first shipping line; `null` when it has none. */
  readonly shippingLine: number | null;
}

/** The source facts of a stored invoice, from the source Invoice record it was mapped from (`null`: not at hand). */
export function sourceFactsOf(source: SourceRecord | null, invoice: StoredInvoice): SourceFacts {
  const sourceLines = records(source?.Line);
  const positions = new Map<string, number>();
  sourceLines.forEach((line, position) => {
    const id = text(line.Id);
    if (id !== null && !positions.has(id)) positions.set(id, position);
  });
  const lines = invoice.lineItems.map((line) => {
    const byId = positions.get(line.sourceLineId);
    if (byId !== undefined) return byId;
    // The mapper names a line without Id by its position (map-lines.ts).
    const match = /^position-(\d+)$/.exec(line.sourceLineId);
    return match ? Number(match[1]) : null;
  });
  const taxable = lines.map((position) => {
    const code = refValue(record(sourceLines[position ?? -1]?.SalesItemLineDetail)?.TaxCodeRef);
    return code === null ? null : code.toUpperCase() === 'TAX';
  });
  const positionOf = (predicate: (line: SourceRecord) => boolean) => {
    const position = sourceLines.findIndex(predicate);
    return position >= 0 ? position : null;
  };
  return {
    lines,
    taxable,
    discountLine: positionOf((l) => l.DetailType === 'DiscountLineDetail'),
    shippingLine: positionOf(isShippingLine),
  };
}

/**
 * A stored line's discount as its source line holds it (`SalesItemLineDetail.DiscountAmt`, `DiscountRate`,
 * docs/provider-facts.md §4.2). The mapper does not take it (map-lines.ts), so only qualification reads it: it is the
 * discount of the line-total rule and makes the line discount a field that applies. Read when the invoice is mapped,
 * never stored: both are decided then.
 */
export interface SourceLineDiscount {
  /** The source line holds a discount: an amount or a rate above 0. */
  readonly held: boolean;
  /** Its `DiscountAmt` in minor units when above 0; `null` when it holds none, a rate only, or an amount not exact in the currency. */
  readonly amountMinor: number | null;
}

const NO_DISCOUNT: SourceLineDiscount = { held: false, amountMinor: null };

/** Each stored line's source discount (index-aligned with `lineItems`), from the source record and the lines' positions in it. */
export function sourceLineDiscountsOf(source: SourceRecord | null, invoice: StoredInvoice, facts: SourceFacts): SourceLineDiscount[] {
  const sourceLines = records(source?.Line);
  const exponent = invoice.currency === null ? null : currencyExponent(invoice.currency);
  return facts.lines.map((position) => {
    const detail = record(sourceLines[position ?? -1]?.SalesItemLineDetail);
    if (detail === null) return NO_DISCOUNT;
    const amount = positive(detail.DiscountAmt);
    if (!amount && !positive(detail.DiscountRate)) return NO_DISCOUNT;
    const minor = amount && exponent !== null ? toMinorUnits(detail.DiscountAmt, exponent) : null;
    return { held: true, amountMinor: minor?.ok ? minor.minor : null };
  });
}

/** An exact source decimal above 0 (no float is compared). */
function positive(value: unknown): boolean {
  const decimal = exactDecimalText(value);
  const parsed = decimal === null ? null : parseDecimal(decimal);
  return parsed !== null && isPositive(parsed);
}

/**
 * Where each stored value comes from at the source (docs/network-qualification.md, "Where the
 * values come from"; the mapper's rules: docs/decisions.md, "Stored invoices: mapping and readiness").
 * Lines are named by their index in the stored invoice.
 */
export class SourceFields {
  constructor(
    private readonly invoice: {
      readonly ledgerInvoiceId: string | null;
      readonly invoice: StoredInvoice;
      readonly mappings: readonly ConfirmedMapping[];
    },
    private readonly facts: SourceFacts,
  ) {}

  /** The source field of a transaction value; `null` when the source has no field for it. */
  transaction(field: TransactionField): SourceField | null {
    switch (field) {
      case 'tax':
        return this.invoiceField('TxnTaxDetail.TotalTax');
      case 'discount':
        return this.invoiceField(linePathAt(this.facts.discountLine, 'Amount', 'DiscountLineDetail'));
      case 'freight':
        return this.invoiceField(linePathAt(this.facts.shippingLine, 'Amount', `SalesItemLineDetail.ItemRef ${SHIPPING_ITEM_ID}`));
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
  line(index: number, field: LineField): SourceField | null {
    const item = this.invoice.invoice.lineItems[index]!.sourceItemId;
    switch (field) {
      case 'descriptor':
      case 'unit_of_measure':
        return itemSourceField(item, field);
      case 'product_code':
        return productCodeSourceField(item, this.invoice.mappings);
      case 'commodity_code':
        return item === null ? null : mappingField(item, 'commodityCode');
      case 'quantity':
        return this.invoiceField(`${this.sourceLine(index)}.SalesItemLineDetail.Qty`);
      case 'unit_cost':
        return this.invoiceField(`${this.sourceLine(index)}.SalesItemLineDetail.UnitPrice`);
      case 'line_discount':
        return this.invoiceField(`${this.sourceLine(index)}.SalesItemLineDetail.DiscountAmt`);
      case 'line_total':
        return this.invoiceField(`${this.sourceLine(index)}.Amount`);
    }
  }

  /** The invoice's line-level path of a stored line's tax code (`Line[2].SalesItemLineDetail.TaxCodeRef`). */
  taxCode(index: number): SourceField | null {
    return this.invoiceField(`${this.sourceLine(index)}.SalesItemLineDetail.TaxCodeRef`);
  }

  /**
   * Whether the source marks the line taxable: its tax code is `TAX` (US companies: `TAX` or `NON`,
   * docs/provider-facts.md §4.2); `null` when the source line or its code is not at hand.
   */
  taxable(index: number): boolean | null {
    return this.facts.taxable[index] ?? null;
  }

  private invoiceField(field: string | null): SourceField | null {
    const id = this.invoice.ledgerInvoiceId;
    return id === null || field === null ? null : { objectType: 'Invoice', externalId: id, field };
  }

  /** `Line[i]` of the stored line at the source; `Line(Id=…)` when the position is not known. */
  private sourceLine(index: number): string {
    const position = this.facts.lines[index] ?? null;
    return position === null ? `Line(Id=${this.invoice.invoice.lineItems[index]!.sourceLineId})` : `Line[${position}]`;
  }
}

function linePathAt(position: number | null, field: string, fallback: string): string {
  return position !== null ? `Line[${position}].${field}` : `Line[] (${fallback}).${field}`;
}

/**
 * The source field of a line's descriptor or unit of measure: both depend on the line's Item alone (its name; the unit
 * of its confirmed mapping), so the cross-invoice rules name them without the source record.
 */
export function itemSourceField(item: string | null, field: 'descriptor' | 'unit_of_measure'): SourceField | null {
  if (item === null) return null;
  return field === 'descriptor' ? { objectType: 'Item', externalId: item, field: 'Name' } : mappingField(item, 'unitOfMeasure');
}

/**
 * The source field of a line's product code: the mapper takes a confirmed mapping's code first, else the Item's SKU
 * (map-lines.ts), so the cross-invoice rules name it from the mappings a snapshot applied, without the source record.
 */
export function productCodeSourceField(
  item: string | null,
  mappings: readonly Pick<ConfirmedMapping, 'sourceItemId' | 'productCode'>[],
): SourceField | null {
  if (item === null) return null;
  return mappings.find((m) => m.sourceItemId === item)?.productCode
    ? mappingField(item, 'productCode')
    : { objectType: 'Item', externalId: item, field: 'Sku' };
}

function isShippingLine(line: SourceRecord): boolean {
  return refValue(record(line.SalesItemLineDetail)?.ItemRef) === SHIPPING_ITEM_ID;
}

function mappingField(itemId: string, field: 'productCode' | 'commodityCode' | 'unitOfMeasure'): SourceField {
  return { objectType: 'ItemMapping', externalId: itemId, field };
}
