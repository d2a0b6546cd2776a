import type { UnitOfWork } from '../../server/domain/unit-of-work.js';
import type { Database } from '../../server/persistence/kysely.js';
import { storesOf, type Stores } from '../../server/persistence/unit-of-work.js';

/**
 * `db` with the text (and, in `sentWith`, the parameters) of every statement it sends noted (a pass-through: every
 * statement still runs). Statements of the builder, raw `sql` and `executeQuery` all reach the database through the
 * executor's `executeQuery`, where the text is read.
 */
export function recordingDatabase(db: Database): {
  db: Database;
  sent: string[];
  sentWith: { sql: string; parameters: readonly unknown[] }[];
} {
  const sent: string[] = [];
  const sentWith: { sql: string; parameters: readonly unknown[] }[] = [];
  // A copy of `db` with an executor of its own, so only statements written against the copy are noted.
  const recorded = db.withPlugin({ transformQuery: (args) => args.node, transformResult: async (args) => args.result });
  const executor = recorded.getExecutor();
  const execute = executor.executeQuery.bind(executor);
  executor.executeQuery = (compiled, ...rest) => {
    sent.push(compiled.sql);
    sentWith.push({ sql: compiled.sql, parameters: compiled.parameters });
    return execute(compiled, ...rest);
  };
  return { db: recorded, sent, sentWith };
}

/** The domain's unit of work on one database handle: its stores, and its transactions as Kysely's. */
export function unitOfWorkOn(db: Database): UnitOfWork<Stores> {
  return {
    store: storesOf(db),
    // Kysely has no nested transactions: a use case that opens a savepoint inside `work` fails here, loudly.
    transaction: (work) => db.transaction().execute((trx) => work(storesOf(trx), unitOfWorkOn(trx))),
  };
}
