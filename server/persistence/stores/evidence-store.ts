import type { EvidenceStore } from '../../domain/evidence/ports.js';
import type { Database } from '../kysely.js';
import { evidenceChains, evidenceFilterTargetsExist, evidenceGroups } from '../sql/evidence.sql.js';

/** The domain's `EvidenceStore` on the evidence statements, on one database handle. */
export function evidenceStore(db: Database): EvidenceStore {
  return {
    chains: (filter, page) => evidenceChains(db, filter, page),
    groups: (filter) => evidenceGroups(db, filter),
    filterTargetsExist: (filter) => evidenceFilterTargetsExist(db, filter),
  };
}
