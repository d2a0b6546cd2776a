import { Migration } from '@mikro-orm/migrations';

/**
 * gwc provider events (docs/gwc-events.md): a delivered event is recorded once per endpoint by its event id; an
 * endpoint keeps when it last took a delivery and its last refusal with the reason, for the operator's review of a
 * missing confirmation. A gwc endpoint's signing secret lives in the encrypted secret columns of the gwa private key.
 */
export class Migration20261125180000_gwc_webhooks extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_endpoints" add column "last_refusal_at" timestamptz null, add column "last_refusal_code" varchar(40) null, add column "last_refusal_message" varchar(200) null;`);
    this.addSql(`alter table "webhook_events" add column "provider_event_id" varchar(160) null;`);
    this.addSql(`alter table "webhook_events" add constraint "webhook_events_endpoint_id_provider_event_id_unique" unique ("endpoint_id", "provider_event_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_events" drop constraint "webhook_events_endpoint_id_provider_event_id_unique";`);
    this.addSql(`alter table "webhook_events" drop column "provider_event_id";`);
    this.addSql(`alter table "webhook_endpoints" drop column "last_refusal_at", drop column "last_refusal_code", drop column "last_refusal_message";`);
  }

}
