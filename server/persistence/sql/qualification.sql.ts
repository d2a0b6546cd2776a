import { sql } from 'kysely';
import { crossInvoiceInputOf, type CrossInvoiceFacts, type WindowInvoice } from '../../domain/qualification/cross-invoice-risks.js';
import type { QualificationLevel, RiskFinding } from '../../domain/qualification/fields.js';
import type {
  CrossInvoiceRiskStore,
  FixPreparation,
  FixInvoice,
  LevelGroup,
  QualificationFilter,
} from '../../domain/qualification/ports.js';
import { ledgerInvoiceIdOf } from '../../domain/qualification/qualify.js';
import type { StoredInvoiceContext } from '../../domain/qualification/stored-form.js';
import type { Database } from '../kysely.js';

/*
 * Statements of network qualification (docs/network-qualification.md, "Where it shows"): the window of stored invoices
 * the cross-invoice rules read and the findings they write, and the operator's monthly figures and fixes.
 */

/**
 * The connection's stored invoices (not deleted, with a mapped invoice) issued at or after `since`, or imported since
 * then when the source gives no date, in source id order (findings come in list order), with what the rules read of
 * their current snapshot: its `cross_invoice_facts`, or, for a snapshot mapped before those were kept or before they
 * held product codes, its mapped invoice and confirmed mappings (picking the fields out of it in PostgreSQL, a JSON
 * object per line, took twice as long as reading it). Those are read by a second statement, for those snapshots only:
 * telling the facts' forms apart in the first would parse every window snapshot's facts once more.
 */
export async function crossInvoiceWindow(db: Database, connectionId: string, since: Date): Promise<WindowInvoice[]> {
  const rows = await db
    .selectFrom('stored_invoices as si')
    .innerJoin('invoice_snapshots as s', 's.id', 'si.currentSnapshotId')
    .select(['si.ledgerInvoiceId', 's.id as snapshotId', sql<CrossInvoiceFacts | null>`s.cross_invoice_facts`.as('facts')])
    .where('si.connection', '=', connectionId)
    .where('si.deleted', '=', false)
    // Facts are kept only with a mapped invoice; `content` is read (and decompressed) only where there are none.
    .where(sql<boolean>`(s.cross_invoice_facts is not null or jsonb_typeof(s.content -> 'invoice') = 'object')`)
    .where(
      sql`coalesce((case when s.cross_invoice_facts is null then s.content -> 'invoice' ->> 'issuedAt'
                         else s.cross_invoice_facts ->> 'issuedAt' end)::timestamptz, si.created_at)`,
      '>=',
      since.toISOString(),
    )
    .orderBy('si.ledgerInvoiceId')
    .execute();
  const inputs = rows.map((r) => (r.facts ? crossInvoiceInputOf(r.ledgerInvoiceId, r.facts) : null));
  const older = rows.filter((_, i) => inputs[i] === null).map((r) => r.snapshotId);
  const mapped = new Map<string, Pick<WindowInvoice, 'invoice' | 'mappings'>>();
  if (older.length > 0) {
    const { rows: snapshots } = await sql<{
      id: string;
      invoice: WindowInvoice['invoice'];
      mappings: WindowInvoice['mappings'];
    }>`select s.id, s.content -> 'invoice' as invoice, s.mappings from invoice_snapshots s where s.id = any(${older}::uuid[])`.execute(db);
    for (const s of snapshots) mapped.set(s.id, { invoice: s.invoice, mappings: s.mappings });
  }
  return rows.map((r, i) => inputs[i] ?? { ledgerInvoiceId: r.ledgerInvoiceId, ...mapped.get(r.snapshotId)! });
}

/**
 * Store each invoice's cross-invoice findings: the listed ones get theirs, every other invoice of the connection none.
 * Only rows whose findings change are written (`null`, never computed, counts as none).
 */
export async function writeCrossInvoiceRisks(
  db: Database,
  connectionId: string,
  findings: ReadonlyMap<string, readonly RiskFinding[]>,
): Promise<number> {
  const rows = JSON.stringify([...findings].map(([ledgerInvoiceId, list]) => ({ ledger_invoice_id: ledgerInvoiceId, findings: list })));
  const { rows: written } = await sql<{
    n: number;
  }>`with v as (select * from jsonb_to_recordset(${rows}::jsonb) as v(ledger_invoice_id text, findings jsonb)),
     changed as (
       update stored_invoices si set cross_invoice_risks = coalesce(v.findings, '[]'::jsonb)
         from stored_invoices s2 left join v on v.ledger_invoice_id = s2.ledger_invoice_id
        where s2.id = si.id and si.connection_id = ${connectionId}
          and coalesce(si.cross_invoice_risks, '[]'::jsonb) is distinct from coalesce(v.findings, '[]'::jsonb)
       returning 1
     )
     select count(*)::int as n from changed`.execute(db);
  return written[0]?.n ?? 0;
}

/**
 * Preparations counted and their evidence net amounts summed per UTC month, qualification level, currency and evidence
 * fact key, from the evidence ledger's `preparation_evidence` projection (one narrow row per preparation, which carries
 * the level the preparation recorded): the state of each key, and so what is verified, is decided by the evidence
 * domain, never here.
 */
