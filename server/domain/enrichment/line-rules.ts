import type { Issue } from '../../../contract/common/index.js';
import { formatDecimal, type Decimal } from './decimal.js';
import { issue, type IssueCode } from './issue-codes.js';
import { codePointLength, isPrintableAscii, presentText } from './text.js';

/** Provider rules for one line identifier (product code, commodity code, unit of measure). */
export interface IdentifierRule {
  readonly maxLength: number;
  readonly printableAscii: boolean;
  /** Issue when absent; `undefined` makes the identifier optional. */
  readonly missingCode?: IssueCode;
}

/**
 * Identifiers are rejected, never truncated or defaulted (spec: "never invents a
 * ... product code, unit of measure"; Visa CEDP downgrades filler data).
 * Returns the value to send (`null` when absent) and any issues.
 */
export function checkIdentifier(raw: string | null, path: string, rule: IdentifierRule): { value: string | null; issues: Issue[] } {
  const value = presentText(raw);
  if (value === null) return { value, issues: rule.missingCode ? [issue(rule.missingCode, path)] : [] };
  const issues: Issue[] = [];
  const length = codePointLength(value);
  if (length > rule.maxLength) {
    issues.push(issue('identifier_too_long', path, `It has ${length} characters; the limit is ${rule.maxLength}.`));
  }
  if (rule.printableAscii && !isPrintableAscii(value)) issues.push(issue('identifier_invalid', path));
  return { value, issues };
}

export function checkLineCount(count: number, max: number): Issue[] {
  return count > max ? [issue('too_many_line_items', 'invoice.lineItems', `It has ${count}; the limit is ${max}.`)] : [];
}

export function checkNameLength(name: string, max: number, path: string): Issue[] {
  const length = codePointLength(name);
  return length > max ? [issue('product_name_too_long', path, `It has ${length} characters; the limit is ${max}.`)] : [];
}

/** Limits of a whole-number quantity: gwb counts characters, gwc needs a safe integer. */
export interface WholeQuantityLimit {
  readonly maxDigits?: number;
  readonly maxValue?: bigint;
}

/**
 * gwb and gwc take whole item counts only. The text must be a plain integer
 * (no fraction part at all: the spec asks for a "positive safe-integer string").
 */
export function checkWholeQuantity(
  raw: string,
  quantity: Decimal | null,
  path: string,
  limit: WholeQuantityLimit,
): { value: bigint | null; issues: Issue[] } {
  if (quantity === null) return { value: null, issues: [] }; // non-positive: reported by the canonical checks
  if (!/^[1-9][0-9]*$/.test(raw)) return refuseQuantity(path, 'The quantity must be a whole number written without a fraction.');
  if (limit.maxDigits !== undefined && raw.length > limit.maxDigits) {
    return refuseQuantity(path, `The quantity has more than ${limit.maxDigits} digits.`);
  }
  if (limit.maxValue !== undefined && quantity.units > limit.maxValue) {
    return refuseQuantity(path, `The quantity exceeds ${limit.maxValue}.`);
  }
  return { value: quantity.units, issues: [] };
}

// Module level, not a closure per call: this runs for every line of every invoice.
function refuseQuantity(path: string, detail: string): { value: null; issues: Issue[] } {
  return { value: null, issues: [issue('invalid_quantity', path, detail)] };
}

/** A positive decimal needing at most `maxFractionDigits` digits; returned in canonical form (`"2.50"` → `"2.5"`). */
export function checkFractionDigits(
  quantity: Decimal | null,
  path: string,
  maxFractionDigits: number,
): { value: string | null; issues: Issue[] } {
  if (quantity === null) return { value: null, issues: [] };
  if (quantity.scale > maxFractionDigits) {
    const detail = `The quantity needs ${quantity.scale} fraction digits; the limit is ${maxFractionDigits}.`;
    return { value: null, issues: [issue('invalid_quantity', path, detail)] };
  }
  return { value: formatDecimal(quantity), issues: [] };
}
