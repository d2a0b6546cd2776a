import { sql } from 'kysely';
import type { EnrichmentRecordInsert } from '../../domain/inline-enrichment/types.js';
import { hotStatement, runNamed, type Database } from '../kysely.js';

const ENRICHMENT_RECORDS_INSERT = hotStatement(
  'enrichment_records_insert',
  (rows: string) =>
    sql`insert into enrichment_records (id, request_id, organization_id, integration_id, environment, provider, amount_minor, currency, invoice_number, created_at)
     select gen_random_uuid(), x."requestId", x."organizationId", x."integrationId", x.environment, x.provider, x."amountMinor", x.currency,
            x."invoiceNumber", x."createdAt"
       from jsonb_to_recordset(${rows}::jsonb) as x("requestId" text, "organizationId" uuid, "integrationId" uuid, environment text, provider text,
                                              "amountMinor" bigint, currency text, "invoiceNumber" text, "createdAt" timestamptz)`,
);

/**
 * Store the enrichment records of successful inline enrichments: one
 * statement for any number of rows (group commit), no ORM unit of work; named, so each
 * connection parses and plans it once. Raw: a `jsonb_to_recordset` batch insert, whose text is its prepared plan's
 * identity; the record's columns are those of `EnrichmentRecordInsert`, cast to the table's types.
 */
export async function insertEnrichmentRecords(db: Database, rows: EnrichmentRecordInsert[]): Promise<void> {
  await runNamed(db, ENRICHMENT_RECORDS_INSERT, JSON.stringify(rows));
}
