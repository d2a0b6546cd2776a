import { Migration } from '@mikro-orm/migrations';

export class Migration20261123102342_item_mappings extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "item_mappings" ("id" uuid not null, "organization_id" uuid not null, "integration_id" uuid not null, "environment" text check ("environment" in ('sandbox', 'production')) not null, "connection_id" uuid not null, "source_item_id" varchar(64) not null, "product_code" varchar(12) not null, "unit_of_measure" varchar(12) not null, "commodity_code" varchar(12) null, "version" int not null, "evidence" text not null, "approved_by" varchar(200) not null, "approved_at" timestamptz not null, "revoked_at" timestamptz null, constraint "item_mappings_pkey" primary key ("id"));`);
    this.addSql(`alter table "item_mappings" add constraint "item_mappings_connection_id_source_item_id_version_unique" unique ("connection_id", "source_item_id", "version");`);

    this.addSql(`alter table "item_mappings" add constraint "item_mappings_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);
    this.addSql(`alter table "item_mappings" add constraint "item_mappings_integration_id_foreign" foreign key ("integration_id") references "integrations" ("id") on update cascade;`);
    this.addSql(`alter table "item_mappings" add constraint "item_mappings_connection_id_foreign" foreign key ("connection_id") references "ledger_connections" ("id") on update cascade;`);

    this.addSql(`alter table "ledger_connections" add column "purchase_order_field" varchar(100) null, add column "settings_version" int not null default 1;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "item_mappings" cascade;`);

    this.addSql(`alter table "ledger_connections" drop column "purchase_order_field", drop column "settings_version";`);
  }

}
