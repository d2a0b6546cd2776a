import type { CategorizedIssue } from '../../../contract/common/index.js';
import type { StoredLine } from '../../../contract/invoices.js';
import { issue } from '../enrichment/index.js';
import { categorize, invoiceIssue } from './issue-categories.js';
import { exactDecimalText, toMinorUnits } from './source-money.js';
import { record, records, refName, refValue, text, type SourceRecord } from './source-record.js';
import type { ItemMapping } from './types.js';

/** ItemRef value of the company's shipping line (providers' shipping preference; docs/decisions.md). */
export const SHIPPING_ITEM_ID = 'SHIPPING_ITEM_ID';

export interface LineContext {
  /** Minor-unit digits of the invoice currency; `null` when the currency is unknown (money stays null). */
  readonly exponent: number | null;
  readonly items: ReadonlyMap<string, SourceRecord>;
  readonly mappings: readonly ItemMapping[];
}

export interface MappedLines {
  readonly lines: StoredLine[];
  readonly discountMinor: number | null;
  readonly shippingMinor: number | null;
  /** Distinct Item ids the lines reference, in first-use order. */
  readonly itemIds: string[];
  readonly mappingsUsed: ItemMapping[];
  readonly issues: CategorizedIssue[];
}

/**
 * Invoice Line[] → stored lines plus transaction discount and shipping
 * (docs/decisions.md, "Stored invoices: mapping and readiness"):
 * SalesItemLineDetail → a stored line (or shipping for SHIPPING_ITEM_ID);
 * DiscountLineDetail → transaction discount; SubTotalLineDetail and
 * DescriptionOnly → skipped; GroupLineDetail, unknown types and lines without
 * ItemRef → issues. Issue paths: `invoice.…` for stored fields, `source.Line[i]` for source lines.
 */
export function mapLines(sourceLines: unknown, context: LineContext): MappedLines {
  const out: MappedLines = { lines: [], discountMinor: null, shippingMinor: null, itemIds: [], mappingsUsed: [], issues: [] };
  const discounts: { amount: unknown; position: number }[] = [];
  const shipping: { amount: unknown; position: number }[] = [];
  records(sourceLines).forEach((line, position) => {
    const source = `source.Line[${position}]`;
    switch (line.DetailType) {
      case 'SalesItemLineDetail': {
        const itemId = refValue(record(line.SalesItemLineDetail)?.ItemRef);
        if (itemId === null) out.issues.push(categorize(issue('missing_item_reference', `${source}.SalesItemLineDetail.ItemRef`)));
        else if (itemId === SHIPPING_ITEM_ID) shipping.push({ amount: line.Amount, position });
        else mapSalesLine(line, itemId, position, context, out);
        return;
      }
      case 'DiscountLineDetail':
        discounts.push({ amount: line.Amount, position });
        return;
      case 'SubTotalLineDetail':
      case 'DescriptionOnly':
        return;
      case 'GroupLineDetail':
        out.issues.push(invoiceIssue('group_line_unsupported', source));
        return;
      default:
        out.issues.push(invoiceIssue('unsupported_line_type', source, `DetailType ${String(line.DetailType)}.`));
    }
  });
  const discountMinor = sumAmounts(discounts, context, 'invoice.discountAmountMinor', out.issues);
  let shippingMinor: number | null = null;
  if (shipping.length > 1) {
    const where = shipping.map((s) => `source.Line[${s.position}]`).join(', ');
    out.issues.push(invoiceIssue('ambiguous_shipping', 'invoice.shippingAmountMinor', `Lines ${where}.`));
  } else {
    shippingMinor = sumAmounts(shipping, context, 'invoice.shippingAmountMinor', out.issues);
  }
  return { ...out, discountMinor, shippingMinor };
}

