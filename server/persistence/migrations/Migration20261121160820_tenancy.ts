import { Migration } from '@mikro-orm/migrations';

export class Migration20261121160820_tenancy extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "organizations" ("id" uuid not null, "name" varchar(200) not null, "status" text check ("status" in ('active', 'inactive')) not null default 'active', "created_at" timestamptz not null, constraint "organizations_pkey" primary key ("id"));`);

    this.addSql(`create table "integrations" ("id" uuid not null, "organization_id" uuid not null, "provider" text check ("provider" in ('gwa', 'gwb', 'gwc', 'ledger')) not null, "environment" text check ("environment" in ('sandbox', 'production')) not null, "created_at" timestamptz not null, constraint "integrations_pkey" primary key ("id"));`);
    this.addSql(`create index "integrations_organization_id_index" on "integrations" ("organization_id");`);

    this.addSql(`create table "integration_links" ("id" uuid not null, "ledger_integration_id" uuid not null, "provider_integration_id" uuid not null, "created_at" timestamptz not null, constraint "integration_links_pkey" primary key ("id"));`);
    this.addSql(`create index "integration_links_provider_integration_id_index" on "integration_links" ("provider_integration_id");`);
    this.addSql(`alter table "integration_links" add constraint "integration_links_ledger_integration_id_provider__39ef8_unique" unique ("ledger_integration_id", "provider_integration_id");`);

    this.addSql(`create table "api_keys" ("id" uuid not null, "integration_id" uuid not null, "prefix" varchar(32) not null, "secret_hash" varchar(64) not null, "scopes" text[] not null, "created_at" timestamptz not null, "last_used_at" timestamptz null, "revoked_at" timestamptz null, constraint "api_keys_pkey" primary key ("id"));`);
    this.addSql(`create index "api_keys_integration_id_index" on "api_keys" ("integration_id");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_prefix_unique" unique ("prefix");`);

    this.addSql(`alter table "integrations" add constraint "integrations_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);

    this.addSql(`alter table "integration_links" add constraint "integration_links_ledger_integration_id_foreign" foreign key ("ledger_integration_id") references "integrations" ("id") on update cascade;`);
    this.addSql(`alter table "integration_links" add constraint "integration_links_provider_integration_id_foreign" foreign key ("provider_integration_id") references "integrations" ("id") on update cascade;`);

    this.addSql(`alter table "api_keys" add constraint "api_keys_integration_id_foreign" foreign key ("integration_id") references "integrations" ("id") on update cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "integrations" drop constraint "integrations_organization_id_foreign";`);

    this.addSql(`alter table "integration_links" drop constraint "integration_links_ledger_integration_id_foreign";`);

    this.addSql(`alter table "integration_links" drop constraint "integration_links_provider_integration_id_foreign";`);

    this.addSql(`alter table "api_keys" drop constraint "api_keys_integration_id_foreign";`);

    this.addSql(`drop table if exists "organizations" cascade;`);

    this.addSql(`drop table if exists "integrations" cascade;`);

    this.addSql(`drop table if exists "integration_links" cascade;`);

    this.addSql(`drop table if exists "api_keys" cascade;`);
  }

}
