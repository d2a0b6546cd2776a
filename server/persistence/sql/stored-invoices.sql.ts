import type { MappedWrite } from '../../domain/invoices/ports-import.js';
import { sql, type ExpressionBuilder } from 'kysely';
import type { InvoiceStatus } from '../../../contract/canonical-invoice.js';
import type { CategorizedIssue, ConnectionStatus } from '../../../contract/common/index.js';
import type { ConfirmedMapping, SourceObjectType, StoredInvoice } from '../../../contract/invoices.js';
import type { InvoiceListFilters, InvoiceVisibility } from '../../domain/invoices/ports.js';
import type { InvoiceState, StoredInvoiceState, StoredSourceRecord } from '../../domain/invoices/types.js';
import type { RiskFinding } from '../../domain/qualification/fields.js';
import type { TenantScope } from '../../domain/tenant-scope.js';
import type { Database, Db } from '../kysely.js';

/**
 * `= any(…)` of a list bound as one JSON array (`any(array(select jsonb_array_elements_text(?::jsonb)))`): a list bound
 * as separate values would make a statement text per length, and an empty list would not be valid SQL.
 */
const anyOf = (values: readonly string[]) => sql<string>`any(array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)))`;

/** Source records of one entity type of a connection: all of them, or those with the given source ids. */
export async function sourceRecordsOf(
  db: Database,
  connectionId: string,
  entityType: string,
  sourceIds?: readonly string[],
): Promise<StoredSourceRecord[]> {
  return db
    .selectFrom('ledger_source_records')
    .select(['id', 'sourceId', 'syncToken', 'deleted', 'payload'])
    .where('connection', '=', connectionId)
    .where('entityType', '=', entityType)
    .$if(sourceIds !== undefined, (q) => q.where('sourceId', '=', anyOf(sourceIds!)))
    .orderBy('sourceId')
    .execute();
}

export async function storedStates(db: Database, connectionId: string, ledgerInvoiceIds: readonly string[]): Promise<StoredInvoiceState[]> {
  return db
    .selectFrom('stored_invoices')
    .select(['id', 'ledgerInvoiceId', 'revision', 'deleted', 'qualificationRules'])
    .where('connection', '=', connectionId)
    .where('ledgerInvoiceId', '=', anyOf(ledgerInvoiceIds))
    .execute();
}

/**
 * Write a batch of mapped invoices in one statement: the invoice rows (one per
 * connection and source id, created or updated to point at their new snapshot)
 * and the snapshots (immutable; a revision already stored is not written again),
 * from one JSON array parameter; then, only when a revision came back to an earlier
 * snapshot, a second statement points the invoice at the snapshot already stored.
 * A snapshot already stored under the revision takes the qualification and cross-invoice facts just computed (what
 * is derived from it, which the append-only trigger lets through): an invoice unchanged at the source is qualified
 * again by newer rules (`qualificationRules`, noted on the invoice) without a new snapshot.
 */
