import { Migration } from '@mikro-orm/migrations';

/**
 * The evidence ledger (docs/evidence.md) reads preparations by when they were saved, per integration or organization,
 * and finds each one's payment and correlation exceptions by the preparation id they name; ids arrive in either
 * case, so those lookups are on the lowercased id.
 */
export class Migration20261125190000_evidence_ledger extends Migration {

  override async up(): Promise<void> {
    // No index on preparations leading with integration_id besides the unique (integration, idempotency key): one on
    // (integration_id, created_at) made the generic plan of the preparation context read walk it instead, and a new
    // preparation cost PostgreSQL 0.6-2 ms instead of 0.2 (docs/performance.md, "Current figures"). Per-tenant reads of the
    // ledger go through the projection's own indexes; the list takes the time range on created_at.
    this.addSql(`create index "preparations_created_at_index" on "preparations" ("created_at");`);
    this.addSql(`create index "tracked_payments_enrichment_request_index" on "tracked_payments" ("integration_id", "environment", lower("enrichment_request_id"));`);
    this.addSql(`create index "correlation_exceptions_enrichment_request_index" on "correlation_exceptions" ("integration_id", "environment", lower("enrichment_request_id"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "correlation_exceptions_enrichment_request_index";`);
    this.addSql(`drop index "tracked_payments_enrichment_request_index";`);
    this.addSql(`drop index "preparations_created_at_index";`);
  }

}
