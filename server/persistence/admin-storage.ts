import type { MikroORM } from '@mikro-orm/postgresql';
import type { EvidenceStore } from '../domain/evidence/ports.js';
import { evidenceStore } from './evidence-store.js';
import { isUniqueViolation, poolSql } from './sql/sql.js';

/**
 * The storage operator procedures reach through domain ports. Evidence reads are single statements outside any
 * transaction, on the pool (a download streams for as long as it takes without holding an entity manager).
 */
export function adminStorage(orm: MikroORM): { evidence(): EvidenceStore; isUniqueViolation(err: unknown): boolean } {
  return { evidence: () => evidenceStore(poolSql(orm)), isUniqueViolation };
}