export async function writeMappedInvoices(
  db: Database,
  o: { scope: TenantScope; connectionId: string; rows: readonly MappedWrite[]; qualificationRules: number; now: Date },
) {
  if (o.rows.length === 0) return { snapshots: 0 };
  const { organizationId, integrationId, environment } = o.scope;
  const rows = JSON.stringify(
    o.rows.map((r) => ({
      id: r.id,
      snapshot_id: r.snapshotId,
      source_record_id: r.sourceRecordId,
      ledger_invoice_id: r.ledgerInvoiceId,
      invoice_number: r.invoiceNumber,
      status: r.status,
      currency: r.currency,
      total_amount_minor: r.totalAmountMinor,
      source_version: r.sourceVersion,
      revision: r.revision,
      mapper_version: r.mapperVersion,
      deleted: r.deleted,
      content: r.content,
      issues: r.issues,
      dependencies: r.dependencies,
      mappings: r.mappings,
      qualification: r.qualification,
      // As text, stored in a `json` column: one string to parse and keep, not a tree of values (docs/performance.md).
      cross_invoice_facts: JSON.stringify(r.crossInvoiceFacts),
    })),
  );
  // Only invoices stored already can have a snapshot of the revision: a batch of new invoices (a first import) skips it.
  const requalifying = o.rows.some((r) => r.stored);
  const requalify = requalifying
    ? sql`, requalified as (
       -- Sees the snapshots stored before this statement only: the revisions the insert above left alone. A data-modifying
       -- CTE runs whether or not the statement reads it.
       update invoice_snapshots s set qualification = v.qualification, cross_invoice_facts = v.cross_invoice_facts::json
         from v join invoices si on si.ledger_invoice_id = v.ledger_invoice_id
        where s.stored_invoice_id = si.id and s.revision = v.revision
          and (s.qualification is distinct from v.qualification or s.cross_invoice_facts::text is distinct from v.cross_invoice_facts)
     )`
    : sql``;
  const { rows: written } = await sql<{ snapshots: number }>`with v as (
       select * from jsonb_to_recordset(${rows}::jsonb) as v(id uuid, snapshot_id uuid, source_record_id uuid, ledger_invoice_id text,
         invoice_number text, status text, currency text, total_amount_minor bigint, source_version text, revision text,
         mapper_version text, deleted boolean, content jsonb, issues jsonb, dependencies jsonb, mappings jsonb, qualification jsonb,
         cross_invoice_facts text)
     ), invoices as (
       insert into stored_invoices (id, organization_id, integration_id, environment, connection_id, source_record_id, ledger_invoice_id,
         invoice_number, status, currency, total_amount_minor, source_version, revision, current_snapshot_id, deleted, qualification_rules, created_at, updated_at)
       select v.id, ${organizationId}, ${integrationId}, ${environment}, ${o.connectionId}, v.source_record_id, v.ledger_invoice_id, v.invoice_number, v.status, v.currency, v.total_amount_minor,
         v.source_version, v.revision, v.snapshot_id, v.deleted, ${o.qualificationRules}, ${o.now}, ${o.now} from v
       on conflict (connection_id, ledger_invoice_id) do update set source_record_id = excluded.source_record_id,
         invoice_number = excluded.invoice_number, status = excluded.status, currency = excluded.currency,
         total_amount_minor = excluded.total_amount_minor, source_version = excluded.source_version, revision = excluded.revision,
         current_snapshot_id = excluded.current_snapshot_id, deleted = excluded.deleted, qualification_rules = excluded.qualification_rules,
         updated_at = excluded.updated_at
       returning id, ledger_invoice_id
     ), snapshots as (
       insert into invoice_snapshots (id, organization_id, integration_id, environment, stored_invoice_id, revision, mapper_version,
         source_version, content, issues, dependencies, mappings, qualification, cross_invoice_facts, created_at)
       select v.snapshot_id, ${organizationId}, ${integrationId}, ${environment}, si.id, v.revision, v.mapper_version, v.source_version, v.content, v.issues, v.dependencies,
         v.mappings, v.qualification, v.cross_invoice_facts::json, ${o.now} from v join invoices si on si.ledger_invoice_id = v.ledger_invoice_id
       on conflict (stored_invoice_id, revision) do nothing
       returning id
     )${requalify}
     select count(*)::int as snapshots from snapshots`.execute(db);
  const snapshots = written[0]?.snapshots ?? 0;
  if (snapshots < o.rows.length) {
    // A revision seen before (for example a mapping revoked and confirmed back): point at the snapshot already stored.
    // The tables are not aliased: MikroORM's Kysely does not map the property names of an aliased UPDATE's table.
    await db
      .updateTable('stored_invoices')
      .from('invoice_snapshots')
      .set((eb) => ({ currentSnapshotId: eb.ref('invoice_snapshots.id') }))
      .where('stored_invoices.connection', '=', o.connectionId)
      .where('stored_invoices.ledgerInvoiceId', '=', anyOf(o.rows.map((r) => r.ledgerInvoiceId)))
      .whereRef('invoice_snapshots.storedInvoice', '=', 'stored_invoices.id')
      .whereRef('invoice_snapshots.revision', '=', 'stored_invoices.revision')
      .where((eb) => eb('stored_invoices.currentSnapshotId', 'is distinct from', eb.ref('invoice_snapshots.id')))
      .execute();
  }
  return { snapshots };
}

