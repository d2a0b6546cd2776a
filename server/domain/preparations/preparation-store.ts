import { batched, settleTogetherOrAlone, unwrap, type Settled } from '../../persistence/sql/batch.js';
import {
  insertPreparations,
  preparationContexts,
  type PreparationContext,
  type PreparationContextRead,
  type ScopedPreparationInsert,
} from '../../persistence/sql/preparations.sql.js';
import type { Sql } from '../../persistence/sql/sql.js';

/** Where invoice-backed preparation reads what it decides on and saves what it decided. */
export interface PreparationStore {
  /** The key's saved preparation and the invoices the selector names (`preparationContexts`). */
  context(read: PreparationContextRead): Promise<PreparationContext>;
  /** Save one preparation; resolves once it is committed, rejects with the unique violation of a key already used. */
  insert(insert: ScopedPreparationInsert): Promise<void>;
}

/**
 * Single statements on the pool (no entity manager, no transaction: each
 * statement is atomic on its own); the reads of concurrent requests are sent
 * as one statement per selector, their inserts as one multi-row statement
 * (group commit). A batch starts after each of its requests arrived, so it sees
 * everything committed before: a request that lost an insert race reads the
 * winner's row. A refused statement is sent
 * again row by row, so a duplicate key fails only its own request, which then
 * replays the winner's row exactly as if it had been alone.
 */
export function pooledPreparationStore(sql: Sql): PreparationStore {
  const insert = batched((inserts: ScopedPreparationInsert[]) =>
    settleTogetherOrAlone(inserts, async (some) => {
      await insertPreparations(sql, some);
      return some.map(() => undefined);
    }),
  );
  const context = batched(async (reads: PreparationContextRead[]) => {
    const answers: Settled<PreparationContext>[] = new Array(reads.length);
    const bySelector = new Map<PreparationContextRead['selector'], number[]>();
    reads.forEach((r, i) => bySelector.set(r.selector, [...(bySelector.get(r.selector) ?? []), i]));
    await Promise.all(
      [...bySelector].map(async ([selector, indexes]) => {
        const settled = await settleTogetherOrAlone(
          indexes.map((i) => reads[i]!),
          (some) => preparationContexts(sql, selector, some),
        );
        indexes.forEach((i, n) => (answers[i] = settled[n]!));
      }),
    );
    return answers;
  });
  return {
    context: async (read) => unwrap(await context(read)),
    insert: async (row) => unwrap(await insert(row)),
  };
}
