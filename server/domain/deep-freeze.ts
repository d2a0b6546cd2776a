/**
 * Freeze a value and everything it holds: a value shared between requests
 * (cached snapshots, results computed from them) then fails loudly where code
 * would change it, instead of changing it for the next request.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