/**
 * Invoices whose current snapshot read one of these source items: the ones to map
 * again when an item changes at the source or its mapping changes.
 */
export async function invoicesDependingOnItems(
  db: Database,
  o: { connectionId: string; itemIds: readonly string[]; exceptWrittenByRun?: string },
): Promise<string[]> {
  if (o.itemIds.length === 0) return [];
  const { exceptWrittenByRun } = o;
  const rows = await db
    .selectFrom('stored_invoices as si')
    .innerJoin('invoice_snapshots as s', 's.id', 'si.currentSnapshotId')
    .select('si.ledgerInvoiceId')
    .where('si.connection', '=', o.connectionId)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom(sql`jsonb_array_elements(s.dependencies)`.as('d'))
          .select(sql.lit(1).as('one'))
          .where(sql`d->>'objectType'`, '=', 'Item')
          .where(sql`d->>'externalId'`, '=', anyOf(o.itemIds)),
      ),
    )
    // Invoices a run wrote were mapped after that run's items were stored: no need to map them again. Looked up per
    // invoice by the source record's whole unique key, as `invoicesOutOfStep` does (an `exists` became an anti-join that
    // read every record of the connection for each invoice).
    .$if(exceptWrittenByRun !== undefined, (q) =>
      q
        .leftJoinLateral(
          (eb) =>
            eb
              .selectFrom('ledger_source_records as r')
              .select(sql.lit(1).as('one'))
              .whereRef('r.connection', '=', 'si.connection')
              .where('r.entityType', '=', 'Invoice')
              .whereRef('r.sourceId', '=', 'si.ledgerInvoiceId')
              .where('r.syncRun', '=', exceptWrittenByRun!)
              .limit(1)
              .as('written'),
          (join) => join.onTrue(),
        )
        .where('written.one', 'is', null),
    )
    .execute();
  return rows.map((r) => r.ledgerInvoiceId);
}

/**
 * Source invoices whose stored invoice is missing or disagrees on deletion: to map (deletions, records imported before mapping).
 *
 * The stored invoice is looked up per source record by its whole unique key, as a lateral subquery with a limit. As a
 * plain join, a connection that the statistics have not seen yet (its first import, the table's statistics naming other
 * connections) was planned as a nested loop that read every stored invoice of the connection for each source record,
 * filtering on the invoice id: 33 s for an import of 20,000 (docs/performance.md, "A new connection's statistics").
 */
export async function invoicesOutOfStep(db: Database, connectionId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('ledger_source_records as r')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('stored_invoices as si')
          .select(['si.id', 'si.deleted'])
          .whereRef('si.connection', '=', 'r.connection')
          .whereRef('si.ledgerInvoiceId', '=', 'r.sourceId')
          .limit(1)
          .as('si'),
      (join) => join.onTrue(),
    )
    .select('r.sourceId')
    .where('r.connection', '=', connectionId)
    .where('r.entityType', '=', 'Invoice')
    .where((eb) => eb.or([eb('si.id', 'is', null), eb('si.deleted', '<>', eb.ref('r.deleted'))]))
    .execute();
  return rows.map((r) => r.sourceId);
}

/** Invoices of a connection (not deleted) whose qualification rules are older than `rules`: to qualify again. */
export async function invoicesQualifiedBefore(db: Database, connectionId: string, rules: number): Promise<string[]> {
  const rows = await db
    .selectFrom('stored_invoices')
    .select('ledgerInvoiceId')
    .where('connection', '=', connectionId)
    .where('deleted', '=', false)
    .where('qualificationRules', '<', rules)
    .execute();
  return rows.map((r) => r.ledgerInvoiceId);
}

