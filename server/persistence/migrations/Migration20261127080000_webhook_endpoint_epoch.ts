import { Migration } from '@mikro-orm/migrations';

/**
 * A delivery's endpoint is cached per auth epoch, as key records are (server/domain/webhooks/endpoint-directory.ts):
 * every change to what a delivery's verdict reads of its endpoint row moves the epoch in the changing transaction.
 * Its organization and integration already move it (migration auth_epoch). The endpoint's refusal notes and
 * `credentials_updated_at` change no verdict, so they do not.
 */
export class Migration20261127080000_webhook_endpoint_epoch extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create trigger webhook_endpoints_auth_epoch after insert or delete or update of "organization_id", "integration_id", "environment", "status", "public_key", "private_key_enc", "previous_public_key", "previous_private_key_enc", "previous_valid_until" on "webhook_endpoints" for each statement execute function auth_epoch_bump();`);
    this.addSql(`create trigger webhook_endpoints_auth_epoch_truncate after truncate on "webhook_endpoints" for each statement execute function auth_epoch_bump();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists webhook_endpoints_auth_epoch_truncate on "webhook_endpoints";`);
    this.addSql(`drop trigger if exists webhook_endpoints_auth_epoch on "webhook_endpoints";`);
  }

}