function mapSalesLine(line: SourceRecord, itemId: string, position: number, context: LineContext, out: MappedLines): void {
  const index = out.lines.length;
  const path = `invoice.lineItems[${index}]`;
  const detail = record(line.SalesItemLineDetail) ?? {};
  const item = context.items.get(itemId) ?? null;
  if (!out.itemIds.includes(itemId)) out.itemIds.push(itemId);
  if (item === null) out.issues.push(invoiceIssue('missing_dependency', `${path}.sourceItemId`, `Item ${itemId} is not imported.`));
  const choice = chooseMapping(context.mappings, itemId);
  if (choice.revoked) out.issues.push(invoiceIssue('item_mapping_revoked', `${path}.sourceItemId`));
  if (choice.applied && !out.mappingsUsed.includes(choice.applied)) out.mappingsUsed.push(choice.applied);
  const quantity = quantityOf(detail.Qty, `${path}.quantity`, out.issues);
  const lineNum = line.LineNum;
  out.lines.push({
    // A sales line always has an Id at the provider; the position is a stable stand-in for hand-made records.
    sourceLineId: text(line.Id) ?? `position-${position}`,
    sourceItemId: itemId,
    sequence: typeof lineNum === 'number' && Number.isSafeInteger(lineNum) && lineNum >= 0 ? lineNum : position + 1,
    productName: text(item?.Name) ?? refName(detail.ItemRef),
    description: text(line.Description),
    // The SKU as is: provider limits (length, ASCII) are the enrichment core's rules, checked per provider.
    productCode: choice.applied?.productCode ?? text(item?.Sku),
    unitOfMeasure: choice.applied?.unitOfMeasure ?? null,
    commodityCode: choice.applied?.commodityCode ?? null,
    quantity,
    unitAmountMinor: money(detail.UnitPrice, context, `${path}.unitAmountMinor`, out.issues),
    subtotalAmountMinor: money(line.Amount, context, `${path}.subtotalAmountMinor`, out.issues),
    // US companies hold tax (and the discount line) at transaction level: not allocated (spec: StoredInvoice).
    taxAmountMinor: null,
    discountAmountMinor: null,
    totalAmountMinor: null,
  });
}

/**
 * The mapping in effect is the item's highest version; when that version is
 * revoked the item has no mapping (and an issue says so) rather than falling
 * back to an older version the merchant superseded (docs/decisions.md).
 */
export function chooseMapping(
  mappings: readonly ItemMapping[],
  itemId: string,
): { latest: ItemMapping | null; applied: ItemMapping | null; revoked: boolean } {
  let latest: ItemMapping | null = null;
  for (const mapping of mappings) {
    if (mapping.sourceItemId === itemId && (latest === null || mapping.version > latest.version)) latest = mapping;
  }
  if (latest === null) return { latest, applied: null, revoked: false };
  return latest.revoked ? { latest, applied: null, revoked: true } : { latest, applied: latest, revoked: false };
}

/** The exact decimal text of the quantity (same exactness rule as money); sign and size are the core's checks. */
function quantityOf(value: unknown, path: string, issues: CategorizedIssue[]): string | null {
  const quantity = exactDecimalText(value);
  if (quantity === null) issues.push(categorize(issue('invalid_quantity', path, 'The source quantity is absent or not an exact decimal.')));
  return quantity;
}

export function money(value: unknown, context: LineContext, path: string, issues: CategorizedIssue[]): number | null {
  if (context.exponent === null) return null;
  const result = toMinorUnits(value, context.exponent);
  if (result.ok) return result.minor;
  issues.push(invoiceIssue('amount_not_exact', path, result.reason));
  return null;
}

function sumAmounts(
  amounts: readonly { amount: unknown }[],
  context: LineContext,
  path: string,
  issues: CategorizedIssue[],
): number | null {
  let total: number | null = context.exponent === null ? null : 0;
  for (const { amount } of amounts) {
    const minor = money(amount, context, path, issues);
    total = total === null || minor === null ? null : total + minor;
  }
  return total;
}
