import { Migration } from '@mikro-orm/migrations';

/**
 * What the cross-invoice rules read of each snapshot, kept beside its mapped invoice (docs/network-qualification.md,
 * "How it is stored"): the pass over a connection's window after a sync reads this narrow `json` text instead of every
 * window invoice's whole mapped invoice. Snapshots mapped before have none (the column is nullable, no row is
 * rewritten, and the append-only trigger does not fire on DDL); the window reads their `content`.
 */
export class Migration20261127000000_cross_invoice_facts extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "invoice_snapshots" add column "cross_invoice_facts" json null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "invoice_snapshots" drop column "cross_invoice_facts";`);
  }

}
