import type { Provider } from '../enrichment/index.js';
import { ESSENTIAL_LINE_FIELDS, ESSENTIAL_TRANSACTION_FIELDS } from './carriage.js';
import type { Product3Field, QualificationLevel } from './fields.js';

/**
 * The level an output reaches with these applicable fields missing (docs/network-qualification.md, "The level"):
 * `none` when one of them is a field the output cannot go without, `partial` when any other is missing,
 * `product_3` otherwise. The one place of the rule: the level computed when an invoice is mapped and the level a
 * source fix would bring (`qualification.fixes`) both come from here.
 */
export function levelOfMissing(provider: Provider, missing: readonly { readonly field: Product3Field }[]): QualificationLevel {
  const essential: readonly Product3Field[] = ESSENTIAL_TRANSACTION_FIELDS[provider];
  if (missing.some((m) => essential.includes(m.field) || (ESSENTIAL_LINE_FIELDS as readonly Product3Field[]).includes(m.field)))
    return 'none';
  return missing.length > 0 ? 'partial' : 'product_3';
}

const RANK: Readonly<Record<QualificationLevel, number>> = { none: 0, partial: 1, product_3: 2 };

/** Whether `to` is a higher level than `from`. */
export const raises = (from: QualificationLevel, to: QualificationLevel): boolean => RANK[to] > RANK[from];
