import { Migration } from '@mikro-orm/migrations';

export class Migration20261121164540_ledger extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "ledger_invitations" ("id" uuid not null, "organization_id" uuid not null, "integration_id" uuid not null, "environment" text check ("environment" in ('sandbox', 'production')) not null, "recipient_email" varchar(254) not null, "secret_hash" varchar(64) not null, "status" text check ("status" in ('pending', 'sent', 'failed', 'consumed')) not null default 'pending', "expires_at" timestamptz not null, "state_hash" varchar(64) null, "state_expires_at" timestamptz null, "realm_id" varchar(64) null, "created_at" timestamptz not null, "sent_at" timestamptz null, "consumed_at" timestamptz null, constraint "ledger_invitations_pkey" primary key ("id"));`);
    this.addSql(`alter table "ledger_invitations" add constraint "ledger_invitations_secret_hash_unique" unique ("secret_hash");`);
    this.addSql(`alter table "ledger_invitations" add constraint "ledger_invitations_state_hash_unique" unique ("state_hash");`);
    this.addSql(`create index "ledger_invitations_integration_id_recipient_email__9c08f_index" on "ledger_invitations" ("integration_id", "recipient_email", "created_at");`);

    this.addSql(`create table "ledger_connections" ("id" uuid not null, "organization_id" uuid not null, "integration_id" uuid not null, "environment" text check ("environment" in ('sandbox', 'production')) not null, "realm_id" varchar(64) not null, "company_name" varchar(200) null, "status" text check ("status" in ('active', 'paused', 'disconnected', 'reauthorization_required')) not null default 'active', "access_token_enc" text not null, "refresh_token_enc" text not null, "access_token_expires_at" timestamptz not null, "refresh_token_expires_at" timestamptz null, "checked_through" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "ledger_connections_pkey" primary key ("id"));`);
    this.addSql(`alter table "ledger_connections" add constraint "ledger_connections_integration_id_realm_id_unique" unique ("integration_id", "realm_id");`);

    this.addSql(`create table "ledger_sync_runs" ("id" uuid not null, "connection_id" uuid not null, "workflow_run_id" uuid not null, "state" text check ("state" in ('queued', 'running', 'succeeded', 'failed')) not null default 'queued', "mode" text check ("mode" in ('historical', 'incremental', 'full')) not null, "full_reconciliation" boolean not null, "period_start" timestamptz null, "period_end" timestamptz null, "entities" jsonb not null, "error" jsonb null, "attempts" int not null default 0, "created_at" timestamptz not null, "started_at" timestamptz null, "completed_at" timestamptz null, constraint "ledger_sync_runs_pkey" primary key ("id"));`);
    this.addSql(`create index "ledger_sync_runs_connection_id_created_at_index" on "ledger_sync_runs" ("connection_id", "created_at");`);
    this.addSql(`create index "ledger_sync_runs_state_index" on "ledger_sync_runs" ("state");`);

    this.addSql(`create table "ledger_source_records" ("id" uuid not null, "connection_id" uuid not null, "entity_type" varchar(32) not null, "source_id" varchar(64) not null, "sync_token" varchar(32) null, "last_updated_at" timestamptz null, "deleted" boolean not null default false, "payload" jsonb not null, "sync_run_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "ledger_source_records_pkey" primary key ("id"));`);
    this.addSql(`alter table "ledger_source_records" add constraint "ledger_source_records_connection_id_entity_type_s_d2942_unique" unique ("connection_id", "entity_type", "source_id");`);

    this.addSql(`alter table "ledger_invitations" add constraint "ledger_invitations_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);
    this.addSql(`alter table "ledger_invitations" add constraint "ledger_invitations_integration_id_foreign" foreign key ("integration_id") references "integrations" ("id") on update cascade;`);

    this.addSql(`alter table "ledger_connections" add constraint "ledger_connections_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);
    this.addSql(`alter table "ledger_connections" add constraint "ledger_connections_integration_id_foreign" foreign key ("integration_id") references "integrations" ("id") on update cascade;`);

    this.addSql(`alter table "ledger_sync_runs" add constraint "ledger_sync_runs_connection_id_foreign" foreign key ("connection_id") references "ledger_connections" ("id") on update cascade;`);

    this.addSql(`alter table "ledger_source_records" add constraint "ledger_source_records_connection_id_foreign" foreign key ("connection_id") references "ledger_connections" ("id") on update cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "ledger_sync_runs" drop constraint "ledger_sync_runs_connection_id_foreign";`);

    this.addSql(`alter table "ledger_source_records" drop constraint "ledger_source_records_connection_id_foreign";`);

    this.addSql(`drop table if exists "ledger_invitations" cascade;`);

    this.addSql(`drop table if exists "ledger_connections" cascade;`);

    this.addSql(`drop table if exists "ledger_sync_runs" cascade;`);

    this.addSql(`drop table if exists "ledger_source_records" cascade;`);
  }

}