/** Source invoices of a connection that a sync run did not write (unchanged at the source, or not in the run's period). */
export async function invoicesNotWrittenBy(db: Database, o: { connection: { id: string }; syncRunId: string }): Promise<string[]> {
  const rows = await db
    .selectFrom('ledger_source_records')
    .select('sourceId')
    .where('connection', '=', o.connection.id)
    .where('entityType', '=', 'Invoice')
    .where('syncRun', 'is distinct from', o.syncRunId)
    .execute();
  return rows.map((r) => r.sourceId);
}

/** Source ids of the records of one entity type that a sync run wrote (created, changed or marked deleted). */
export async function sourceIdsWrittenBy(
  db: Database,
  o: { connectionId: string; entityType: string; syncRunId: string },
): Promise<string[]> {
  const rows = await db
    .selectFrom('ledger_source_records')
    .select('sourceId')
    .where('connection', '=', o.connectionId)
    .where('entityType', '=', o.entityType)
    .where('syncRun', '=', o.syncRunId)
    .execute();
  return rows.map((r) => r.sourceId);
}

/**
 * A stored invoice with its current snapshot and what readiness needs of its connection, as a RAW statement returns it
 * (database column names and driver values: timestamps and bigints as strings, JSON parsed): `preparationContexts`
 * (preparations.sql.ts) is such a statement, one literal text, where the snapshot's JSON may be left out (null).
 * The typed reads below return `InvoiceState` itself.
 */
export interface InvoiceReadRow {
  id: string;
  integration_id: string;
  connection_id: string;
  source_record_id: string;
  ledger_invoice_id: string;
  invoice_number: string | null;
  status: string;
  currency: string | null;
  total_amount_minor: string | null;
  source_version: string | null;
  revision: string | null;
  deleted: boolean;
  created_at: string;
  realm_id: string;
  checked_through: string | null;
  connection_status: ConnectionStatus;
  /** A sync of the connection is queued or running. */
  sync_active: boolean;
  snapshot_id: string | null;
  mapper_version: string | null;
  content: unknown;
  issues: unknown;
  dependencies: unknown;
  mappings: unknown;
  /** Left out by `preparationContexts`. */
  qualification?: unknown;
  cross_invoice_risks?: unknown;
}

const NO_ISSUES: readonly CategorizedIssue[] = Object.freeze([]);

/** The domain's view of a raw read row (`InvoiceState`): property names, Dates, the contract's enums, amounts as numbers. */
export function invoiceStateOf(row: InvoiceReadRow): InvoiceState {
  return {
    id: row.id,
    integrationId: row.integration_id,
    connectionId: row.connection_id,
    realmId: row.realm_id,
    connectionStatus: row.connection_status,
    checkedThrough: row.checked_through === null ? null : new Date(row.checked_through),
    syncActive: row.sync_active,
    sourceRecordId: row.source_record_id,
    ledgerInvoiceId: row.ledger_invoice_id,
    invoiceNumber: row.invoice_number,
    status: row.status as InvoiceStatus,
    currency: row.currency,
    totalAmountMinor: row.total_amount_minor === null ? null : Number(row.total_amount_minor),
    sourceVersion: row.source_version,
    revision: row.revision,
    deleted: row.deleted,
    createdAt: new Date(row.created_at),
    snapshotId: row.snapshot_id,
    mapperVersion: row.mapper_version,
    invoice: ((row.content as { invoice?: unknown } | null)?.invoice ?? null) as StoredInvoice | null,
    issues: (row.issues ?? NO_ISSUES) as readonly CategorizedIssue[],
    dependencies: (row.dependencies ?? []) as InvoiceState['dependencies'],
    mappings: (row.mappings ?? []) as InvoiceState['mappings'],
    qualification: (row.qualification ?? null) as InvoiceState['qualification'],
    crossInvoiceRisks: (row.cross_invoice_risks ?? null) as InvoiceState['crossInvoiceRisks'],
  };
}

