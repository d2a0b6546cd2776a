import type { AuthStore } from '../../domain/auth/ports.js';
import type { Database } from '../kysely.js';
import { activeKeyPrefixes, findKeyRecord, keyRecordById, touchKey } from '../sql/api-keys.sql.js';

export function authStore(db: Database): AuthStore {
  return {
    findKeyRecord: (prefix) => findKeyRecord(db, prefix),
    keyRecordById: (id) => keyRecordById(db, id),
    touchKey: (id, at, resolutionMs) => touchKey(db, id, at, resolutionMs),
    activeKeyPrefixes: () => activeKeyPrefixes(db),
  };
}
