import type { Issue } from '../../../contract/common/index.js';

/**
 * What every provider's enrichment returns. A refusal is an expected outcome
 * (422 with every issue found), not an exception.
 */
export type EnrichmentResult<Data> = { ok: true; data: Data } | { ok: false; issues: Issue[] };
