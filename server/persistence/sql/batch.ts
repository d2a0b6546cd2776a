import { isDatabaseUnavailable } from '../database-unavailable.js';

/**
 * Group commit: work submitted while earlier batches are in flight is sent
 * together as the next batch (one statement, one round trip), and each caller
 * is answered from that batch's result. A lone request starts at once, so a
 * quiet service pays no added latency; under load, N concurrent requests cost
 * about one round trip instead of N. A batch always starts after every item in
 * it was submitted, so a read in it sees everything committed before its
 * callers asked (what a fresh-read check such as the key cache's epoch relies on).
 *
 * `run` answers one result per item, in order; if it throws, every caller of
 * that batch gets the error.
 */
export function batched<In, Out>(
  run: (items: In[]) => Promise<Out[]>,
  options: { maxBatch?: number; concurrency?: number } = {},
): (item: In) => Promise<Out> {
  const maxBatch = options.maxBatch ?? 256;
  const concurrency = options.concurrency ?? 1;
  let queue: { item: In; resolve: (out: Out) => void; reject: (err: unknown) => void }[] = [];
  let inFlight = 0;

  const pump = (): void => {
    while (inFlight < concurrency && queue.length > 0) {
      const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
      queue = batch === queue ? [] : queue.slice(maxBatch);
      inFlight++;
      run(batch.map((b) => b.item))
        .then(
          (outs) => batch.forEach((b, i) => b.resolve(outs[i]!)),
          (err: unknown) => batch.forEach((b) => b.reject(err)),
        )
        .finally(() => {
          inFlight--;
          pump();
        });
    }
  };

  return (item) =>
    new Promise<Out>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      pump();
    });
}

/** One caller's share of a batch: its result, or the error it alone would have had. */
export type Settled<Out> = { ok: true; value: Out } | { ok: false; error: unknown };

/**
 * Run items as one statement (`many`); if that statement is refused, run each
 * item alone, so one item's failure (a unique violation aborts the whole
 * statement) costs the others nothing and each gets its own outcome. When the
 * database itself is unusable (down, or the statement timed out), every item
 * gets that error at once: retrying them one by one would multiply the wait by
 * the batch size and turn a bounded 503 into a hang.
 */
export async function settleTogetherOrAlone<In, Out>(items: In[], many: (items: In[]) => Promise<Out[]>): Promise<Settled<Out>[]> {
  try {
    return (await many(items)).map((value) => ({ ok: true, value }));
  } catch (batchError) {
    if (items.length === 1 || isDatabaseUnavailable(batchError)) return items.map(() => ({ ok: false, error: batchError }));
    const settled: Settled<Out>[] = [];
    for (const item of items) {
      try {
        settled.push({ ok: true, value: (await many([item]))[0]! });
      } catch (error) {
        settled.push({ ok: false, error });
      }
    }
    return settled;
  }
}

/** The value of a settled share, or its error thrown. */
export function unwrap<Out>(settled: Settled<Out>): Out {
  if (!settled.ok) throw settled.error;
  return settled.value;
}

/**
 * Items in rounds where no two of a round share a key, each in the first round it fits, in order. A multi-row
 * statement checks what was there before it, not what it writes itself: items sharing a key (an attempt, an identity)
 * go to a later statement, which sees the earlier one's rows.
 */
export function roundsWithoutSharedKeys<In>(items: readonly In[], keysOf: (item: In) => readonly string[]): number[][] {
  const rounds: { indexes: number[]; keys: Set<string> }[] = [];
  items.forEach((item, index) => {
    const keys = keysOf(item);
    let round = rounds.find((candidate) => !keys.some((key) => candidate.keys.has(key)));
    if (!round) rounds.push((round = { indexes: [], keys: new Set() }));
    round.indexes.push(index);
    for (const key of keys) round.keys.add(key);
  });
  return rounds.map((r) => r.indexes);
}

/** Each round as one statement (`settleTogetherOrAlone`), one after the other: each item's share, in the items' order. */
export async function settleInRounds<In, Out>(
  items: readonly In[],
  rounds: number[][],
  many: (items: In[]) => Promise<Out[]>,
): Promise<Settled<Out>[]> {
  const settled: Settled<Out>[] = new Array(items.length);
  for (const indexes of rounds) {
    const outcomes = await settleTogetherOrAlone(
      indexes.map((i) => items[i]!),
      many,
    );
    indexes.forEach((i, n) => (settled[i] = outcomes[n]!));
  }
  return settled;
}
