import { Migration } from '@mikro-orm/migrations';

export class Migration20261123100529_tenant_scope_ledger extends Migration {

  /**
   * Sync runs and source records carry the tenant columns every other tenant-owned
   * table has, backfilled from their connection, so tenant queries can filter by
   * columns; a source record's run becomes a foreign key.
   */
  override async up(): Promise<void> {
    for (const table of ['ledger_sync_runs', 'ledger_source_records']) {
      this.addSql(`alter table "${table}" add column "organization_id" uuid null, add column "integration_id" uuid null, add column "environment" text null;`);
      this.addSql(
        `update "${table}" t set organization_id = c.organization_id, integration_id = c.integration_id, environment = c.environment from "ledger_connections" c where c.id = t.connection_id;`,
      );
      this.addSql(
        `alter table "${table}" alter column "organization_id" set not null, alter column "integration_id" set not null, alter column "environment" set not null, add constraint "${table}_environment_check" check ("environment" in ('sandbox', 'production'));`,
      );
      this.addSql(`alter table "${table}" add constraint "${table}_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);
      this.addSql(`alter table "${table}" add constraint "${table}_integration_id_foreign" foreign key ("integration_id") references "integrations" ("id") on update cascade;`);
    }
    this.addSql(`alter table "ledger_source_records" add constraint "ledger_source_records_sync_run_id_foreign" foreign key ("sync_run_id") references "ledger_sync_runs" ("id") on update cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "ledger_source_records" drop constraint "ledger_source_records_organization_id_foreign";`);
    this.addSql(`alter table "ledger_source_records" drop constraint "ledger_source_records_integration_id_foreign";`);
    this.addSql(`alter table "ledger_source_records" drop constraint "ledger_source_records_sync_run_id_foreign";`);

    this.addSql(`alter table "ledger_sync_runs" drop constraint "ledger_sync_runs_organization_id_foreign";`);
    this.addSql(`alter table "ledger_sync_runs" drop constraint "ledger_sync_runs_integration_id_foreign";`);

    this.addSql(`alter table "ledger_source_records" drop column "organization_id", drop column "integration_id", drop column "environment";`);

    this.addSql(`alter table "ledger_sync_runs" drop column "organization_id", drop column "integration_id", drop column "environment";`);
  }

}
