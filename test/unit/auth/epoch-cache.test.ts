import { describe, expect, it } from 'vitest';
import { epochCache, newerEpoch } from '../../../server/domain/epoch-cache.js';

describe('values cached per auth epoch (key records, delivery endpoints)', () => {
  it('when a value was read at an epoch, then it is used at that epoch only', () => {
    const cache = epochCache<string>(10);
    expect(cache.see('5')).toBe(true);
    cache.set('a', '5', 'read at 5');
    expect(cache.at('a', '5')).toBe('read at 5');
    expect(cache.at('a', '6')).toBeUndefined();
    expect(cache.see('5')).toBe(false);
  });

  it('when a newer epoch is seen, then everything read before is dropped, also for a later return to the old one', () => {
    let dropped = 0;
    const cache = epochCache<string>(10, () => dropped++);
    cache.see('5');
    cache.set('a', '5', 'read at 5');
    expect(cache.see('6')).toBe(true);
    expect(cache.epoch).toBe('6');
    expect(cache.at('a', '5')).toBeUndefined();
    expect(dropped).toBe(2);
  });

  it('when an older epoch is read (a lagging read), then nothing is dropped and it is only noted', () => {
    const cache = epochCache<string>(10);
    cache.see('10');
    cache.set('a', '10', 'read at 10');
    expect(cache.see('9')).toBe(true);
    expect(cache.epoch).toBe('9');
    expect(cache.at('a', '10')).toBe('read at 10');
  });

  it('when the bound is reached, then the cache starts over', () => {
    const cache = epochCache<number>(2);
    cache.see('1');
    cache.set('a', '1', 1);
    cache.set('b', '1', 2);
    cache.set('c', '1', 3);
    expect([cache.at('a', '1'), cache.at('b', '1'), cache.at('c', '1')]).toEqual([undefined, undefined, 3]);
  });

  it('compares epochs as numbers, not as text', () => {
    expect(newerEpoch('10', '9')).toBe(true);
    expect(newerEpoch('9', '10')).toBe(false);
    expect(newerEpoch('1', undefined)).toBe(true);
  });
});
