import { containsCardNumber } from './card-numbers.js';

/**
 * What an imported text field holding a card number is stored as, whole
 * (docs/decisions.md, "Card numbers in the accounting source"). No digits, so it
 * can never itself look like part of a card number.
 */
export const CARD_NUMBER_REDACTED = '[card number removed]';

function pathOf(parent: string, key: string | number): string {
  return typeof key === 'number' ? `${parent}[${key}]` : parent === '' ? key : `${parent}.${key}`;
}

/**
 * A copy of a parsed JSON record in which every string holding a card number
 * (by the request guard's detector) is replaced whole by CARD_NUMBER_REDACTED,
 * and every property name holding one is renamed to it (numbered when one
 * object has several). The whole field goes, not just the digits: the detector
 * says a number is there, not where a glued CVV or expiry around it ends.
 * `paths` names the redacted fields under `root`, in document order; `value` is
 * the input itself when nothing was redacted. Pure.
 */
export function redactCardNumbers(value: unknown, root = ''): { value: unknown; paths: string[] } {
  const paths: string[] = [];
  const visit = (v: unknown, path: string): unknown => {
    if (typeof v === 'string') {
      if (!containsCardNumber(v)) return v;
      paths.push(path);
      return CARD_NUMBER_REDACTED;
    }
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      let copy: unknown[] | undefined;
      v.forEach((element, i) => {
        const redacted = visit(element, pathOf(path, i));
        if (redacted !== element) (copy ??= [...v])[i] = redacted;
      });
      return copy ?? v;
    }
    let changed = false;
    let renamed = 0;
    const entries = Object.entries(v as Record<string, unknown>).map(([key, element]) => {
      let name = key;
      if (containsCardNumber(key)) {
        // Numbered after the first, so that no two redacted names of one object collide.
        name = renamed++ === 0 ? CARD_NUMBER_REDACTED : `${CARD_NUMBER_REDACTED} ${'#'.repeat(renamed)}`;
        paths.push(pathOf(path, name));
      }
      const redacted = visit(element, pathOf(path, name));
      if (name !== key || redacted !== element) changed = true;
      return [name, redacted] as const;
    });
    return changed ? Object.fromEntries(entries) : v;
  };
  const redacted = visit(value, root);
  return { value: redacted, paths };
}

/**
 * Where a stored record holds the marker (a value equal to it, or a property
 * name starting with it), in document order, under `root`: the fields the import
 * redacted, found again by the mapper from what is stored.
 */
export function redactedPaths(value: unknown, root: string): string[] {
  const paths: string[] = [];
  const visit = (v: unknown, path: string) => {
    if (v === CARD_NUMBER_REDACTED) paths.push(path);
    if (v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      v.forEach((element, i) => visit(element, pathOf(path, i)));
      return;
    }
    for (const [key, element] of Object.entries(v as Record<string, unknown>)) {
      if (key.startsWith(CARD_NUMBER_REDACTED)) paths.push(pathOf(path, key));
      visit(element, pathOf(path, key));
    }
  };
  visit(value, root);
  return paths;
}
