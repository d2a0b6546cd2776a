import type { KeyRecord } from './types.js';

/** The API keys as authentication reads them (server/persistence/stores/auth-store.ts implements it). */
export interface AuthStore {
  /** The key behind a prefix with everything a verdict needs, and the auth epoch read in the same snapshot. */
  findKeyRecord(prefix: string): Promise<{ epoch: string; key: KeyRecord | undefined }>;
  /** The key with this id, as `findKeyRecord` reads it (operators act on behalf of a key by its id). */
  keyRecordById(id: string): Promise<KeyRecord | undefined>;
  /** Record use; only moves forward (a use older than `at` by less than `resolutionMs` is not written). */
  touchKey(id: string, at: Date, resolutionMs: number): Promise<void>;
  /** The prefixes of every key not revoked, and the epoch they were read at (one snapshot). */
  activeKeyPrefixes(): Promise<{ epoch: string; prefixes: string[] }>;
}
