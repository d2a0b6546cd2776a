import type { EvidenceStore } from '../domain/evidence/ports.js';
import { evidenceChains, evidenceFilterTargetsExist, evidenceGroups } from './sql/evidence.sql.js';
import type { Sql } from './sql/sql.js';

/** The domain's `EvidenceStore` on the evidence statements. */
export function evidenceStore(sql: Sql): EvidenceStore {
  return {
    chains: (filter, page) => evidenceChains(sql, filter, page),
    groups: (filter) => evidenceGroups(sql, filter),
    filterTargetsExist: (filter) => evidenceFilterTargetsExist(sql, filter),
  };
}
