import { Migration } from '@mikro-orm/migrations';

/**
 * The evidence ledger (docs/evidence.md) reads preparations by when they were saved, per integration or organization,
 * and finds each one's payment and correlation exceptions by the preparation id they name; ids arrive in either
 * case, so those lookups are on the lowercased id.
 */
export class Migration20261125190000_evidence_ledger extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "preparations_integration_id_created_at_index" on "preparations" ("integration_id", "created_at");`);
    this.addSql(`create index "preparations_organization_id_created_at_index" on "preparations" ("organization_id", "created_at");`);
    this.addSql(`create index "preparations_created_at_index" on "preparations" ("created_at");`);
    this.addSql(`create index "tracked_payments_enrichment_request_index" on "tracked_payments" ("integration_id", "environment", lower("enrichment_request_id"));`);
    this.addSql(`create index "correlation_exceptions_enrichment_request_index" on "correlation_exceptions" ("integration_id", "environment", lower("enrichment_request_id"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "correlation_exceptions_enrichment_request_index";`);
    this.addSql(`drop index "tracked_payments_enrichment_request_index";`);
    this.addSql(`drop index "preparations_created_at_index";`);
    this.addSql(`drop index "preparations_organization_id_created_at_index";`);
    this.addSql(`drop index "preparations_integration_id_created_at_index";`);
  }

}
