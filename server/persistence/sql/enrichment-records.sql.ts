import type { Sql } from './sql.js';

/** Store the correlation record of one successful inline enrichment (one statement, no ORM unit of work). */
export async function insertEnrichmentRecord(
  sql: Sql,
  row: {
    requestId: string;
    organizationId: string;
    integrationId: string;
    environment: string;
    provider: string;
    amountMinor: number;
    currency: string;
    invoiceNumber: string;
    createdAt: Date;
  },
): Promise<void> {
  await sql(
    `insert into enrichment_records (id, request_id, organization_id, integration_id, environment, provider, amount_minor, currency, invoice_number, created_at)
     values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      row.requestId,
      row.organizationId,
      row.integrationId,
      row.environment,
      row.provider,
      row.amountMinor,
      row.currency,
      row.invoiceNumber,
      row.createdAt,
    ],
  );
}
