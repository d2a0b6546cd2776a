import { Migration } from '@mikro-orm/migrations';

export class Migration20261123102552_stored_invoices extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "stored_invoices" ("id" uuid not null, "organization_id" uuid not null, "integration_id" uuid not null, "environment" text check ("environment" in ('sandbox', 'production')) not null, "connection_id" uuid not null, "source_record_id" uuid not null, "ledger_invoice_id" varchar(64) not null, "invoice_number" varchar(64) null, "status" varchar(32) not null, "currency" varchar(3) null, "total_amount_minor" bigint null, "source_version" varchar(32) null, "revision" varchar(64) null, "current_snapshot_id" uuid null, "deleted" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "stored_invoices_pkey" primary key ("id"));`);
    this.addSql(`create index "stored_invoices_integration_id_created_at_id_index" on "stored_invoices" ("integration_id", "created_at", "id");`);
    this.addSql(`create index "stored_invoices_integration_id_invoice_number_index" on "stored_invoices" ("integration_id", "invoice_number");`);
    this.addSql(`create index "stored_invoices_integration_id_ledger_invoice_id_index" on "stored_invoices" ("integration_id", "ledger_invoice_id");`);
    this.addSql(`alter table "stored_invoices" add constraint "stored_invoices_connection_id_ledger_invoice_id_unique" unique ("connection_id", "ledger_invoice_id");`);

    this.addSql(`create table "invoice_snapshots" ("id" uuid not null, "organization_id" uuid not null, "integration_id" uuid not null, "environment" text check ("environment" in ('sandbox', 'production')) not null, "stored_invoice_id" uuid not null, "revision" varchar(64) not null, "mapper_version" varchar(16) not null, "source_version" varchar(32) null, "content" jsonb not null, "issues" jsonb not null, "dependencies" jsonb not null, "mappings" jsonb not null, "created_at" timestamptz not null, constraint "invoice_snapshots_pkey" primary key ("id"));`);
    this.addSql(`alter table "invoice_snapshots" add constraint "invoice_snapshots_stored_invoice_id_revision_unique" unique ("stored_invoice_id", "revision");`);

    this.addSql(`alter table "stored_invoices" add constraint "stored_invoices_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);
    this.addSql(`alter table "stored_invoices" add constraint "stored_invoices_integration_id_foreign" foreign key ("integration_id") references "integrations" ("id") on update cascade;`);
    this.addSql(`alter table "stored_invoices" add constraint "stored_invoices_connection_id_foreign" foreign key ("connection_id") references "ledger_connections" ("id") on update cascade;`);
    this.addSql(`alter table "stored_invoices" add constraint "stored_invoices_source_record_id_foreign" foreign key ("source_record_id") references "ledger_source_records" ("id") on update cascade;`);

    this.addSql(`alter table "invoice_snapshots" add constraint "invoice_snapshots_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);
    this.addSql(`alter table "invoice_snapshots" add constraint "invoice_snapshots_integration_id_foreign" foreign key ("integration_id") references "integrations" ("id") on update cascade;`);
    this.addSql(`alter table "invoice_snapshots" add constraint "invoice_snapshots_stored_invoice_id_foreign" foreign key ("stored_invoice_id") references "stored_invoices" ("id") on update cascade;`);

    // Snapshots are immutable evidence: preparations pin them (docs/invoices.md).
    this.addSql(`create function invoice_snapshots_append_only() returns trigger language plpgsql as $$ begin raise exception 'invoice_snapshots is append-only (% refused)', tg_op using errcode = 'restrict_violation'; end $$;`);
    this.addSql(`create trigger invoice_snapshots_append_only before update or delete on "invoice_snapshots" for each row execute function invoice_snapshots_append_only();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists invoice_snapshots_append_only on "invoice_snapshots";`);
    this.addSql(`drop function if exists invoice_snapshots_append_only();`);
    this.addSql(`alter table "invoice_snapshots" drop constraint "invoice_snapshots_stored_invoice_id_foreign";`);

    this.addSql(`drop table if exists "stored_invoices" cascade;`);

    this.addSql(`drop table if exists "invoice_snapshots" cascade;`);
  }

}
