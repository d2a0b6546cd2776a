import type { QualificationStore } from '../../domain/qualification/ports.js';
import type { Database } from '../kysely.js';
import { qualificationFixInputs, qualificationLevelGroups } from '../sql/qualification.sql.js';

export function qualificationStore(db: Database): QualificationStore {
  return {
    levelGroups: (filter) => qualificationLevelGroups(db, filter),
    fixInputs: (filter) => qualificationFixInputs(db, filter),
  };
}
