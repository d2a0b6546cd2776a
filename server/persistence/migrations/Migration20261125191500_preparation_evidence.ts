import { Migration } from '@mikro-orm/migrations';

/**
 * The evidence facts of every preparation (docs/evidence.md, "Facts") as one view, the only definition of them, and a
 * projection of it maintained in the same transaction as every write that can change them (a preparation saved, a
 * payment's projection written, an observation or a correlation exception recorded), so `evidence.summary` reads one
 * narrow row per preparation instead of following each chain (docs/performance.md, "Evidence").
 *
 * `fact_key` packs the facts as bits, in the order of `BITS` in server/domain/evidence/evidence-state.ts: enhanced 1,
 * exception 2, payment 4, captured 8, verified capture 16, amount matches 32, currency matches 64. The state of a key
 * is decided there, never here.
 */
export class Migration20261125191500_preparation_evidence extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create view "preparation_evidence_facts" as
      select f.*,
             (case when f.enhanced then 1 else 0 end) + (case when f.exception then 2 else 0 end) + (case when f.payment then 4 else 0 end)
           + (case when f.captured then 8 else 0 end) + (case when f.verified_capture then 16 else 0 end)
           + (case when f.amount_matches then 32 else 0 end) + (case when f.currency_matches then 64 else 0 end) as fact_key
        from (
          select p.id, p.organization_id, p.integration_id, p.environment, p.provider, p.mode, p.amount_minor, p.currency,
                 p.created_at, p.stored_invoice_id, p.snapshot_id, p.revision,
                 t.id as payment_id, t.attempt_id, t.provider_payment_id, t.status as payment_status,
                 t.amount_minor as payment_amount_minor, t.currency as payment_currency,
                 coalesce(t.captured_amount_minor, 0) as captured_minor, coalesce(t.refunded_amount_minor, 0) as refunded_minor,
                 p.mode = 'enhanced' as enhanced,
                 exists (select 1 from correlation_exceptions c
                          where c.integration_id = p.integration_id and c.environment = p.environment
                            and lower(c.enrichment_request_id) = p.id::text) as exception,
                 t.id is not null as payment,
                 coalesce(t.captured_amount_minor, 0) > 0 as captured,
                 coalesce(t.verified, false) as verified_capture,
                 coalesce(t.amount_minor = p.amount_minor, false) as amount_matches,
                 coalesce(t.currency = p.currency, false) as currency_matches
            from preparations p
            left join lateral (
              select t.*, exists (select 1 from payment_observations o
                                   where o.tracked_payment_id = t.id and o.evidence = 'provider_verified' and o.captured_amount_minor > 0) as verified
                from tracked_payments t
               where t.integration_id = p.integration_id and t.environment = p.environment
                 and lower(t.enrichment_request_id) = p.id::text
               order by verified desc, coalesce(t.captured_amount_minor, 0) > 0 desc, t.created_at desc, t.id
               limit 1) t on true
        ) f;`);
    this.addSql(`create table "preparation_evidence" ("preparation_id" uuid not null, "organization_id" uuid not null, "integration_id" uuid not null, "provider" varchar(8) not null, "created_at" timestamptz not null, "month" varchar(7) not null, "currency" varchar(3) not null, "fact_key" smallint not null, "net_minor" bigint not null, constraint "preparation_evidence_pkey" primary key ("preparation_id"));`);
    this.addSql(`create index "preparation_evidence_organization_id_created_at_index" on "preparation_evidence" ("organization_id", "created_at");`);
    this.addSql(`create index "preparation_evidence_integration_id_created_at_index" on "preparation_evidence" ("integration_id", "created_at");`);
    // One preparation's row from the view. The transaction-scoped lock makes a concurrent refresh of the same
    // preparation wait for this transaction's end, and its next statement then sees what this one wrote.
    this.addSql(`create function preparation_evidence_refresh(prep text) returns void language plpgsql as $$
      begin
        if prep is null or prep !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then return; end if;
        perform pg_advisory_xact_lock(hashtextextended('preparation_evidence:' || prep, 0));
        insert into preparation_evidence (preparation_id, organization_id, integration_id, provider, created_at, month, currency, fact_key, net_minor)
        select f.id, f.organization_id, f.integration_id, f.provider, f.created_at, to_char(f.created_at at time zone 'UTC', 'YYYY-MM'),
               coalesce(f.payment_currency, f.currency), f.fact_key, f.captured_minor - f.refunded_minor
          from preparation_evidence_facts f where f.id = prep::uuid
        on conflict (preparation_id) do update
          set currency = excluded.currency, fact_key = excluded.fact_key, net_minor = excluded.net_minor;
      end $$;`);
    // New preparations, per statement (the group-committed insert writes many): a preparation has no payment and no
    // exception when it is saved (a report or event can name it only once it is committed), so its facts are its mode
    // alone, exactly what the view gives for it, without the view's lookups on the hot insert.
    this.addSql(`create function preparation_evidence_on_preparation() returns trigger language plpgsql as $$
      begin
        insert into preparation_evidence (preparation_id, organization_id, integration_id, provider, created_at, month, currency, fact_key, net_minor)
        select n.id, n.organization_id, n.integration_id, n.provider, n.created_at, to_char(n.created_at at time zone 'UTC', 'YYYY-MM'),
               n.currency, case when n.mode = 'enhanced' then 1 else 0 end, 0
          from new_rows n
        on conflict (preparation_id) do nothing;
        return null;
      end $$;`);
    this.addSql(`create function preparation_evidence_on_payment() returns trigger language plpgsql as $$
      begin
        perform preparation_evidence_refresh(lower(new.enrichment_request_id));
        if tg_op = 'UPDATE' and old.enrichment_request_id is distinct from new.enrichment_request_id then
          perform preparation_evidence_refresh(lower(old.enrichment_request_id));
        end if;
        return null;
      end $$;`);
    this.addSql(`create function preparation_evidence_on_observation() returns trigger language plpgsql as $$
      begin
        perform preparation_evidence_refresh(lower(t.enrichment_request_id)) from tracked_payments t where t.id = new.tracked_payment_id;
        return null;
      end $$;`);
    this.addSql(`create function preparation_evidence_on_exception() returns trigger language plpgsql as $$
      begin perform preparation_evidence_refresh(lower(new.enrichment_request_id)); return null; end $$;`);
    this.addSql(`create trigger preparation_evidence_refresh after insert on "preparations" referencing new table as new_rows for each statement execute function preparation_evidence_on_preparation();`);
    // Only payments that name an enrichment, and only observations that can make a capture provider-verified, can move
    // a preparation's facts (every other fact of a payment is on its tracked_payments row): the WHEN clauses keep the
    // payment-report hot path free of the refresh for everything else.
    this.addSql(`create trigger preparation_evidence_refresh after insert on "tracked_payments" for each row when (new.enrichment_request_id is not null) execute function preparation_evidence_on_payment();`);
    this.addSql(`create trigger preparation_evidence_refresh_update after update on "tracked_payments" for each row when (new.enrichment_request_id is not null or old.enrichment_request_id is not null) execute function preparation_evidence_on_payment();`);
    this.addSql(`create trigger preparation_evidence_refresh after insert on "payment_observations" for each row when (new.evidence = 'provider_verified' and new.captured_amount_minor > 0) execute function preparation_evidence_on_observation();`);
    this.addSql(`create trigger preparation_evidence_refresh after insert on "correlation_exceptions" for each row execute function preparation_evidence_on_exception();`);
    this.addSql(`insert into preparation_evidence (preparation_id, organization_id, integration_id, provider, created_at, month, currency, fact_key, net_minor)
      select f.id, f.organization_id, f.integration_id, f.provider, f.created_at, to_char(f.created_at at time zone 'UTC', 'YYYY-MM'),
             coalesce(f.payment_currency, f.currency), f.fact_key, f.captured_minor - f.refunded_minor
        from preparation_evidence_facts f;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger preparation_evidence_refresh on "correlation_exceptions";`);
    this.addSql(`drop trigger preparation_evidence_refresh on "payment_observations";`);
    this.addSql(`drop trigger preparation_evidence_refresh_update on "tracked_payments";`);
    this.addSql(`drop trigger preparation_evidence_refresh on "tracked_payments";`);
    this.addSql(`drop trigger preparation_evidence_refresh on "preparations";`);
    this.addSql(`drop function preparation_evidence_on_exception(), preparation_evidence_on_observation(), preparation_evidence_on_payment(), preparation_evidence_on_preparation(), preparation_evidence_refresh(text);`);
    this.addSql(`drop table "preparation_evidence";`);
    this.addSql(`drop view "preparation_evidence_facts";`);
  }

}
