import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENRICHMENT_CODE_CATEGORIES, INVOICE_ISSUE_CODES } from '../../../server/domain/invoices/index.js';
import { ISSUE_CODES } from '../../../server/domain/enrichment/index.js';

const document = readFileSync(new URL('../../../docs/issue-codes.md', import.meta.url), 'utf8');
const split = document.indexOf('## Stored invoice codes');
const rows = (markdown: string) =>
  [...markdown.matchAll(/^\| `([a-z_]+)` \| .+ \| ([a-z]+) \| ([^|]+) \|$/gm)].map(([, code, category, providers]) => [
    code,
    category,
    providers?.trim(),
  ]);

describe('stored invoice issue codes', () => {
  it('when docs/issue-codes.md is read, then the stored-invoice table lists every code with its category and providers', () => {
    const expected = Object.entries(INVOICE_ISSUE_CODES).map(([code, entry]) => [code, entry.category, entry.providers.join(', ')]);
    expect(rows(document.slice(split))).toStrictEqual(expected);
  });

  it('when docs/issue-codes.md is read, then every enrichment code shows the category stored invoices give it', () => {
    const expected = Object.entries(ISSUE_CODES).map(([code, entry]) => [
      code,
      ENRICHMENT_CODE_CATEGORIES[code as keyof typeof ENRICHMENT_CODE_CATEGORIES],
      entry.producedBy.length > 0 ? entry.producedBy.join(', ') : '—',
    ]);
    expect(rows(document.slice(0, split))).toStrictEqual(expected);
  });

  it('when a code is both an enrichment and a stored-invoice code, then that is a mistake', () => {
    expect(Object.keys(INVOICE_ISSUE_CODES).filter((code) => code in ISSUE_CODES)).toStrictEqual([]);
  });
});