/** A query reading a stored invoice `si` with its connection `c` and current snapshot `s` (left joined). */
type ReadTables = Db & { si: Db['stored_invoices']; c: Db['ledger_connections']; s: Db['invoice_snapshots'] };

/**
 * The columns of an `InvoiceState` (aliases `si`: the stored invoice, `c`: its connection, `s`: its current snapshot):
 * the selected names and values are the domain's, so no row is mapped. The snapshot's JSON is typed as the domain
 * reads it (the mapper wrote it); a missing snapshot (a left join) reads as no invoice and empty lists.
 */
const readColumns = (eb: ExpressionBuilder<ReadTables, 'si' | 'c' | 's'>) =>
  [
    'si.id',
    'si.integration as integrationId',
    'si.connection as connectionId',
    'c.realmId',
    'c.status as connectionStatus',
    'c.checkedThrough',
    eb
      .exists(
        eb
          .selectFrom('ledger_sync_runs as r')
          .select(sql.lit(1).as('one'))
          .whereRef('r.connection', '=', 'c.id')
          .where('r.state', 'in', ['queued', 'running']),
      )
      .$castTo<boolean>()
      .as('syncActive'),
    'si.sourceRecord as sourceRecordId',
    'si.ledgerInvoiceId',
    'si.invoiceNumber',
    eb.ref('si.status').$castTo<InvoiceStatus>().as('status'),
    'si.currency',
    'si.totalAmountMinor',
    'si.sourceVersion',
    'si.revision',
    'si.deleted',
    'si.createdAt',
    's.id as snapshotId',
    's.mapperVersion',
    sql<StoredInvoice | null>`s.content -> 'invoice'`.as('invoice'),
    sql<readonly CategorizedIssue[]>`coalesce(s.issues, '[]'::jsonb)`.as('issues'),
    sql<readonly { objectType: SourceObjectType; externalId: string }[]>`coalesce(s.dependencies, '[]'::jsonb)`.as('dependencies'),
    sql<readonly ConfirmedMapping[]>`coalesce(s.mappings, '[]'::jsonb)`.as('mappings'),
    eb.ref('s.qualification').$castTo<InvoiceState['qualification']>().as('qualification'),
    eb.ref('si.crossInvoiceRisks').$castTo<readonly RiskFinding[] | null>().as('crossInvoiceRisks'),
  ] as const;

const filtered = (o: InvoiceListFilters) =>
  o.connectionId !== undefined || o.ledgerInvoiceId !== undefined || o.invoiceNumber !== undefined || o.after !== undefined;

const filtersOf = (eb: ExpressionBuilder<{ si: Db['stored_invoices'] }, 'si'>, o: InvoiceListFilters) => {
  const conditions = [];
  if (o.connectionId !== undefined) conditions.push(eb('si.connection', '=', o.connectionId));
  if (o.ledgerInvoiceId !== undefined) conditions.push(eb('si.ledgerInvoiceId', '=', o.ledgerInvoiceId));
  if (o.invoiceNumber !== undefined) conditions.push(eb('si.invoiceNumber', '=', o.invoiceNumber));
  if (o.after) conditions.push(eb(eb.refTuple('si.createdAt', 'si.id'), '>', eb.tuple(o.after.createdAt, o.after.id)));
  return conditions;
};

/**
 * A keyset page in (created_at, id) order, optionally filtered; `limit` rows at most.
 * A reader's page is taken per visible integration (a lateral subquery each, walking
 * the `(integration_id, created_at, id)` index from the cursor and stopping after
 * `limit` rows) and the few candidates merged: the cost of a page does not grow with
 * the number of stored invoices. A filter on the list of integrations instead
 * (`= any(…)`) cannot use the index's order and sorts every visible invoice.
 */
