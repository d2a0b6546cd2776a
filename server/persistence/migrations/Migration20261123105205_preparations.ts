import { Migration } from '@mikro-orm/migrations';

export class Migration20261123105205_preparations extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "preparations" ("id" uuid not null, "organization_id" uuid not null, "integration_id" uuid not null, "environment" text check ("environment" in ('sandbox', 'production')) not null, "provider" text check ("provider" in ('gwa', 'gwb', 'gwc', 'ledger')) not null, "kind" varchar(32) not null, "stored_invoice_id" uuid not null, "snapshot_id" uuid not null, "revision" varchar(64) not null, "source_integration_id" uuid not null, "connection_id" uuid not null, "source_connection_id" varchar(64) not null, "checked_through" timestamptz not null, "amount_minor" bigint not null, "currency" varchar(3) not null, "idempotency_key" varchar(160) not null, "fingerprint" varchar(64) not null, "mode" varchar(16) not null, "data" jsonb not null, "created_at" timestamptz not null, constraint "preparations_pkey" primary key ("id"));`);
    this.addSql(`create index "preparations_stored_invoice_id_created_at_index" on "preparations" ("stored_invoice_id", "created_at");`);
    this.addSql(`alter table "preparations" add constraint "preparations_integration_id_idempotency_key_unique" unique ("integration_id", "idempotency_key");`);

    this.addSql(`alter table "preparations" add constraint "preparations_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);
    this.addSql(`alter table "preparations" add constraint "preparations_integration_id_foreign" foreign key ("integration_id") references "integrations" ("id") on update cascade;`);
    this.addSql(`alter table "preparations" add constraint "preparations_stored_invoice_id_foreign" foreign key ("stored_invoice_id") references "stored_invoices" ("id") on update cascade;`);
    this.addSql(`alter table "preparations" add constraint "preparations_snapshot_id_foreign" foreign key ("snapshot_id") references "invoice_snapshots" ("id") on update cascade;`);
    this.addSql(`alter table "preparations" add constraint "preparations_source_integration_id_foreign" foreign key ("source_integration_id") references "integrations" ("id") on update cascade;`);
    this.addSql(`alter table "preparations" add constraint "preparations_connection_id_foreign" foreign key ("connection_id") references "ledger_connections" ("id") on update cascade;`);

    // Preparations are immutable evidence that payment reports name (docs/decisions.md, "Invoice-backed preparation").
    this.addSql(`create function preparations_append_only() returns trigger language plpgsql as $$ begin raise exception 'preparations is append-only (% refused)', tg_op using errcode = 'restrict_violation'; end $$;`);
    this.addSql(`create trigger preparations_append_only before update or delete on "preparations" for each row execute function preparations_append_only();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists preparations_append_only on "preparations";`);
    this.addSql(`drop function if exists preparations_append_only();`);
    this.addSql(`drop table if exists "preparations" cascade;`);
  }

}
