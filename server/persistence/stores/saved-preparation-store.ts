import type { SavedPreparationStore } from '../../domain/preparations/ports.js';
import type { Database } from '../kysely.js';
import { listPreparations, preparationById } from '../sql/preparations.sql.js';

/** The saved-preparation reads on one database handle (the hot path's port, context and insert, is server/persistence/preparation-store.ts). */
export function savedPreparationStore(db: Database): SavedPreparationStore {
  return {
    preparationById: (id, scope) => preparationById(db, id, scope),
    listPreparations: (o) => listPreparations(db, o),
  };
}
