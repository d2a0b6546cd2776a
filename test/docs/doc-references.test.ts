import { describe, expect, it } from 'vitest';
import { missingReferences, referenceChecker, type DocReference, type ReferenceKind } from './doc-references.js';

const shown = (refs: DocReference[]) => refs.map((r) => `${r.doc}:${r.line} ${r.name}`);

describe('names in the docs (README.md, docs/*.md, sdk/README.md, examples/README.md)', () => {
  const missing = missingReferences();
  const missingOf = (kind: ReferenceKind) => shown(missing.filter((r) => r.kind === kind));

  it('when a doc names a file or folder, then it is in the tree (or a file the code writes, or one .gitignore names)', () => {
    expect(missingOf('path')).toEqual([]);
  });

  it('when a doc names an npm script (`npm run …`, `npm start`, `npm test`), then package.json has it', () => {
    expect(missingOf('script')).toEqual([]);
  });

  it('when a doc names an environment setting (SVC_*, `NAME=value`, `DATABASE_URL`), then the code reads it', () => {
    expect(missingOf('setting')).toEqual([]);
  });

  it('when a doc names a function or symbol (`readinessOf(…)`, `listInvoices`, `SvcError`), then the code has it', () => {
    expect(missingOf('symbol')).toEqual([]);
  });
});

describe('the docs check itself', () => {
  const missing = referenceChecker();

  it('when a doc names a removed file, script, setting or function, then each is reported with its line', () => {
    const doc = [
      'The handler is in `server/http/routes/nowhere.ts` and server/domain/gone/rules.ts.',
      'Run `npm run bench:nothing` and `npm start` with `SVC_NO_SUCH_SETTING=1` or `NO_SUCH_URL`.',
      'Preparation calls `readinessOfRow(row)` and `missingHelper`; see [the notes](../docs/nowhere.md).',
    ].join('\n');
    expect(missing('docs/example.md', doc).map((r) => `${r.line} ${r.kind} ${r.name}`)).toEqual([
      '1 path server/http/routes/nowhere.ts',
      '1 path server/domain/gone/rules.ts',
      '2 script bench:nothing',
      '2 setting SVC_NO_SUCH_SETTING',
      '2 setting NO_SUCH_URL',
      '3 path docs/nowhere.md',
      '3 symbol readinessOfRow',
      '3 symbol missingHelper',
    ]);
  });

  it('when a doc names what exists (globs and placeholders, scripts, settings, symbols, wire fields), then nothing is reported', () => {
    const doc = [
      'Handlers: `server/http/routes/*.ts`, rules in `server/domain/<area>/`; see [errors](errors.md) and `openapi.json`.',
      'Run `npm run bench:*`, `npm test`, `npm run sdk:readme`; set `SVC_RATE_LIMIT_*`, `SVC_ADMIN_TOKEN` and `DATABASE_URL`.',
      'Readiness is `readinessOf(...)`; the SDK throws `SvcError`; a request names `amountMinor`. `GET /metrics` and `data` are not symbols.',
      'The sandbox keeps `ledger-sandbox.json`; `npm run sdk:pack` writes `sdk/svc-sdk-<version>.tgz`.',
    ].join('\n');
    expect(missing('docs/example.md', doc)).toEqual([]);
  });
});
