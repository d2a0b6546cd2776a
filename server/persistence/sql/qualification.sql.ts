import { sql as raw } from 'kysely';
import type { ConfirmedMapping, StoredInvoice } from '../../../contract/invoices.js';
import type { RiskFinding } from '../../domain/qualification/fields.js';
import type { CrossInvoiceRiskStore, FixGroup, LevelGroup, QualificationFilter, WindowInvoice } from '../../domain/qualification/ports.js';
import { db, run } from '../db/query.js';
import type { Sql } from './sql.js';

/*
 * Statements of network qualification (docs/network-qualification.md, "Where it shows"): the window of stored invoices
 * the cross-invoice rules read and the findings they write, and the operator's monthly figures and fixes.
 */

/**
 * The connection's stored invoices (not deleted, with a mapped invoice) issued at or after `since`, or imported since
 * then when the source gives no date, in source id order (findings come in list order).
 */
export async function crossInvoiceWindow(sql: Sql, connectionId: string, since: Date): Promise<WindowInvoice[]> {
  const rows = await run(
    sql,
    db
      .selectFrom('stored_invoices as si')
      .innerJoin('invoice_snapshots as s', 's.id', 'si.current_snapshot_id')
      .select(['si.ledger_invoice_id', raw<StoredInvoice>`s.content -> 'invoice'`.as('invoice'), 's.mappings'])
      .where('si.connection_id', '=', connectionId)
      .where('si.deleted', '=', false)
      .where(raw`jsonb_typeof(s.content -> 'invoice')`, '=', 'object')
      .where(raw`coalesce((s.content -> 'invoice' ->> 'issuedAt')::timestamptz, si.created_at)`, '>=', since.toISOString())
      .orderBy('si.ledger_invoice_id'),
  );
  return rows.map((r) => ({
    ledgerInvoiceId: r.ledger_invoice_id,
    invoice: r.invoice,
    mappings: r.mappings as readonly ConfirmedMapping[],
  }));
}

/**
 * Store each invoice's cross-invoice findings: the listed ones get theirs, every other invoice of the connection none.
 * Only rows whose findings change are written (`null`, never computed, counts as none).
 */
export async function writeCrossInvoiceRisks(
  sql: Sql,
  connectionId: string,
  findings: ReadonlyMap<string, readonly RiskFinding[]>,
): Promise<number> {
  const rows = JSON.stringify([...findings].map(([ledgerInvoiceId, list]) => ({ ledger_invoice_id: ledgerInvoiceId, findings: list })));
  const [written] = await sql<{ n: number }>(
    `with v as (select * from jsonb_to_recordset(?::jsonb) as v(ledger_invoice_id text, findings jsonb)),
     changed as (
       update stored_invoices si set cross_invoice_risks = coalesce(v.findings, '[]'::jsonb)
         from stored_invoices s2 left join v on v.ledger_invoice_id = s2.ledger_invoice_id
        where s2.id = si.id and si.connection_id = ?
          and coalesce(si.cross_invoice_risks, '[]'::jsonb) is distinct from coalesce(v.findings, '[]'::jsonb)
       returning 1
     )
     select count(*)::int as n from changed`,
    [rows, connectionId],
  );
  return written?.n ?? 0;
}

/**
 * Preparations counted and their evidence net amounts summed per UTC month, qualification level, currency and evidence
 * fact key, from the evidence ledger's `preparation_evidence` projection (one narrow row per preparation, which carries
 * the level the preparation recorded): the state of each key, and so what is verified, is decided by the evidence
 * domain, never here.
 */
export async function qualificationLevelGroups(sql: Sql, filter: QualificationFilter): Promise<LevelGroup[]> {
  const { organizationId, integrationId } = filter;
  const groupColumns = ['e.month', 'e.qualification_level', 'e.currency', 'e.fact_key'] as const;
  const rows = await run(
    sql,
    db
      .selectFrom('preparation_evidence as e')
      .select(groupColumns)
      .select((eb) => [eb.fn.countAll<string>().as('count'), eb.cast<string>(eb.fn.sum('e.net_minor'), 'text').as('net_minor')])
      .where('e.created_at', '>=', filter.from.toISOString())
      .where('e.created_at', '<', filter.to.toISOString())
      .$if(organizationId !== undefined, (q) => q.where('e.organization_id', '=', organizationId!))
      .$if(integrationId !== undefined, (q) => q.where('e.integration_id', '=', integrationId!))
      .groupBy(groupColumns),
  );
  return rows.map((r) => ({
    month: r.month,
    level: r.qualification_level as LevelGroup['level'],
    currency: r.currency,
    factKey: Number(r.fact_key),
    count: Number(r.count),
    netMinor: BigInt(r.net_minor),
  }));
}

/**
 * Source fixes of the preparations in the filter: from each preparation's pinned snapshot, for its provider, the
 * missing fields the source does not hold and the risk findings, each with the source record and field to fix; per fix
 * and currency, the preparations it holds back and the sum of their amounts (a preparation counts once per fix), the
 * largest first.
 */
export async function qualificationFixGroups(sql: Sql, filter: QualificationFilter & { limit: number }): Promise<FixGroup[]> {
  const { organizationId, integrationId } = filter;
  const params: unknown[] = [filter.from.toISOString(), filter.to.toISOString()];
  let where = '';
  if (organizationId !== undefined) {
    where += ' and p.organization_id = ?';
    params.push(organizationId);
  }
  if (integrationId !== undefined) {
    where += ' and p.integration_id = ?';
    params.push(integrationId);
  }
  params.push(filter.limit);
  const rows = await sql<{
    kind: 'missing' | 'risk';
    code: string;
    object_type: string;
    external_id: string;
    field: string;
    currency: string;
    preparations: number;
    amount_minor: string;
  }>(
    `with fix as (
       select distinct p.id, p.currency, p.amount_minor, f.kind, f.code, f.source ->> 'objectType' as object_type,
              f.source ->> 'externalId' as external_id, f.source ->> 'field' as field
         from preparations p
         join invoice_snapshots s on s.id = p.snapshot_id
         cross join lateral (
           select 'missing' as kind, m ->> 'field' as code, m -> 'source' as source
             from jsonb_array_elements(coalesce(s.qualification -> p.provider -> 'missing', '[]'::jsonb)) m
            where m ->> 'reason' = 'not_in_source'
           union all
           select 'risk', r ->> 'code', r -> 'source'
             from jsonb_array_elements(coalesce(s.qualification -> p.provider -> 'risks', '[]'::jsonb)) r
         ) f
        where p.created_at >= ? and p.created_at < ?${where} and jsonb_typeof(f.source) = 'object'
     )
     select kind, code, object_type, external_id, field, currency, count(*)::int as preparations, sum(amount_minor)::text as amount_minor
       from fix
      group by kind, code, object_type, external_id, field, currency
      order by sum(amount_minor) desc, count(*) desc, object_type, external_id, field, code, currency
      limit ?`,
    params,
  );
  return rows.map((r) => ({
    kind: r.kind,
    code: r.code,
    source: { objectType: r.object_type as FixGroup['source']['objectType'], externalId: r.external_id, field: r.field },
    currency: r.currency,
    preparations: r.preparations,
    amountMinor: BigInt(r.amount_minor),
  }));
}

/** The domain's `CrossInvoiceRiskStore` on `sql` (the caller's transaction). */
export function crossInvoiceRiskStore(sql: Sql): CrossInvoiceRiskStore {
  return {
    window: (connectionId, since) => crossInvoiceWindow(sql, connectionId, since),
    write: (connectionId, findings) => writeCrossInvoiceRisks(sql, connectionId, findings),
  };
}
