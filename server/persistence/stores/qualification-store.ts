import type { QualificationStore } from '../../domain/qualification/ports.js';
import type { Database } from '../kysely.js';
import { qualificationFixGroups, qualificationLevelGroups } from '../sql/qualification.sql.js';

export function qualificationStore(db: Database): QualificationStore {
  return {
    levelGroups: (filter) => qualificationLevelGroups(db, filter),
    fixGroups: (filter) => qualificationFixGroups(db, filter),
  };
}
