import { Migration } from '@mikro-orm/migrations';

/**
 * Every stored invoice has a snapshot, and it is its own: `current_snapshot_id` is not null, and a constraint trigger
 * checks at commit that it names a snapshot of that invoice. Deferred, because the write batch inserts the invoice row
 * and its snapshot in one statement and, when a revision comes back to an earlier snapshot, points the row at that
 * snapshot in a second statement of the same transaction; so the check reads the row as it is at commit, not the
 * version that queued it. Snapshots are append-only, so the check cannot be undone later.
 */
export class Migration20261126083700_invoice_snapshot_required extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "stored_invoices" alter column "current_snapshot_id" set not null;`);
    this.addSql(`create function stored_invoices_snapshot_exists() returns trigger language plpgsql as $$ begin
      if exists (select 1 from stored_invoices si where si.id = new.id and not exists (
          select 1 from invoice_snapshots s where s.id = si.current_snapshot_id and s.stored_invoice_id = si.id)) then
        raise exception 'stored invoice % has no snapshot of its own', new.id using errcode = 'foreign_key_violation';
      end if;
      return null;
    end $$;`);
    this.addSql(`create constraint trigger stored_invoices_snapshot_exists after insert or update of current_snapshot_id on "stored_invoices" deferrable initially deferred for each row execute function stored_invoices_snapshot_exists();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists stored_invoices_snapshot_exists on "stored_invoices";`);
    this.addSql(`drop function if exists stored_invoices_snapshot_exists();`);
    this.addSql(`alter table "stored_invoices" alter column "current_snapshot_id" drop not null;`);
  }

}
