import { Migration } from '@mikro-orm/migrations';

/**
 * The index of a payment's enrichment reference leads with the reference. Led by (integration_id, environment), it
 * offered itself for every lookup of the integration's payments, and a statement planned before `tracked_payments` had
 * statistics (a new database, the first minute of a deployment) could take it for the delivery's lookup by provider
 * payment id, reading every payment of the integration instead of one key (docs/performance.md, "A plan made before
 * the statistics"). Its own lookups name all three columns, so the order costs them nothing.
 */
export class Migration20261127190000_enrichment_reference_index_order extends Migration {

  override async up(): Promise<void> {
    this.addSql(`drop index "tracked_payments_enrichment_request_index";`);
    this.addSql(`create index "tracked_payments_enrichment_request_index" on "tracked_payments" (lower("enrichment_request_id"), "integration_id", "environment");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "tracked_payments_enrichment_request_index";`);
    this.addSql(`create index "tracked_payments_enrichment_request_index" on "tracked_payments" ("integration_id", "environment", lower("enrichment_request_id"));`);
  }

}
