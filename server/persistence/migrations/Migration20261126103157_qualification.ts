import { Migration } from '@mikro-orm/migrations';

/**
 * Network qualification where it shows (docs/network-qualification.md, "Where it shows"): the qualification of each
 * snapshot, computed when it was mapped (`null` for snapshots mapped before); the cross-invoice risk findings of each
 * stored invoice, recomputed over its connection's window; the level of the pinned snapshot's provider output on each
 * preparation, and on its evidence projection row so `qualification.summary` reads one narrow row per preparation.
 * Adding nullable columns rewrites no row (the append-only triggers do not fire on DDL).
 */
export class Migration20261126103157_qualification extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "invoice_snapshots" add column "qualification" jsonb null;`);
    this.addSql(`alter table "stored_invoices" add column "cross_invoice_risks" jsonb null;`);
    this.addSql(`alter table "preparations" add column "qualification_level" varchar(16) null;`);
    this.addSql(`alter table "preparation_evidence" add column "qualification_level" varchar(16) null;`);
    // As Migration20261125191500_preparation_evidence's, plus the level the preparation recorded.
    this.addSql(`create or replace function preparation_evidence_on_preparation() returns trigger language plpgsql as $$
      begin
        insert into preparation_evidence (preparation_id, organization_id, integration_id, provider, created_at, month, currency, fact_key, net_minor, qualification_level)
        select n.id, n.organization_id, n.integration_id, n.provider, n.created_at, to_char(n.created_at at time zone 'UTC', 'YYYY-MM'),
               n.currency, case when n.mode = 'enhanced' then 1 else 0 end, 0, n.qualification_level
          from new_rows n
        on conflict (preparation_id) do nothing;
        return null;
      end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`create or replace function preparation_evidence_on_preparation() returns trigger language plpgsql as $$
      begin
        insert into preparation_evidence (preparation_id, organization_id, integration_id, provider, created_at, month, currency, fact_key, net_minor)
        select n.id, n.organization_id, n.integration_id, n.provider, n.created_at, to_char(n.created_at at time zone 'UTC', 'YYYY-MM'),
               n.currency, case when n.mode = 'enhanced' then 1 else 0 end, 0
          from new_rows n
        on conflict (preparation_id) do nothing;
        return null;
      end $$;`);
    this.addSql(`alter table "preparation_evidence" drop column "qualification_level";`);
    this.addSql(`alter table "preparations" drop column "qualification_level";`);
    this.addSql(`alter table "stored_invoices" drop column "cross_invoice_risks";`);
    this.addSql(`alter table "invoice_snapshots" drop column "qualification";`);
  }

}
