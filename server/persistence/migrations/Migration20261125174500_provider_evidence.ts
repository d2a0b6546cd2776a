import { Migration } from '@mikro-orm/migrations';

/**
 * Provider evidence and merchant reports of one payment link through the provider's payment identity
 * (docs/payment-reports.md, "Provider identity links"): an observation records whether it came from a verified
 * provider delivery or a merchant's report, and a payment first seen through provider evidence carries a
 * provisional attempt id that the merchant's own attemptId replaces when it reports the same provider payment, or,
 * when that attemptId already names a payment, which is merged into it (`merged_into_id`: its observations then
 * count as the other payment's; observations themselves never move).
 */
export class Migration20261125174500_provider_evidence extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "tracked_payments" add column "attempt_provisional" boolean not null default false, add column "merged_into_id" uuid null;`);
    this.addSql(`create index "tracked_payments_merged_into_id_index" on "tracked_payments" ("merged_into_id");`);
    this.addSql(`alter table "payment_observations" add column "evidence" text check ("evidence" in ('merchant_report', 'provider_verified')) not null default 'merchant_report';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "payment_observations" drop column "evidence";`);
    this.addSql(`alter table "tracked_payments" drop column "attempt_provisional", drop column "merged_into_id";`);
  }

}
