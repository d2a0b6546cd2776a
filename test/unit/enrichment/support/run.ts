import { expect } from 'vitest';
import type { Issue } from '../../../../contract/common/index.js';
import type {
  GwaTransactionEnrichmentRequest,
  GwbOrderEnrichmentRequest,
  GwcPaymentIntentEnrichmentRequest,
} from '../../../../contract/enrichment.js';
import { enrichGwa, enrichGwb, enrichGwc, type EnrichmentResult } from '../../../../server/domain/enrichment/index.js';
import { expectGwaConforms, expectGwbConforms, expectGwcConforms } from './conformance.js';

/** Every successful output of every test is checked against the provider's published schema. */
export function runGwa(request: GwaTransactionEnrichmentRequest) {
  const result = enrichGwa(request);
  if (result.ok) expectGwaConforms(result.data);
  return result;
}

export function runGwb(request: GwbOrderEnrichmentRequest) {
  const result = enrichGwb(request);
  if (result.ok) expectGwbConforms(result.data);
  return result;
}

export function runGwc(request: GwcPaymentIntentEnrichmentRequest) {
  const result = enrichGwc(request);
  if (result.ok) expectGwcConforms(result.data);
  return result;
}

export interface CodeAndPath {
  code: string;
  path: string;
}

/** The issues as `{code, path}`, sorted, for exact comparison; every issue must carry a message. */
export function issuesOf<Data>(result: EnrichmentResult<Data>): CodeAndPath[] {
  if (result.ok) return [];
  return sortIssues(result.issues);
}

export function sortIssues(issues: readonly (Issue | CodeAndPath)[]): CodeAndPath[] {
  for (const found of issues) if ('message' in found) expect(found.message).not.toBe('');
  return issues.map(({ code, path }) => ({ code, path })).sort((a, b) => a.path.localeCompare(b.path) || a.code.localeCompare(b.code));
}

export function dataOf<Data>(result: EnrichmentResult<Data>): Data {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.issues)}`);
  return result.data;
}
