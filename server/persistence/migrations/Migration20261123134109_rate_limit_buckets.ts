import { Migration } from '@mikro-orm/migrations';

export class Migration20261123134109_rate_limit_buckets extends Migration {

  override async up(): Promise<void> {
    // Unlogged: a lease's commit waits for no WAL flush. After a crash of PostgreSQL the buckets start full again,
    // which a rate limit (a protection, not accounting) can afford (docs/decisions.md).
    this.addSql(`create unlogged table "rate_limit_buckets" ("api_key_id" uuid not null, "tokens" double precision not null, "last_grant" int not null, "refilled_at" timestamptz not null, constraint "rate_limit_buckets_pkey" primary key ("api_key_id"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "rate_limit_buckets" cascade;`);
  }

}
