import type { PreparationStore, SavedPreparation } from '../domain/preparations/ports.js';
import type { Database } from './kysely.js';
import { batched, settleTogetherOrAlone } from './sql/batch.js';
import { insertPreparations } from './sql/preparations.sql.js';
import { invoiceStateOf } from './sql/stored-invoices.sql.js';
import type { SharedReads } from './shared-reads.js';
import { snapshotCache } from './snapshot-cache.js';
import { asKeyTaken } from './stores/key-taken.js';

/**
 * The preparation port on the pool: single statements (no entity manager, no
 * transaction: each statement is atomic on its own); the reads of concurrent
 * requests are sent together (`sharedReads`: one statement per selector, which
 * also serves their authentication's epoch), their inserts as one multi-row
 * statement (group commit). A batch starts after each of its requests arrived,
 * so it sees everything committed before: a request that lost an insert race
 * reads the winner's row. A refused statement is sent again row by row, so a
 * duplicate key fails only its own request, which then replays the winner's row
 * exactly as if it had been alone (the unique violation is the domain's
 * `KeyTaken`). Snapshot JSON this process holds is not read again
 * (`snapshotCache`).
 */
export function pooledPreparationStore(db: Database, reads: SharedReads): PreparationStore {
  const insert = batched((saved: SavedPreparation[]) =>
    settleTogetherOrAlone(saved, async (some) => {
      await insertPreparations(db, some);
      return some.map(() => undefined);
    }),
  );
  const snapshots = snapshotCache();
  return {
    context: async (read) => {
      const known = snapshots.known(read);
      const rows = snapshots.fill(read, await reads.preparationContext({ ...read, knownSnapshotId: known?.snapshotId }), known);
      return { saved: rows.saved, invoices: rows.invoices.map(invoiceStateOf) };
    },
    insert: async (saved) => {
      const settled = await insert(saved);
      if (!settled.ok) throw asKeyTaken(settled.error);
    },
  };
}
