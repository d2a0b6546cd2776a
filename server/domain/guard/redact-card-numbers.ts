import { containsCardNumber } from './card-numbers.js';

/**
 * What an imported text field holding a card number is stored as, whole
 * (docs/decisions.md, "Card numbers in the accounting source"). No digits, so it
 * can never itself look like part of a card number.
 */
export const CARD_NUMBER_REDACTED = '[card number removed]';

/** An own property even for `__proto__` (a name JSON.parse makes an ordinary key), as JSON.parse and Object.fromEntries define it. */
function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

function pathOf(parent: string, key: string | number): string {
  return typeof key === 'number' ? `${parent}[${key}]` : parent === '' ? key : `${parent}.${key}`;
}

/**
 * A copy of a parsed JSON record in which every string holding a card number
 * (by the request guard's detector) is replaced whole by CARD_NUMBER_REDACTED,
 * and every property name holding one is renamed to it (numbered when one
 * object has several). The whole field goes, not just the digits: the detector
 * says a number is there, not where a glued CVV or expiry around it ends.
 * Strings `isIdentifier` names (by their property name and the name of the
 * object holding them) are kept: identifiers the source assigns, which link
 * records and are stored in their own columns as well.
 * `paths` names the redacted fields under `root`, in document order; `value` is
 * the input itself when nothing was redacted. Pure.
 */
export function redactCardNumbers(
  value: unknown,
  o: { root?: string; isIdentifier?: (key: string, parent: string | number | undefined) => boolean } = {},
): { value: unknown; paths: string[] } {
  const root = o.root ?? '';
  const paths: string[] = [];
  // Every record of every import passes here: the keys leading to the current value are kept on one stack and a path
  // is built only for a redacted field, and a container is copied only once something in it changed.
  const trail: (string | number)[] = [];
  const report = () => paths.push(trail.reduce<string>((path, key) => pathOf(path, key), root));
  const visit = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (!containsCardNumber(v)) return v;
      report();
      return CARD_NUMBER_REDACTED;
    }
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        trail.push(i);
        const redacted = visit(v[i]);
        trail.pop();
        if (redacted !== v[i]) (copy ??= [...v])[i] = redacted;
      }
      return copy ?? v;
    }
    const object = v as Record<string, unknown>;
    const keys = Object.keys(object);
    let copy: Record<string, unknown> | undefined;
    let renamed = 0;
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k]!;
      let name = key;
      if (containsCardNumber(key)) {
        // Numbered after the first, so that no two redacted names of one object collide.
        name = renamed++ === 0 ? CARD_NUMBER_REDACTED : `${CARD_NUMBER_REDACTED} ${'#'.repeat(renamed)}`;
      }
      const parent = trail[trail.length - 1];
      trail.push(name);
      if (name !== key) report();
      const element = object[key];
      const redacted = typeof element === 'string' && o.isIdentifier?.(key, parent) ? element : visit(element);
      trail.pop();
      if (copy === undefined && (name !== key || redacted !== object[key])) {
        copy = {};
        for (let earlier = 0; earlier < k; earlier++) define(copy, keys[earlier]!, object[keys[earlier]!]);
      }
      if (copy !== undefined) define(copy, name, redacted);
    }
    return copy ?? v;
  };
  const redacted = visit(value);
  return { value: redacted, paths };
}

/**
 * Where a stored record holds the marker (a value equal to it, or a property
 * name starting with it), in document order, under `root`: the fields the import
 * redacted, found again by the mapper from what is stored.
 */
export function redactedPaths(value: unknown, root: string): string[] {
  const paths: string[] = [];
  const trail: (string | number)[] = [];
  const report = () => paths.push(trail.reduce<string>((path, key) => pathOf(path, key), root));
  const visit = (v: unknown) => {
    if (v === CARD_NUMBER_REDACTED) report();
    if (v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        trail.push(i);
        visit(v[i]);
        trail.pop();
      }
      return;
    }
    for (const key of Object.keys(v)) {
      trail.push(key);
      if (key.startsWith(CARD_NUMBER_REDACTED)) report();
      visit((v as Record<string, unknown>)[key]);
      trail.pop();
    }
  };
  visit(value);
  return paths;
}
