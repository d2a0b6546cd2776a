import { Migration } from '@mikro-orm/migrations';

/**
 * Qualification kept up to date with its rules (docs/network-qualification.md, "How it is stored"): each stored
 * invoice notes the version of the rules its current snapshot's qualification was computed by (0: before this
 * migration, so every invoice is qualified again at its connection's next sync); and a snapshot, append-only, lets an
 * UPDATE through when it changes what is derived from it and nothing else (its qualification and cross-invoice facts), so an
 * invoice unchanged at the source is qualified again without a new snapshot. Adding a column with a constant default
 * rewrites no row; replacing the trigger function takes no lock on the table.
 */
export class Migration20261127120000_qualification_rules extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "stored_invoices" add column "qualification_rules" smallint not null default 0;`);
    this.addSql(`create or replace function invoice_snapshots_append_only() returns trigger language plpgsql as $$ begin
      if tg_op = 'UPDATE'
         and (new.qualification is distinct from old.qualification or new.cross_invoice_facts::text is distinct from old.cross_invoice_facts::text)
         and (to_jsonb(new) - 'qualification' - 'cross_invoice_facts') = (to_jsonb(old) - 'qualification' - 'cross_invoice_facts') then
        return new;
      end if;
      raise exception 'invoice_snapshots is append-only (% refused)', tg_op using errcode = 'restrict_violation'; end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`create or replace function invoice_snapshots_append_only() returns trigger language plpgsql as $$ begin raise exception 'invoice_snapshots is append-only (% refused)', tg_op using errcode = 'restrict_violation'; end $$;`);
    this.addSql(`alter table "stored_invoices" drop column "qualification_rules";`);
  }

}
