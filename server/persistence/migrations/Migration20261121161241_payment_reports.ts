import { Migration } from '@mikro-orm/migrations';

export class Migration20261121161241_payment_reports extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "enrichment_records" ("id" uuid not null, "request_id" varchar(64) not null, "organization_id" uuid not null, "integration_id" uuid not null, "environment" text check ("environment" in ('sandbox', 'production')) not null, "provider" text check ("provider" in ('gwa', 'gwb', 'gwc', 'ledger')) not null, "amount_minor" bigint not null, "currency" varchar(3) not null, "invoice_number" varchar(160) not null, "created_at" timestamptz not null, constraint "enrichment_records_pkey" primary key ("id"));`);
    this.addSql(`alter table "enrichment_records" add constraint "enrichment_records_request_id_unique" unique ("request_id");`);
    this.addSql(`create index "enrichment_records_integration_id_index" on "enrichment_records" ("integration_id");`);

    this.addSql(`create table "tracked_payments" ("id" uuid not null, "organization_id" uuid not null, "integration_id" uuid not null, "environment" text check ("environment" in ('sandbox', 'production')) not null, "provider" text check ("provider" in ('gwa', 'gwb', 'gwc', 'ledger')) not null, "attempt_id" varchar(160) not null, "provider_payment_id" varchar(160) null, "account_id" varchar(160) null, "charge_id" varchar(160) null, "order_id" varchar(160) null, "status" varchar(32) null, "currency" varchar(3) null, "amount_minor" bigint null, "captured_amount_minor" bigint null, "refunded_amount_minor" bigint null, "occurred_at" timestamptz null, "current_observation_id" uuid null, "enrichment_request_id" varchar(64) null, "observation_count" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "tracked_payments_pkey" primary key ("id"));`);
    this.addSql(`create index "tracked_payments_organization_id_status_index" on "tracked_payments" ("organization_id", "status");`);
    this.addSql(`alter table "tracked_payments" add constraint "tracked_payments_integration_id_environment_attempt_id_unique" unique ("integration_id", "environment", "attempt_id");`);
    this.addSql(`alter table "tracked_payments" add constraint "tracked_payments_integration_id_environment_provi_09b9a_unique" unique ("integration_id", "environment", "provider_payment_id");`);

    this.addSql(`create table "payment_observations" ("id" uuid not null, "organization_id" uuid not null, "integration_id" uuid not null, "environment" text check ("environment" in ('sandbox', 'production')) not null, "provider" text check ("provider" in ('gwa', 'gwb', 'gwc', 'ledger')) not null, "event_id" varchar(160) not null, "payload_hash" varchar(64) not null, "payload" jsonb not null, "tracked_payment_id" uuid not null, "attempt_id" varchar(160) not null, "status" varchar(32) not null, "currency" varchar(3) not null, "amount_minor" bigint not null, "captured_amount_minor" bigint not null, "refunded_amount_minor" bigint not null, "occurred_at" timestamptz not null, "request_id" varchar(64) not null, "received_at" timestamptz not null, constraint "payment_observations_pkey" primary key ("id"));`);
    this.addSql(`create index "payment_observations_tracked_payment_id_index" on "payment_observations" ("tracked_payment_id");`);
    this.addSql(`alter table "payment_observations" add constraint "payment_observations_organization_id_integration__bc7f5_unique" unique ("organization_id", "integration_id", "environment", "event_id");`);

    this.addSql(`create table "correlation_exceptions" ("id" uuid not null, "organization_id" uuid not null, "integration_id" uuid not null, "environment" text check ("environment" in ('sandbox', 'production')) not null, "observation_id" uuid not null, "enrichment_request_id" varchar(64) not null, "kind" text check ("kind" in ('amount_mismatch', 'currency_mismatch')) not null, "expected" varchar(64) not null, "observed" varchar(64) not null, "created_at" timestamptz not null, constraint "correlation_exceptions_pkey" primary key ("id"));`);
    this.addSql(`create index "correlation_exceptions_observation_id_index" on "correlation_exceptions" ("observation_id");`);
    this.addSql(`create index "correlation_exceptions_organization_id_created_at_index" on "correlation_exceptions" ("organization_id", "created_at");`);

    this.addSql(`alter table "enrichment_records" add constraint "enrichment_records_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);
    this.addSql(`alter table "enrichment_records" add constraint "enrichment_records_integration_id_foreign" foreign key ("integration_id") references "integrations" ("id") on update cascade;`);

    this.addSql(`alter table "tracked_payments" add constraint "tracked_payments_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);
    this.addSql(`alter table "tracked_payments" add constraint "tracked_payments_integration_id_foreign" foreign key ("integration_id") references "integrations" ("id") on update cascade;`);

    this.addSql(`alter table "payment_observations" add constraint "payment_observations_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);
    this.addSql(`alter table "payment_observations" add constraint "payment_observations_integration_id_foreign" foreign key ("integration_id") references "integrations" ("id") on update cascade;`);
    this.addSql(`alter table "payment_observations" add constraint "payment_observations_tracked_payment_id_foreign" foreign key ("tracked_payment_id") references "tracked_payments" ("id") on update cascade;`);

    this.addSql(`alter table "correlation_exceptions" add constraint "correlation_exceptions_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);
    this.addSql(`alter table "correlation_exceptions" add constraint "correlation_exceptions_integration_id_foreign" foreign key ("integration_id") references "integrations" ("id") on update cascade;`);
    this.addSql(`alter table "correlation_exceptions" add constraint "correlation_exceptions_observation_id_foreign" foreign key ("observation_id") references "payment_observations" ("id") on update cascade;`);

    // Observations are immutable history (spec: Payment report, persistence
    // semantics): the database itself refuses any UPDATE or DELETE of a row.
    this.addSql(`create function payment_observations_append_only() returns trigger language plpgsql as $$ begin raise exception 'payment_observations is append-only (% refused)', tg_op using errcode = 'restrict_violation'; end $$;`);
    this.addSql(`create trigger payment_observations_append_only before update or delete on "payment_observations" for each row execute function payment_observations_append_only();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists payment_observations_append_only on "payment_observations";`);
    this.addSql(`drop function if exists payment_observations_append_only();`);
    this.addSql(`alter table "payment_observations" drop constraint "payment_observations_tracked_payment_id_foreign";`);

    this.addSql(`alter table "correlation_exceptions" drop constraint "correlation_exceptions_observation_id_foreign";`);

    this.addSql(`drop table if exists "enrichment_records" cascade;`);

    this.addSql(`drop table if exists "tracked_payments" cascade;`);

    this.addSql(`drop table if exists "payment_observations" cascade;`);

    this.addSql(`drop table if exists "correlation_exceptions" cascade;`);
  }

}
