import type { EnrichmentRecordWriter } from '../domain/inline-enrichment/enrich-inline-invoice.js';
import type { EnrichmentRecordInsert } from '../domain/inline-enrichment/types.js';
import type { Database } from './kysely.js';
import { batched, settleTogetherOrAlone, unwrap } from './sql/batch.js';
import { insertEnrichmentRecords } from './sql/enrichment-records.sql.js';

/**
 * The domain's `EnrichmentRecordWriter` with group commit: enrichment records of concurrent requests written as one
 * multi-row INSERT; each request is answered only after the statement holding its row has committed. A refused
 * statement is retried row by row, so one row's failure is only its own request's.
 */
export function groupCommittedEnrichmentRecords(db: Database): EnrichmentRecordWriter {
  const write = batched((rows: EnrichmentRecordInsert[]) =>
    settleTogetherOrAlone(rows, async (some) => {
      await insertEnrichmentRecords(db, some);
      return some.map(() => undefined);
    }),
  );
  return async (row) => unwrap(await write(row));
}
