import { Migration } from '@mikro-orm/migrations';

/**
 * One counter that every change able to alter an API key's verdict moves (a key revoked or re-scoped, an
 * integration, organization or ledger link changed), in the changing transaction itself. Processes cache key
 * records per epoch and compare it on every request, so a change made through any process or plain SQL is
 * seen by the very next request (docs/decisions.md, "Key cache").
 */
export class Migration20261123140000_auth_epoch extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "auth_epoch" ("id" boolean not null default true, "value" bigint not null, constraint "auth_epoch_pkey" primary key ("id"));`);
    this.addSql(`insert into "auth_epoch" ("id", "value") values (true, 0);`);
    this.addSql(`create function auth_epoch_bump() returns trigger language plpgsql as $$ begin update "auth_epoch" set "value" = "value" + 1; return null; end $$;`);
    // Last use (last_used_at) is written by authentication itself and changes no verdict, so it does not bump.
    this.addSql(`create trigger api_keys_auth_epoch after insert or delete or update of "revoked_at", "scopes", "secret_hash", "prefix", "integration_id" on "api_keys" for each statement execute function auth_epoch_bump();`);
    this.addSql(`create trigger api_keys_auth_epoch_truncate after truncate on "api_keys" for each statement execute function auth_epoch_bump();`);
    for (const table of ['integrations', 'organizations', 'integration_links']) {
      this.addSql(`create trigger ${table}_auth_epoch after insert or update or delete or truncate on "${table}" for each statement execute function auth_epoch_bump();`);
    }
  }

  override async down(): Promise<void> {
    for (const table of ['integrations', 'organizations', 'integration_links']) this.addSql(`drop trigger if exists ${table}_auth_epoch on "${table}";`);
    this.addSql(`drop trigger if exists api_keys_auth_epoch_truncate on "api_keys";`);
    this.addSql(`drop trigger if exists api_keys_auth_epoch on "api_keys";`);
    this.addSql(`drop function if exists auth_epoch_bump();`);
    this.addSql(`drop table if exists "auth_epoch";`);
  }

}
