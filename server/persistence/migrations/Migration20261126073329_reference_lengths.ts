import { Migration } from '@mikro-orm/migrations';

/**
 * Source references (invoice ids and numbers, company ids, item ids) up to 160 characters, the spec's limit for
 * reference strings (Limits), so a long value the API accepts is stored or looked up, never cut or refused by a column.
 * Widening a varchar rewrites no row (the append-only triggers do not fire on DDL).
 */
export class Migration20261126073329_reference_lengths extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "ledger_invitations" alter column "realm_id" type varchar(160) using ("realm_id"::varchar(160));`);

    this.addSql(`alter table "ledger_connections" alter column "realm_id" type varchar(160) using ("realm_id"::varchar(160));`);

    this.addSql(`alter table "ledger_source_records" alter column "source_id" type varchar(160) using ("source_id"::varchar(160));`);

    this.addSql(`alter table "item_mappings" alter column "source_item_id" type varchar(160) using ("source_item_id"::varchar(160));`);

    this.addSql(`alter table "stored_invoices" alter column "ledger_invoice_id" type varchar(160) using ("ledger_invoice_id"::varchar(160));`);
    this.addSql(`alter table "stored_invoices" alter column "invoice_number" type varchar(160) using ("invoice_number"::varchar(160));`);

    this.addSql(`alter table "preparations" alter column "source_connection_id" type varchar(160) using ("source_connection_id"::varchar(160));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "item_mappings" alter column "source_item_id" type varchar(64) using ("source_item_id"::varchar(64));`);

    this.addSql(`alter table "ledger_connections" alter column "realm_id" type varchar(64) using ("realm_id"::varchar(64));`);

    this.addSql(`alter table "ledger_invitations" alter column "realm_id" type varchar(64) using ("realm_id"::varchar(64));`);

    this.addSql(`alter table "ledger_source_records" alter column "source_id" type varchar(64) using ("source_id"::varchar(64));`);

    this.addSql(`alter table "preparations" alter column "source_connection_id" type varchar(64) using ("source_connection_id"::varchar(64));`);

    this.addSql(`alter table "stored_invoices" alter column "ledger_invoice_id" type varchar(64) using ("ledger_invoice_id"::varchar(64));`);
    this.addSql(`alter table "stored_invoices" alter column "invoice_number" type varchar(64) using ("invoice_number"::varchar(64));`);
  }

}
