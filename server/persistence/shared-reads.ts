import { batched, settleTogetherOrAlone, unwrap, type Settled } from './sql/batch.js';
import { readAuthEpoch } from './sql/api-keys.sql.js';
import { preparationContexts, type ContextRows, type ContextRowsRead } from './sql/preparations.sql.js';
import type { Database } from './kysely.js';

/** The reads requests make before they decide, shared by the requests that arrive together (`sharedReads`). */
export interface SharedReads {
  /** The current auth epoch, read by a statement that starts after this call (what the key cache checks against). */
  authEpoch(): Promise<string>;
  /** An invoice-backed preparation's saved row and invoices (`preparationContexts`). */
  preparationContext(read: ContextRowsRead): Promise<ContextRows>;
}

type Item = { kind: 'epoch' } | { kind: 'context'; read: ContextRowsRead };

/**
 * One batch (one round trip per kind of statement) for the reads of concurrent
 * requests: the auth epoch every API request checks its cached key against, and
 * the contexts of invoice-backed preparations (one statement per selector). A
 * preparation's context statement also reads the epoch, and the requests
 * waiting for an epoch in the same batch take it from there, so under
 * preparation load authentication costs no statement of its own. That epoch is
 * as fresh as a read of its own would be: a batch starts after each of its
 * items was submitted (`batched`), so every statement in it sees what was
 * committed before each waiting request asked. With no context in the batch, or
 * when every context statement failed, the epoch is read alone.
 */
export function sharedReads(db: Database): SharedReads {
  const run = batched(async (items: Item[]): Promise<Settled<string | ContextRows>[]> => {
    const answers: Settled<string | ContextRows>[] = new Array(items.length);
    const bySelector = new Map<ContextRowsRead['selector'], number[]>();
    items.forEach((item, i) => {
      if (item.kind !== 'context') return;
      const indexes = bySelector.get(item.read.selector);
      if (indexes) indexes.push(i);
      else bySelector.set(item.read.selector, [i]);
    });
    let epoch: string | undefined;
    await Promise.all(
      [...bySelector].map(async ([selector, indexes]) => {
        const settled = await settleTogetherOrAlone(
          indexes.map((i) => (items[i] as Extract<Item, { kind: 'context' }>).read),
          async (some) => {
            const { contexts, authEpoch } = await preparationContexts(db, selector, some);
            epoch = authEpoch;
            return contexts;
          },
        );
        indexes.forEach((i, n) => (answers[i] = settled[n]!));
      }),
    );
    const waiting = items.flatMap((item, i) => (item.kind === 'epoch' ? [i] : []));
    if (waiting.length > 0) {
      let settled: Settled<string>;
      try {
        settled = { ok: true, value: epoch ?? (await readAuthEpoch(db)) };
      } catch (error) {
        settled = { ok: false, error };
      }
      for (const i of waiting) answers[i] = settled;
    }
    return answers;
  });
  return {
    authEpoch: async () => unwrap(await run({ kind: 'epoch' })) as string,
    preparationContext: async (read) => unwrap(await run({ kind: 'context', read })) as ContextRows,
  };
}
