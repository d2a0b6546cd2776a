import { batched, settleTogetherOrAlone, unwrap } from '../../persistence/sql/batch.js';
import {
  insertPreparations,
  preparationContext,
  type PreparationContext,
  type ScopedPreparationInsert,
} from '../../persistence/sql/preparations.sql.js';
import type { Sql } from '../../persistence/sql/sql.js';

/** Where invoice-backed preparation reads what it decides on and saves what it decided. */
export interface PreparationStore {
  /** The key's saved preparation and the invoices the selector names (`preparationContext`). */
  context(o: Parameters<typeof preparationContext>[1]): Promise<PreparationContext>;
  /** Save one preparation; resolves once it is committed, rejects with the unique violation of a key already used. */
  insert(insert: ScopedPreparationInsert): Promise<void>;
}

/**
 * Single statements on the pool (no entity manager, no transaction: each
 * statement is atomic on its own), with the inserts of concurrent requests
 * sent as one multi-row statement (group commit). A refused statement is sent
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
  return {
    context: (o) => preparationContext(sql, o),
    insert: async (row) => unwrap(await insert(row)),
  };
}
