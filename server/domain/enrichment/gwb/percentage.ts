import { roundHalfEven } from '../decimal.js';
import { GWB_MAX_PERCENTAGE_LENGTH } from './limits.js';

/**
 * gwb takes taxes as percentages only and computes the amount itself, rounding
 * half to even (docs/provider-facts.md §2.1-2.2). To carry an exact invoice tax we search
 * for a percentage that makes gwb compute exactly that amount.
 *
 * A constraint gives one way gwb may compute the tax at `units / 10^scale`
 * percent (for example with either rounding of an apportioned discount) and the
 * amount it must produce; a percentage is accepted only if every constraint
 * produces its target. Each `taxAt` must be non-decreasing in `units`, so the
 * admissible units form one range.
 */
export interface TaxConstraint {
  readonly taxAt: (units: bigint, scale: number) => bigint;
  readonly target: bigint;
}

/** gwb's tax in minor units on `base` at `units / 10^scale` percent. */
export function taxOn(base: bigint, units: bigint, scale: number): bigint {
  return roundHalfEven(base * units, 100n * 10n ** BigInt(scale));
}

/**
 * The percentage string with the fewest fraction digits that satisfies every
 * constraint, taken from the middle of the admissible range (furthest from a
 * rounding edge), or `null` when none fits in gwb's 10 characters.
 */
export function findPercentage(constraints: readonly TaxConstraint[]): string | null {
  for (let scale = 0; scale <= GWB_MAX_PERCENTAGE_LENGTH - 2; scale++) {
    // "dddddddddd" or "d.ddddddd": at most 10 digits without a point, 9 with one.
    const maxUnits = 10n ** BigInt(scale === 0 ? GWB_MAX_PERCENTAGE_LENGTH : GWB_MAX_PERCENTAGE_LENGTH - 1) - 1n;
    let low = 0n;
    let high = maxUnits;
    for (const constraint of constraints) {
      const range = admissibleUnits(constraint, scale, maxUnits);
      if (range === null) {
        high = -1n;
        break;
      }
      low = range[0] > low ? range[0] : low;
      high = range[1] < high ? range[1] : high;
    }
    if (low <= high) return formatPercentage((low + high) / 2n, scale);
  }
  return null;
}

/** The tax is non-decreasing in the percentage, so the units meeting a target form one range. */
function admissibleUnits(constraint: TaxConstraint, scale: number, maxUnits: bigint): [bigint, bigint] | null {
  const taxFor = (units: bigint) => constraint.taxAt(units, scale);
  const first = firstReaching(taxFor, constraint.target, maxUnits);
  if (first === null || taxFor(first) !== constraint.target) return null;
  const beyond = firstReaching(taxFor, constraint.target + 1n, maxUnits);
  return [first, beyond === null ? maxUnits : beyond - 1n];
}

/** Smallest units in [0, maxUnits] whose tax reaches `target`, by binary search; `null` if none. */
function firstReaching(taxFor: (units: bigint) => bigint, target: bigint, maxUnits: bigint): bigint | null {
  if (taxFor(maxUnits) < target) return null;
  let low = 0n;
  let high = maxUnits;
  while (low < high) {
    const middle = (low + high) / 2n;
    if (taxFor(middle) >= target) high = middle;
    else low = middle + 1n;
  }
  return low;
}

function formatPercentage(units: bigint, scale: number): string {
  const digits = units.toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}
