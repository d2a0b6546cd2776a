import { Migration } from '@mikro-orm/migrations';

export class Migration20261123093839_ledger_reconcile extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "ledger_source_records" add column "seen_by_run_id" uuid null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "ledger_source_records" drop column "seen_by_run_id";`);
  }

}
