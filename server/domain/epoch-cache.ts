/**
 * Values read from the database at an auth epoch, each used only while the epoch is the one it was read at (key
 * records, `cachedKeyDirectory`; delivery endpoints, `cachedEndpointDirectory`; docs/decisions.md, "Key cache").
 * Bounded: beyond `max` entries it starts over (a bound on memory, not a tuning knob).
 */
export interface EpochCache<V> {
  /** The newest epoch seen (undefined before any). */
  readonly epoch: string | undefined;
  /**
   * Note the epoch a lookup just read: when it is newer than any seen, everything read at an older one is dropped
   * rather than kept to compare against. True when it differs from the last one seen.
   */
  see(epoch: string): boolean;
  /** The value read at exactly this epoch, if any. */
  at(key: string, epoch: string): V | undefined;
  set(key: string, epoch: string, value: V): void;
}

/** Whether epoch `a` is newer than `b` (none seen yet: any is). */
export const newerEpoch = (a: string, b: string | undefined): boolean => b === undefined || BigInt(a) > BigInt(b);

export function epochCache<V>(max: number, onNewer: () => void = () => {}): EpochCache<V> {
  let entries = new Map<string, { epoch: string; value: V }>();
  let last: string | undefined;
  return {
    get epoch() {
      return last;
    },
    see(epoch) {
      if (epoch === last) return false;
      if (newerEpoch(epoch, last)) {
        entries = new Map();
        onNewer();
      }
      last = epoch;
      return true;
    },
    at(key, epoch) {
      const entry = entries.get(key);
      return entry && entry.epoch === epoch ? entry.value : undefined;
    },
    set(key, epoch, value) {
      if (entries.size >= max) entries = new Map();
      entries.set(key, { epoch, value });
    },
  };
}
