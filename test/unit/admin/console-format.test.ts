import { describe, expect, it } from 'vitest';
import { formatMinor, localTime } from '../../../admin/console/ui/format.js';

describe('console formatting', () => {
  it('formats integer minor units with the currency exponent, exactly, beyond float precision', () => {
    expect(formatMinor(7560, 'usd', 'en-US')).toBe('$75.60');
    expect(formatMinor('5', 'usd', 'en-US')).toBe('$0.05');
    expect(formatMinor(-1999, 'eur', 'de-DE')).toBe('-19,99\u00a0€');
    expect(formatMinor(1234, 'jpy', 'en-US')).toBe('¥1,234');
    expect(formatMinor(1234, 'kwd', 'en-US')).toBe('KWD\u00a01.234');
    // 2^53 + 1 cents: a float would print ...409.92.
    expect(formatMinor('9007199254740993', 'usd', 'en-US')).toBe('$90,071,992,547,409.93');
    expect(formatMinor(9007199254740993n, 'usd', 'en-US')).toBe('$90,071,992,547,409.93');
  });

  it('shows the exact UTC instant for the title', () => {
    expect(localTime('2026-11-23T13:48:04.123Z').utc).toBe('2026-11-23 13:48:04 UTC');
  });
});