export async function qualificationLevelGroups(db: Database, filter: QualificationFilter): Promise<LevelGroup[]> {
  const { organizationId, integrationId } = filter;
  const rows = await db
    .selectFrom('preparation_evidence as e')
    .select((eb) => [
      'e.month',
      eb.ref('e.qualificationLevel').$castTo<QualificationLevel | null>().as('level'),
      'e.currency',
      'e.factKey',
      sql<number>`count(*)::int`.as('count'),
      // A sum of bigints is a numeric, which the driver reads as a string: exact, converted to a bigint below. Not
      // aliased `netMinor`: the result names of the query's entities' properties are converted by their types.
      sql<string>`sum(e.net_minor)::text`.as('netSum'),
    ])
    .where('e.createdAt', '>=', filter.from)
    .where('e.createdAt', '<', filter.to)
    .$if(organizationId !== undefined, (q) => q.where('e.organizationId', '=', organizationId!))
    .$if(integrationId !== undefined, (q) => q.where('e.integrationId', '=', integrationId!))
    .groupBy(['e.month', 'e.qualificationLevel', 'e.currency', 'e.factKey'])
    .execute();
  return rows.map(({ netSum, ...r }) => ({ ...r, netMinor: BigInt(netSum) }));
}

/**
 * What `qualification.fixes` reads (the domain ranks the fixes: `fixGroupsOf`): the preparations in the filter, and
 * once each, their invoices as they stand now: the current snapshot's stored qualification with its stored invoice,
 * confirmed mappings and source id where its form names missing fields from them (stored-form.ts; the mapped invoice
 * is read only for those), and the invoice's cross-invoice findings. Invoices deleted at the source, or whose current
 * snapshot has no qualification, are not read: nothing there to fix.
 */
export async function qualificationFixInputs(
  db: Database,
  filter: QualificationFilter,
): Promise<{ preparations: FixPreparation[]; invoices: Map<string, FixInvoice> }> {
  const { organizationId, integrationId } = filter;
  const ofOrganization = organizationId === undefined ? sql`` : sql` and p.organization_id = ${organizationId}`;
  const ofIntegration = integrationId === undefined ? sql`` : sql` and p.integration_id = ${integrationId}`;
  const { rows: preparations } = await sql<{
    id: string;
    provider: FixPreparation['provider'];
    currency: string;
    /** A bigint: the driver reads it as a string. */
    amount_minor: string;
    stored_invoice_id: string;
    created_at: string;
  }>`select p.id, p.provider, p.currency, p.amount_minor::text as amount_minor, p.stored_invoice_id, p.created_at::text as created_at
       from preparations p
      where p.created_at >= ${filter.from.toISOString()} and p.created_at < ${filter.to.toISOString()}${ofOrganization}${ofIntegration}`.execute(
    db,
  );
  // Each invoice once, by the ids just read (not the preparations read again).
  const invoiceIds = [...new Set(preparations.map((p) => p.stored_invoice_id))];
  const { rows: invoices } = await sql<{
    id: string;
    ledger_invoice_id: string;
    snapshot_id: string;
    qualification: FixInvoice['qualification'];
    invoice: StoredInvoiceContext['invoice'] | null;
    mappings: StoredInvoiceContext['mappings'];
    cross_invoice_risks: RiskFinding[] | null;
  }>`select si.id, si.ledger_invoice_id, s.id as snapshot_id, s.qualification,
            case when s.qualification ? 'missingAt' then s.content -> 'invoice' end as invoice, s.mappings, si.cross_invoice_risks
       from stored_invoices si join invoice_snapshots s on s.id = si.current_snapshot_id
      where si.id = any(${invoiceIds}::uuid[]) and not si.deleted and s.qualification is not null`.execute(db);
  return {
    preparations: preparations.map((p) => ({
      id: p.id,
      provider: p.provider,
      currency: p.currency,
      amountMinor: BigInt(p.amount_minor),
      storedInvoiceId: p.stored_invoice_id,
      createdAt: new Date(p.created_at),
    })),
    invoices: new Map(
      invoices.map((v) => [
        v.id,
        {
          storedInvoiceId: v.id,
          ledgerInvoiceId: v.ledger_invoice_id,
          snapshotId: v.snapshot_id,
          qualification: v.qualification,
          context: v.invoice && { ledgerInvoiceId: ledgerInvoiceIdOf(v.ledger_invoice_id), invoice: v.invoice, mappings: v.mappings },
          crossInvoiceRisks: v.cross_invoice_risks ?? [],
        },
      ]),
    ),
  };
}

/** The domain's `CrossInvoiceRiskStore` on `db` (the caller's transaction). */
export function crossInvoiceRiskStore(db: Database): CrossInvoiceRiskStore {
  return {
    window: (connectionId, since) => crossInvoiceWindow(db, connectionId, since),
    write: (connectionId, findings) => writeCrossInvoiceRisks(db, connectionId, findings),
  };
}
