import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { formatPath, issuesFromZodError } from '../../../server/domain/zod-issues.js';

describe('zod issues to envelope issues', () => {
  it('when a path has indexes, then they are written in brackets', () => {
    expect(formatPath(['invoice', 'lineItems', 3, 'quantity'])).toBe('invoice.lineItems[3].quantity');
    expect(formatPath([])).toBe('');
    expect(formatPath([0, 'a'])).toBe('[0].a');
  });

  it('when several problems exist, then each gets its own issue', () => {
    const schema = z.object({ a: z.string(), b: z.array(z.object({ q: z.number() }).strict()) }).strict();
    const result = schema.safeParse({ b: [{ q: 'x', r: 1, s: 2 }], c: 1 });
    expect(result.success).toBe(false);
    expect(issuesFromZodError(result.error!)).toEqual([
      { code: 'required', path: 'a', message: 'Required' },
      { code: 'invalid_type', path: 'b[0].q', message: 'Expected number, received string' },
      { code: 'unknown_property', path: 'b[0].r', message: 'Unknown property "r"' },
      { code: 'unknown_property', path: 'b[0].s', message: 'Unknown property "s"' },
      { code: 'unknown_property', path: 'c', message: 'Unknown property "c"' },
    ]);
  });
});
