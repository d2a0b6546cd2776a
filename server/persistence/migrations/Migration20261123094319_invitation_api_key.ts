import { Migration } from '@mikro-orm/migrations';

export class Migration20261123094319_invitation_api_key extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "ledger_invitations" add column "api_key_id" uuid null;`);
    this.addSql(`create index "ledger_invitations_api_key_id_created_at_index" on "ledger_invitations" ("api_key_id", "created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "ledger_invitations_api_key_id_created_at_index";`);
    this.addSql(`alter table "ledger_invitations" drop column "api_key_id";`);
  }

}
