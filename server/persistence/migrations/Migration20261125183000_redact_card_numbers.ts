import { Migration } from '@mikro-orm/migrations';
import { redactStoredCardNumbers } from '../redact-stored-card-numbers.js';
import { sqlOf } from '../sql/sql.js';

/**
 * Data only: no card number stays in storage from imports made before the import
 * redacted them (docs/decisions.md, "Card numbers stored by earlier versions").
 * Source records are redacted with the importer's own function, the invoices read
 * from them are mapped again and carry `card_data_in_source`, and older snapshots,
 * invoice numbers and preparations are redacted in place.
 */
export class Migration20261125183000_redact_card_numbers extends Migration {

  override async up(): Promise<void> {
    // Snapshots and preparations are append-only evidence (a trigger refuses UPDATE); rewriting the ones holding a
    // card number is the one exception, so the triggers are off only inside this migration's transaction: a failure
    // rolls the ALTERs back with the rest, and the lock they take keeps every other writer out meanwhile.
    await this.execute(`alter table "invoice_snapshots" disable trigger "invoice_snapshots_append_only"`);
    await this.execute(`alter table "preparations" disable trigger "preparations_append_only"`);
    await redactStoredCardNumbers(sqlOf(this.getEntityManager()), { now: new Date() });
    await this.execute(`alter table "invoice_snapshots" enable trigger "invoice_snapshots_append_only"`);
    await this.execute(`alter table "preparations" enable trigger "preparations_append_only"`);
  }

  override async down(): Promise<void> {
    // Nothing to undo: the numbers removed are not kept anywhere, by design.
  }

}
