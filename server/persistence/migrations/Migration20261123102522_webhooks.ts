import { Migration } from '@mikro-orm/migrations';

export class Migration20261123102522_webhooks extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "webhook_endpoints" ("id" uuid not null, "organization_id" uuid not null, "integration_id" uuid not null, "environment" text check ("environment" in ('sandbox', 'production')) not null, "status" text check ("status" in ('active', 'disabled')) not null default 'active', "public_key" varchar(64) null, "private_key_enc" text null, "previous_public_key" varchar(64) null, "previous_private_key_enc" text null, "previous_valid_until" timestamptz null, "credentials_updated_at" timestamptz null, "disabled_at" timestamptz null, "created_at" timestamptz not null, constraint "webhook_endpoints_pkey" primary key ("id"));`);
    this.addSql(`create index "webhook_endpoints_integration_id_created_at_index" on "webhook_endpoints" ("integration_id", "created_at");`);

    this.addSql(`create table "webhook_events" ("id" uuid not null, "organization_id" uuid not null, "integration_id" uuid not null, "environment" text check ("environment" in ('sandbox', 'production')) not null, "endpoint_id" uuid not null, "kind" varchar(80) not null, "notification_at" timestamptz not null, "subject_type" varchar(80) not null, "subject_id" varchar(160) not null, "status" varchar(32) not null, "subject" jsonb not null, "issues" jsonb null, "observation_id" uuid null, "tracked_payment_id" uuid null, "request_id" varchar(64) not null, "created_at" timestamptz not null, constraint "webhook_events_pkey" primary key ("id"));`);
    this.addSql(`create index "webhook_events_created_at_id_index" on "webhook_events" ("created_at", "id");`);
    this.addSql(`alter table "webhook_events" add constraint "webhook_events_endpoint_id_kind_notification_at_s_3a0c8_unique" unique ("endpoint_id", "kind", "notification_at", "subject_id");`);

    this.addSql(`alter table "webhook_endpoints" add constraint "webhook_endpoints_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);
    this.addSql(`alter table "webhook_endpoints" add constraint "webhook_endpoints_integration_id_foreign" foreign key ("integration_id") references "integrations" ("id") on update cascade;`);

    this.addSql(`alter table "webhook_events" add constraint "webhook_events_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);
    this.addSql(`alter table "webhook_events" add constraint "webhook_events_integration_id_foreign" foreign key ("integration_id") references "integrations" ("id") on update cascade;`);
    this.addSql(`alter table "webhook_events" add constraint "webhook_events_endpoint_id_foreign" foreign key ("endpoint_id") references "webhook_endpoints" ("id") on update cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_events" drop constraint "webhook_events_endpoint_id_foreign";`);

    this.addSql(`drop table if exists "webhook_endpoints" cascade;`);

    this.addSql(`drop table if exists "webhook_events" cascade;`);
  }

}