export async function listStoredInvoices(
  db: Database,
  o: InvoiceListFilters & { visibility: InvoiceVisibility | undefined; limit: number },
): Promise<InvoiceState[]> {
  const v = o.visibility;
  if (v === undefined) {
    return db
      .selectFrom('stored_invoices as si')
      .innerJoin('ledger_connections as c', 'c.id', 'si.connection')
      .leftJoin('invoice_snapshots as s', 's.id', 'si.currentSnapshotId')
      .select(readColumns)
      .$if(filtered(o), (q) => q.where((eb) => eb.and(filtersOf(eb, o))))
      .orderBy('si.createdAt')
      .orderBy('si.id')
      .limit(o.limit)
      .execute();
  }
  const visibleIntegrations = db
    .selectNoFrom(sql<string>`jsonb_array_elements_text(${JSON.stringify(v.ledgerIntegrationIds)}::jsonb)::uuid`.as('id'))
    .distinct()
    .as('vi');
  return db
    .selectFrom(visibleIntegrations)
    .crossJoinLateral((eb) =>
      eb
        .selectFrom('stored_invoices as si')
        .selectAll('si')
        .whereRef('si.integration', '=', 'vi.id')
        .where('si.organization', '=', v.organizationId)
        .where('si.environment', '=', v.environment)
        .$if(filtered(o), (q) => q.where((eb) => eb.and(filtersOf(eb, o))))
        .orderBy('si.createdAt')
        .orderBy('si.id')
        .limit(o.limit)
        .as('si'),
    )
    .innerJoin('ledger_connections as c', 'c.id', 'si.connection')
    .leftJoin('invoice_snapshots as s', 's.id', 'si.currentSnapshotId')
    .select(readColumns)
    .orderBy('si.createdAt')
    .orderBy('si.id')
    .limit(o.limit)
    .execute();
}

export async function storedInvoiceById(
  db: Database,
  visibility: InvoiceVisibility | undefined,
  id: string,
): Promise<InvoiceState | undefined> {
  const v = visibility;
  return db
    .selectFrom('stored_invoices as si')
    .innerJoin('ledger_connections as c', 'c.id', 'si.connection')
    .leftJoin('invoice_snapshots as s', 's.id', 'si.currentSnapshotId')
    .select(readColumns)
    .$if(v !== undefined, (q) =>
      q
        .where(
          'si.integration',
          '=',
          sql<string>`any(array(select jsonb_array_elements_text(${JSON.stringify(v!.ledgerIntegrationIds)}::jsonb)::uuid))`,
        )
        .where('si.organization', '=', v!.organizationId)
        .where('si.environment', '=', v!.environment),
    )
    .where('si.id', '=', id)
    .executeTakeFirst();
}

/** Source record ids of a connection's records, by type and external id (provenance references). */
export async function sourceRecordIds(db: Database, connectionId: string, refs: readonly { objectType: string; externalId: string }[]) {
  if (refs.length === 0) return new Map<string, string>();
  const rows = await db
    .selectFrom('ledger_source_records')
    .select(['id', 'entityType', 'sourceId'])
    .where('connection', '=', connectionId)
    .where(
      sql<string>`(${sql.ref('entity_type')} || ':' || ${sql.ref('source_id')})`,
      '=',
      anyOf(refs.map((r) => `${r.objectType}:${r.externalId}`)),
    )
    .execute();
  return new Map(rows.map((r) => [`${r.entityType}:${r.sourceId}`, r.id]));
}

/**
 * The ledger integrations linked to a payment provider integration, of the same organization and environment
 * (`preparationContexts` reads them the same way, in its own statement).
 */
export async function linkedLedgerIntegrations(db: Database, providerIntegrationId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('integration_links as l')
    .innerJoin('integrations as li', 'li.id', 'l.ledgerIntegration')
    .innerJoin('integrations as pi', 'pi.id', 'l.providerIntegration')
    .select('l.ledgerIntegration as id')
    .where('l.providerIntegration', '=', providerIntegrationId)
    .whereRef('li.organization', '=', 'pi.organization')
    .whereRef('li.environment', '=', 'pi.environment')
    .execute();
  return rows.map((r) => r.id);
}
