import type { FactGroup } from './evidence-summary.js';
import type { EvidenceChain, EvidenceFilter } from './types.js';

/** What the evidence reads need from storage; server/persistence/stores/evidence-store.ts implements it. */
export interface EvidenceStore {
  /** One page of chains in (createdAt, id) order after `after`, at most `limit`. */
  chains(filter: EvidenceFilter, page: { after?: { createdAt: Date; id: string } | undefined; limit: number }): Promise<EvidenceChain[]>;
  /** The summary's groups per integration, UTC month, currency and fact key. */
  groups(filter: EvidenceFilter): Promise<FactGroup[]>;
  /** Whether the organization and integration a filter names exist (and belong together, when both are named). */
  filterTargetsExist(filter: { organizationId?: string | undefined; integrationId?: string | undefined }): Promise<boolean>;
}
