import { describe, expect, it } from 'vitest';
import { findPercentage, taxOn, type TaxConstraint } from '../../../server/domain/enrichment/gwb/percentage.js';

const summed = (bases: bigint[], target: bigint): TaxConstraint => ({
  taxAt: (units, scale) =>
    taxOn(
      bases.reduce((a, b) => a + b, 0n),
      units,
      scale,
    ),
  target,
});
const perLine = (bases: bigint[], target: bigint): TaxConstraint => ({
  taxAt: (units, scale) => bases.reduce((total, base) => total + taxOn(base, units, scale), 0n),
  target,
});

describe('gwb tax percentage search', () => {
  it.each([
    ['9 % of 110.00 is 9.90', [summed([11000n], 990n)], '9'],
    ['3.99 on 45.00 needs two fraction digits', [summed([4500n], 399n)], '8.86'],
    ['0.50 on 9.99 rounds back from 5 %', [summed([999n], 50n)], '5'],
    ['2.29 on 18.80 + 6.95 under both roundings', [summed([1880n, 695n], 229n), perLine([1880n, 695n], 229n)], '8.9'],
  ])('when %s, then the percentage is the shortest one in the middle of the admissible range', (_, constraints, expected) => {
    expect(findPercentage(constraints)).toBe(expected);
  });

  it('when the found percentage is applied, then gwb computes exactly the target', () => {
    const percentage = findPercentage([summed([4500n], 399n)]);
    expect(percentage).toBe('8.86');
    expect(taxOn(4500n, 886n, 2)).toBe(399n);
  });

  it.each([
    ['the base is zero', [summed([0n], 5n)]],
    ['two equal lines rounded separately must add up to an odd amount', [summed([100n, 100n], 1n), perLine([100n, 100n], 1n)]],
    ['the rate needs more digits than the 10 characters allow', [summed([1_000_000_000_000n], 1n)]],
  ])('when %s, then no percentage is found', (_, constraints) => {
    expect(findPercentage(constraints)).toBeNull();
  });

  it("when gwb's forum example is recomputed, then one rounding on the order total gives 3.27 where per-line rounding gives 3.28", () => {
    const bases = [1500n, 800n, 695n, 695n];
    expect(taxOn(3690n, 8875n, 3)).toBe(327n);
    expect(bases.reduce((total, base) => total + taxOn(base, 8875n, 3), 0n)).toBe(328n);
    expect(findPercentage([summed(bases, 327n)])).toBe('8.86');
  });

  it('when the exact tax is a half, then it rounds to the even neighbour', () => {
    expect(taxOn(50n, 1n, 0)).toBe(0n); // 0.5 → 0
    expect(taxOn(150n, 1n, 0)).toBe(2n); // 1.5 → 2
    expect(taxOn(250n, 1n, 0)).toBe(2n); // 2.5 → 2
    expect(taxOn(585n, 1n, 0)).toBe(6n); // 5.85 is no half: nearest
  });
});
