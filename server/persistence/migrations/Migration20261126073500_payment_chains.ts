import { Migration } from '@mikro-orm/migrations';

/**
 * One definition of the payment that stands for a preparation (docs/evidence.md, "The chain of one preparation"). A
 * provisional payment merged into the merchant's (`merged_into_id`) never stands for anything again; the payment it
 * was merged into owns its observations. Two views say so, and every reader of evidence (`preparation_evidence_facts`,
 * the first captures of `evidence.list`, `preparations.unconfirmed`, `payments.*`) reads them:
 *
 * - `payment_chain_observations`: each observation under the payment it counts for, its own and, for an observation
 *   of a merged payment, also the payment it was merged into (`chain_payment_id`). Two branches so that a lookup by
 *   `chain_payment_id` uses the index of each side (observations by payment, payments by `merged_into_id`).
 * - `payment_chains`: the payments that were not merged away, each with `verified_capture` over its chain's
 *   observations.
 *
 * A survivor that named no enrichment takes the one its merged payment named (`svc_preparation_id` metadata); rows
 * merged before this migration get it here, and every projection is recomputed from the corrected view.
 */
export class Migration20261126073500_payment_chains extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create view "payment_chain_observations" as
      select o.*, o.tracked_payment_id as chain_payment_id from payment_observations o
      union all
      select o.*, m.merged_into_id as chain_payment_id
        from tracked_payments m join payment_observations o on o.tracked_payment_id = m.id
       where m.merged_into_id is not null;`);
    this.addSql(`create view "payment_chains" as
      select t.*,
             exists (select 1 from payment_chain_observations o
                      where o.chain_payment_id = t.id and o.evidence = 'provider_verified' and o.captured_amount_minor > 0) as verified_capture
        from tracked_payments t
       where t.merged_into_id is null;`);
    this.addSql(`create or replace view "preparation_evidence_facts" as
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
                 coalesce(t.verified_capture, false) as verified_capture,
                 coalesce(t.amount_minor = p.amount_minor, false) as amount_matches,
                 coalesce(t.currency = p.currency, false) as currency_matches
            from preparations p
            left join lateral (
              select t.* from payment_chains t
               where t.integration_id = p.integration_id and t.environment = p.environment
                 and lower(t.enrichment_request_id) = p.id::text
               order by t.verified_capture desc, coalesce(t.captured_amount_minor, 0) > 0 desc, t.created_at desc, t.id
               limit 1) t on true
        ) f;`);
    // An observation counts for its own payment's preparation and, when that payment was merged, for the survivor's.
    this.addSql(`create or replace function preparation_evidence_on_observation() returns trigger language plpgsql as $$
      begin
        perform preparation_evidence_refresh(lower(x.enrichment_request_id))
           from (select t.enrichment_request_id from tracked_payments t where t.id = new.tracked_payment_id
                 union
                 select s.enrichment_request_id from tracked_payments t join tracked_payments s on s.id = t.merged_into_id
                  where t.id = new.tracked_payment_id) x;
        return null;
      end $$;`);
    // The payment trigger refreshes on a change of merged_into_id too (the merged payment leaves its preparation).
    this.addSql(`update tracked_payments s set enrichment_request_id = m.enrichment_request_id
                   from tracked_payments m
                  where m.merged_into_id = s.id and s.enrichment_request_id is null and m.enrichment_request_id is not null;`);
    this.addSql(`insert into preparation_evidence (preparation_id, organization_id, integration_id, provider, created_at, month, currency, fact_key, net_minor)
      select f.id, f.organization_id, f.integration_id, f.provider, f.created_at, to_char(f.created_at at time zone 'UTC', 'YYYY-MM'),
             coalesce(f.payment_currency, f.currency), f.fact_key, f.captured_minor - f.refunded_minor
        from preparation_evidence_facts f
      on conflict (preparation_id) do update
        set currency = excluded.currency, fact_key = excluded.fact_key, net_minor = excluded.net_minor;`);
  }

  override async down(): Promise<void> {
    this.addSql(`create or replace function preparation_evidence_on_observation() returns trigger language plpgsql as $$
      begin
        perform preparation_evidence_refresh(lower(t.enrichment_request_id)) from tracked_payments t where t.id = new.tracked_payment_id;
        return null;
      end $$;`);
    this.addSql(`create or replace view "preparation_evidence_facts" as
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
    this.addSql(`drop view "payment_chains";`);
    this.addSql(`drop view "payment_chain_observations";`);
  }

}
