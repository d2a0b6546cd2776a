import { findKeyRecord, touchKey, type KeyRecord } from '../../persistence/sql/api-keys.sql.js';
import type { Sql } from '../../persistence/sql/sql.js';

/** Where authentication reads key records and records their use. */
export interface KeyDirectory {
  /** The key's current record (with its organization, integration and ledger link), or undefined for an unknown prefix. */
  find(prefix: string): Promise<KeyRecord | undefined>;
  /** Record use; only moves forward. */
  touch(key: KeyRecord, at: Date, resolutionMs: number): Promise<void>;
}

/** Beyond this many cached keys the cache starts over (a bound on memory, not a tuning knob). */
const MAX_CACHED_KEYS = 10_000;

/**
 * Key records cached in this process, each tagged with the auth epoch it was
 * read at. Every lookup first reads the current epoch from PostgreSQL — a read
 * that starts after the request arrived, shared by the requests that arrive
 * together (`currentEpoch`: `sharedReads`, which may take it from a statement
 * that reads other things in the same batch) — and uses a cached record only while the epoch is the
 * one it was read at. Triggers move the epoch in the same transaction as any
 * change that can alter a verdict (revocation, scopes, organization status,
 * integration, ledger link; migration auth_epoch), whichever process or plain
 * SQL makes it, so the very next request sees it. The database stays the only
 * truth: nothing has to be delivered for the cache to be dropped, and when the
 * epoch cannot be read the request fails rather than trusting the cache.
 */
export function cachedKeyDirectory(sql: Sql, currentEpoch: () => Promise<string>): KeyDirectory {
  let records = new Map<string, { epoch: string; key: KeyRecord }>();
  let lastEpoch: string | undefined;

  return {
    async find(prefix) {
      const epoch = await currentEpoch();
      if (epoch !== lastEpoch) {
        // Everything read at an older epoch is stale; drop it rather than keep it to compare against.
        if (lastEpoch === undefined || BigInt(epoch) > BigInt(lastEpoch)) records = new Map();
        lastEpoch = epoch;
      }
      const cached = records.get(prefix);
      if (cached && cached.epoch === epoch) return cached.key;
      const loaded = await findKeyRecord(sql, prefix);
      // Unknown prefixes are not cached: a flood of made-up keys must not fill memory.
      if (loaded.key) {
        if (records.size >= MAX_CACHED_KEYS) records = new Map();
        records.set(prefix, { epoch: loaded.epoch, key: loaded.key });
      }
      return loaded.key;
    },
    async touch(key, at, resolutionMs) {
      await touchKey(sql, key.id, at, resolutionMs);
      // The cached copy shares the object: later requests see the new last use and skip the write.
      key.last_used_at = at.toISOString();
    },
  };
}

/** Every lookup reads the database (operator tools and tests that want no cache). */
export function uncachedKeyDirectory(sql: Sql): KeyDirectory {
  return {
    find: async (prefix) => (await findKeyRecord(sql, prefix)).key,
    touch: (key, at, resolutionMs) => touchKey(sql, key.id, at, resolutionMs),
  };
}
