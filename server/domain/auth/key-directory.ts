import { epochCache, newerEpoch } from '../epoch-cache.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { AuthStore } from './ports.js';
import type { KeyRecord } from './types.js';

/** Where authentication reads key records and records their use. */
export interface KeyDirectory {
  /** The key's current record (with its organization, integration and ledger link), or undefined for an unknown prefix. */
  find(prefix: string): Promise<KeyRecord | undefined>;
  /** Record use; only moves forward. */
  touch(key: KeyRecord, at: Date, resolutionMs: number): Promise<void>;
  /**
   * Whether this process knows the prefix as a key's: a record cached at the newest epoch it has seen, or a prefix of
   * the key table as last listed (every key not revoked). Never a verdict (the request still authenticates against
   * the current epoch): it only spares a known key the per-client failure limit.
   */
  holds?(prefix: string): boolean;
}

/** Beyond this many cached keys the cache starts over (a bound on memory, not a tuning knob). */
const MAX_CACHED_KEYS = 10_000;
/** Unknown prefixes remembered at most this long, and at most this many (then the list starts over). */
const UNKNOWN_TTL_MS = 5_000;
const MAX_UNKNOWN = 10_000;
/** After a failed listing of the key prefixes, a lookup lists again once this long has passed (at once on a newer epoch). */
const LIST_RETRY_MS = 1_000;

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
 *
 * Unknown prefixes are remembered too (negative cache), and answered without any
 * I/O, not even the epoch read: while the newest epoch this process has seen is
 * the one they were looked up at, and for at most `UNKNOWN_TTL_MS`. Issuing a key
 * moves the epoch, so a prefix that becomes known is found at the latest once a
 * request reads the new epoch or the entry times out (a new prefix is 64 random
 * bits: one looked up before it existed is not a case that happens).
 *
 * The prefixes of every key not revoked are listed once at creation and again whenever a lookup sees a newer epoch,
 * in the background (never on a request's path; after a failure, by a lookup at least `LIST_RETRY_MS` later, never
 * by a retry loop): `holds` answers from that list and the cached records, so a key
 * issued before this release (no issued tag) is known to the failed-authentication gate without a lookup
 * (docs/decisions.md, "Issued keys told from forged ones").
 */
export function cachedKeyDirectory(
  storage: UnitOfWork<{ auth: AuthStore }>,
  currentEpoch: () => Promise<string>,
  now: () => number = Date.now,
): KeyDirectory {
  // Single statements outside any transaction: the store is taken once, not per lookup.
  const store = storage.store.auth;
  let unknown = new Map<string, { epoch: string; at: number }>();
  // Unknown prefixes seen at an older epoch are dropped with the records.
  const records = epochCache<KeyRecord>(MAX_CACHED_KEYS, () => (unknown = new Map()));
  let listed: { epoch: string; prefixes: Set<string> } | undefined;
  let listing = false;
  /** A listing failed and is owed: the next lookup at least `LIST_RETRY_MS` after the failure lists again. */
  let listFailedAt: number | undefined;
  const listPrefixes = (): void => {
    if (listing) return;
    listing = true;
    listFailedAt = undefined;
    store.activeKeyPrefixes().then(
      ({ epoch, prefixes }) => {
        listing = false;
        if (newerEpoch(epoch, listed?.epoch)) listed = { epoch, prefixes: new Set(prefixes) };
        // A lookup saw a newer epoch while this listing was in flight: list again at it. Only after a success (a
        // statement that ran), so this never turns into a loop.
        if (records.epoch !== undefined && newerEpoch(records.epoch, listed!.epoch)) listPrefixes();
      },
      () => {
        // Never retried from here: when the database is down or the pool closed (shutdown), a retry on failure
        // would be a loop, of failed round trips or of rejections that never leave the microtask queue (a process
        // at full CPU that never stops). A later lookup lists again (the database may be down at start).
        listing = false;
        listFailedAt = now();
      },
    );
  };
  listPrefixes();

  return {
    async find(prefix) {
      const miss = unknown.get(prefix);
      if (miss && miss.epoch === records.epoch && now() - miss.at < UNKNOWN_TTL_MS) return undefined;
      const epoch = await currentEpoch();
      if (records.see(epoch)) {
        if (listed === undefined || newerEpoch(epoch, listed.epoch)) listPrefixes();
      } else if (listFailedAt !== undefined && !listing && now() - listFailedAt >= LIST_RETRY_MS) listPrefixes();
      const cached = records.at(prefix, epoch);
      if (cached) return cached;
      const loaded = await store.findKeyRecord(prefix);
      if (loaded.key) {
        records.set(prefix, loaded.epoch, loaded.key);
      } else if (loaded.epoch === records.epoch) {
        // Bounded: a flood of made-up keys only turns this list over (the per-client failure limit stops the flood).
        if (unknown.size >= MAX_UNKNOWN) unknown = new Map();
        unknown.set(prefix, { epoch: loaded.epoch, at: now() });
      }
      return loaded.key;
    },
    async touch(key, at, resolutionMs) {
      await store.touchKey(key.id, at, resolutionMs);
      // The cached copy shares the object: later requests see the new last use and skip the write.
      key.lastUsedAt = at;
    },
    holds(prefix) {
      return (records.epoch !== undefined && records.at(prefix, records.epoch) !== undefined) || listed?.prefixes.has(prefix) === true;
    },
  };
}
