import { batched, settleTogetherOrAlone, unwrap } from '../../persistence/sql/batch.js';
import {
  insertPreparations,
  type PreparationContext,
  type PreparationContextRead,
  type PreparationRow,
} from '../../persistence/sql/preparations.sql.js';
import type { Sql } from '../../persistence/sql/sql.js';
import type { SharedReads } from '../shared-reads.js';
import { snapshotCache } from './snapshot-cache.js';

/** Where invoice-backed preparation reads what it decides on and saves what it decided. */
export interface PreparationStore {
  /** The key's saved preparation and the invoices the selector names (`preparationContexts`). */
  context(read: PreparationContextRead): Promise<PreparationContext>;
  /** Save one preparation; resolves once it is committed, rejects with the unique violation of a key already used. */
  insert(row: PreparationRow): Promise<void>;
}

/**
 * Single statements on the pool (no entity manager, no transaction: each
 * statement is atomic on its own); the reads of concurrent requests are sent
 * together (`sharedReads`: one statement per selector, which also serves their
 * authentication's epoch), their inserts as one multi-row statement (group
 * commit). A batch starts after each of its requests arrived, so it sees
 * everything committed before: a request that lost an insert race reads the
 * winner's row. A refused statement is sent
 * again row by row, so a duplicate key fails only its own request, which then
 * replays the winner's row exactly as if it had been alone.
 */
export function pooledPreparationStore(sql: Sql, reads: SharedReads): PreparationStore {
  const insert = batched((rows: PreparationRow[]) =>
    settleTogetherOrAlone(rows, async (some) => {
      await insertPreparations(sql, some);
      return some.map(() => undefined);
    }),
  );
  const snapshots = snapshotCache();
  return {
    context: async (read) => {
      const known = snapshots.known(read);
      return snapshots.fill(read, await reads.preparationContext({ ...read, knownSnapshotId: known?.snapshotId }), known);
    },
    insert: async (row) => unwrap(await insert(row)),
  };
}
