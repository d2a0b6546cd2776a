import { Migration } from '@mikro-orm/migrations';

/**
 * A preparation's `data` is stored as the exact JSON text of the first answer (`json`, not `jsonb`): nothing queries
 * inside it, a replay returns it whole, and `jsonb` reordered its keys, so a replay's `data` was not byte for byte
 * the first answer's. Rows already saved keep their values (the text of their `jsonb`). docs/performance.md,
 * "The preparation's INSERT and read".
 */
export class Migration20261123161000_preparation_data_json extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "preparations" alter column "data" type json using "data"::json;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "preparations" alter column "data" type jsonb using "data"::jsonb;`);
  }

}
