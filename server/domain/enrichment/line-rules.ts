import type { Issue } from '../../../contract/common/index.js';
import { linePath, type OrderedLine } from './canonical-checks.js';
import { formatDecimal } from './decimal.js';
import { issue, type IssueCode } from './issue-codes.js';
import { codePointsOver, isPrintableAscii, presentText } from './text.js';

/*
 * Checks of one line's fields. Each adds what it finds to `issues` and returns the
 * value to send (`null` when there is none). The issue path is built from the
 * line's index only for an issue actually raised: most lines raise none.
 */

/** Provider rules for one line identifier (product code, commodity code, unit of measure). */
export interface IdentifierRule {
  readonly field: 'productCode' | 'commodityCode' | 'unitOfMeasure';
  readonly maxLength: number;
  readonly printableAscii: boolean;
  /** Issue when absent; `undefined` makes the identifier optional. */
  readonly missingCode?: IssueCode;
}

/**
 * Identifiers are rejected, never truncated or defaulted (spec: "never invents a
 * ... product code, unit of measure"; Visa CEDP downgrades filler data).
 */
export function checkIdentifier({ line, index }: OrderedLine, rule: IdentifierRule, issues: Issue[]): string | null {
  const value = presentText(line[rule.field]);
  if (value === null) {
    if (rule.missingCode) issues.push(issue(rule.missingCode, linePath(index, rule.field)));
    return value;
  }
  const length = codePointsOver(value, rule.maxLength);
  if (length !== null) {
    const detail = `It has ${length} characters; the limit is ${rule.maxLength}.`;
    issues.push(issue('identifier_too_long', linePath(index, rule.field), detail));
  }
  if (rule.printableAscii && !isPrintableAscii(value)) issues.push(issue('identifier_invalid', linePath(index, rule.field)));
  return value;
}

export function checkLineCount(count: number, max: number): Issue[] {
  return count > max ? [issue('too_many_line_items', 'invoice.lineItems', `It has ${count}; the limit is ${max}.`)] : [];
}

export function checkNameLength({ line, index }: OrderedLine, max: number, issues: Issue[]): void {
  const length = codePointsOver(line.productName, max);
  if (length !== null) {
    issues.push(issue('product_name_too_long', linePath(index, 'productName'), `It has ${length} characters; the limit is ${max}.`));
  }
}

/** Limits of a whole-number quantity: gwb counts characters, gwc needs a safe integer. */
export interface WholeQuantityLimit {
  readonly maxDigits?: number;
  readonly maxValue?: bigint;
}

const WHOLE_NUMBER = /^[1-9][0-9]*$/;

/**
 * gwb and gwc take whole item counts only. The text must be a plain integer
 * (no fraction part at all: the spec asks for a "positive safe-integer string").
 */
export function checkWholeQuantity({ line, index, quantity }: OrderedLine, limit: WholeQuantityLimit, issues: Issue[]): bigint | null {
  if (quantity === null) return null; // non-positive: reported by the canonical checks
  const raw = line.quantity;
  let refusal: string | undefined;
  if (!WHOLE_NUMBER.test(raw)) refusal = 'The quantity must be a whole number written without a fraction.';
  else if (limit.maxDigits !== undefined && raw.length > limit.maxDigits) refusal = `The quantity has more than ${limit.maxDigits} digits.`;
  else if (limit.maxValue !== undefined && quantity.units > limit.maxValue) refusal = `The quantity exceeds ${limit.maxValue}.`;
  if (refusal === undefined) return quantity.units;
  issues.push(issue('invalid_quantity', linePath(index, 'quantity'), refusal));
  return null;
}

/** A positive decimal needing at most `maxFractionDigits` digits; returned in canonical form (`"2.50"` → `"2.5"`). */
export function checkFractionDigits({ index, quantity }: OrderedLine, maxFractionDigits: number, issues: Issue[]): string | null {
  if (quantity === null) return null;
  if (quantity.scale > maxFractionDigits) {
    const detail = `The quantity needs ${quantity.scale} fraction digits; the limit is ${maxFractionDigits}.`;
    issues.push(issue('invalid_quantity', linePath(index, 'quantity'), detail));
    return null;
  }
  return formatDecimal(quantity);
}
