import { sql as raw, type ExpressionBuilder, type Selectable } from 'kysely';
import type { InvoiceStatus } from '../../../contract/canonical-invoice.js';
import type { CategorizedIssue } from '../../../contract/common/index.js';
import type { StoredInvoice } from '../../../contract/invoices.js';
import type { InvoiceState, StoredInvoiceState, StoredSourceRecord } from '../../domain/invoices/types.js';
import { db, first, run, type Database } from '../db/query.js';
import type { TenantScope } from '../../domain/tenant-scope.js';
import type { Sql } from './sql.js';

/**
 * `= any(…)` of a list bound as one JSON array (`any(array(select jsonb_array_elements_text(?::jsonb)))`): a list bound
 * as separate values would make a statement text per length, and an empty list would not be valid SQL.
 */
const anyOf = (values: readonly string[]) => raw<string>`any(array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)))`;

/** Source records of one entity type of a connection: all of them, or those with the given source ids. */
export async function sourceRecordsOf(
  sql: Sql,
  connectionId: string,
  entityType: string,
  sourceIds?: readonly string[],
): Promise<StoredSourceRecord[]> {
  const rows = await run(
    sql,
    db
      .selectFrom('ledger_source_records')
      .select(['id', 'source_id', 'sync_token', 'deleted', 'payload'])
      .where('connection_id', '=', connectionId)
      .where('entity_type', '=', entityType)
      .$if(sourceIds !== undefined, (q) => q.where('source_id', '=', anyOf(sourceIds!)))
      .orderBy('source_id'),
  );
  return rows.map((r) => ({
    id: r.id,
    sourceId: r.source_id,
    syncToken: r.sync_token,
    deleted: r.deleted,
    // A source record's payload is the JSON object the source returned.
    payload: r.payload as Record<string, unknown>,
  }));
}

export async function storedStates(sql: Sql, connectionId: string, ledgerInvoiceIds: readonly string[]): Promise<StoredInvoiceState[]> {
  const rows = await run(
    sql,
    db
      .selectFrom('stored_invoices')
      .select(['id', 'ledger_invoice_id', 'revision', 'deleted'])
      .where('connection_id', '=', connectionId)
      .where('ledger_invoice_id', '=', anyOf(ledgerInvoiceIds)),
  );
  return rows.map((r) => ({ id: r.id, ledgerInvoiceId: r.ledger_invoice_id, revision: r.revision, deleted: r.deleted }));
}

/** One mapped invoice to write: its row (summary columns) and its snapshot. */
export interface MappedWrite {
  id: string;
  snapshotId: string;
  sourceRecordId: string;
  ledgerInvoiceId: string;
  invoiceNumber: string | null;
  status: string;
  currency: string | null;
  totalAmountMinor: number | null;
  sourceVersion: string | null;
  revision: string;
  mapperVersion: string;
  deleted: boolean;
  content: unknown;
  issues: unknown;
  dependencies: unknown;
  mappings: unknown;
  qualification: unknown;
}

/**
 * Write a batch of mapped invoices in one statement: the invoice rows (one per
 * connection and source id, created or updated to point at their new snapshot)
 * and the snapshots (immutable; a revision already stored is not written again),
 * from one JSON array parameter; then, only when a revision came back to an earlier
 * snapshot, a second statement points the invoice at the snapshot already stored.
 */
export async function writeMappedInvoices(
  sql: Sql,
  o: { scope: TenantScope; connectionId: string; rows: readonly MappedWrite[]; now: Date },
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
    })),
  );
  const [written] = await sql<{ snapshots: number }>(
    `with v as (
       select * from jsonb_to_recordset(?::jsonb) as v(id uuid, snapshot_id uuid, source_record_id uuid, ledger_invoice_id text,
         invoice_number text, status text, currency text, total_amount_minor bigint, source_version text, revision text,
         mapper_version text, deleted boolean, content jsonb, issues jsonb, dependencies jsonb, mappings jsonb, qualification jsonb)
     ), invoices as (
       insert into stored_invoices (id, organization_id, integration_id, environment, connection_id, source_record_id, ledger_invoice_id,
         invoice_number, status, currency, total_amount_minor, source_version, revision, current_snapshot_id, deleted, created_at, updated_at)
       select v.id, ?, ?, ?, ?, v.source_record_id, v.ledger_invoice_id, v.invoice_number, v.status, v.currency, v.total_amount_minor,
         v.source_version, v.revision, v.snapshot_id, v.deleted, ?, ? from v
       on conflict (connection_id, ledger_invoice_id) do update set source_record_id = excluded.source_record_id,
         invoice_number = excluded.invoice_number, status = excluded.status, currency = excluded.currency,
         total_amount_minor = excluded.total_amount_minor, source_version = excluded.source_version, revision = excluded.revision,
         current_snapshot_id = excluded.current_snapshot_id, deleted = excluded.deleted, updated_at = excluded.updated_at
       returning id, ledger_invoice_id
     ), snapshots as (
       insert into invoice_snapshots (id, organization_id, integration_id, environment, stored_invoice_id, revision, mapper_version,
         source_version, content, issues, dependencies, mappings, qualification, created_at)
       select v.snapshot_id, ?, ?, ?, si.id, v.revision, v.mapper_version, v.source_version, v.content, v.issues, v.dependencies,
         v.mappings, v.qualification, ? from v join invoices si on si.ledger_invoice_id = v.ledger_invoice_id
       on conflict (stored_invoice_id, revision) do nothing
       returning id
     )
     select count(*)::int as snapshots from snapshots`,
    [rows, organizationId, integrationId, environment, o.connectionId, o.now, o.now, organizationId, integrationId, environment, o.now],
  );
  const snapshots = written?.snapshots ?? 0;
  if (snapshots < o.rows.length) {
    // A revision seen before (for example a mapping revoked and confirmed back): point at the snapshot already stored.
    await run(
      sql,
      db
        .updateTable('stored_invoices as si')
        .from('invoice_snapshots as s')
        .set((eb) => ({ current_snapshot_id: eb.ref('s.id') }))
        .where('si.connection_id', '=', o.connectionId)
        .where('si.ledger_invoice_id', '=', anyOf(o.rows.map((r) => r.ledgerInvoiceId)))
        .whereRef('s.stored_invoice_id', '=', 'si.id')
        .whereRef('s.revision', '=', 'si.revision')
        .where((eb) => eb('si.current_snapshot_id', 'is distinct from', eb.ref('s.id'))),
    );
  }
  return { snapshots };
}

/**
 * Invoices whose current snapshot read one of these source items: the ones to map
 * again when an item changes at the source or its mapping changes.
 */
export async function invoicesDependingOnItems(
  sql: Sql,
  o: { connectionId: string; itemIds: readonly string[]; exceptWrittenByRun?: string },
): Promise<string[]> {
  if (o.itemIds.length === 0) return [];
  const { exceptWrittenByRun } = o;
  const rows = await run(
    sql,
    db
      .selectFrom('stored_invoices as si')
      .innerJoin('invoice_snapshots as s', 's.id', 'si.current_snapshot_id')
      .select('si.ledger_invoice_id')
      .where('si.connection_id', '=', o.connectionId)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom(raw`jsonb_array_elements(${raw.ref('s.dependencies')})`.as('d'))
            .select(raw.lit(1).as('one'))
            .where(raw`d->>'objectType'`, '=', 'Item')
            .where(raw`d->>'externalId'`, '=', anyOf(o.itemIds)),
        ),
      )
      // Invoices a run wrote were mapped after that run's items were stored: no need to map them again.
      .$if(exceptWrittenByRun !== undefined, (q) =>
        q.where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('ledger_source_records as r')
                .select(raw.lit(1).as('one'))
                .whereRef('r.connection_id', '=', 'si.connection_id')
                .where('r.entity_type', '=', 'Invoice')
                .whereRef('r.source_id', '=', 'si.ledger_invoice_id')
                .where('r.sync_run_id', '=', exceptWrittenByRun!),
            ),
          ),
        ),
      ),
  );
  return rows.map((r) => r.ledger_invoice_id);
}

/** Source invoices whose stored invoice is missing or disagrees on deletion: to map (deletions, records imported before mapping). */
export async function invoicesOutOfStep(sql: Sql, connectionId: string): Promise<string[]> {
  const rows = await run(
    sql,
    db
      .selectFrom('ledger_source_records as r')
      .leftJoin('stored_invoices as si', (join) =>
        join.onRef('si.connection_id', '=', 'r.connection_id').onRef('si.ledger_invoice_id', '=', 'r.source_id'),
      )
      .select('r.source_id')
      .where('r.connection_id', '=', connectionId)
      .where('r.entity_type', '=', 'Invoice')
      .where((eb) => eb.or([eb('si.id', 'is', null), eb('si.deleted', '<>', eb.ref('r.deleted'))])),
  );
  return rows.map((r) => r.source_id);
}

/** Source invoices of a connection that a sync run did not write (unchanged at the source, or not in the run's period). */
export async function invoicesNotWrittenBy(sql: Sql, o: { connection: { id: string }; syncRunId: string }): Promise<string[]> {
  const rows = await run(
    sql,
    db
      .selectFrom('ledger_source_records')
      .select('source_id')
      .where('connection_id', '=', o.connection.id)
      .where('entity_type', '=', 'Invoice')
      .where('sync_run_id', 'is distinct from', o.syncRunId),
  );
  return rows.map((r) => r.source_id);
}

/** Source ids of the records of one entity type that a sync run wrote (created, changed or marked deleted). */
export async function sourceIdsWrittenBy(sql: Sql, o: { connectionId: string; entityType: string; syncRunId: string }): Promise<string[]> {
  const rows = await run(
    sql,
    db
      .selectFrom('ledger_source_records')
      .select('source_id')
      .where('connection_id', '=', o.connectionId)
      .where('entity_type', '=', o.entityType)
      .where('sync_run_id', '=', o.syncRunId),
  );
  return rows.map((r) => r.source_id);
}

type Connection = Selectable<Database['ledger_connections']>;
type Snapshot = Selectable<Database['invoice_snapshots']>;

/**
 * A stored invoice with its current snapshot (columns null without one) and what readiness needs of its connection;
 * as `preparationContexts` reads it too (preparations.sql.ts), where the snapshot's JSON may be left out (null).
 */
export type InvoiceReadRow = Pick<
  Selectable<Database['stored_invoices']>,
  | 'id'
  | 'integration_id'
  | 'connection_id'
  | 'source_record_id'
  | 'ledger_invoice_id'
  | 'invoice_number'
  | 'status'
  | 'currency'
  | 'total_amount_minor'
  | 'source_version'
  | 'revision'
  | 'deleted'
  | 'created_at'
> &
  Pick<Connection, 'realm_id' | 'checked_through'> & {
    connection_status: Connection['status'];
    /** A sync of the connection is queued or running. */
    sync_active: boolean;
    snapshot_id: string | null;
  } & { [C in 'mapper_version' | 'content' | 'issues' | 'dependencies' | 'mappings']: Snapshot[C] | null } & {
    /** Read for endpoint 9 and the operator's invoice; left out by `preparationContexts`. */
    qualification?: Snapshot['qualification'];
    cross_invoice_risks?: Selectable<Database['stored_invoices']>['cross_invoice_risks'];
  };

const NO_ISSUES: readonly CategorizedIssue[] = Object.freeze([]);

/** The domain's view of a read row (`InvoiceState`): camelCase, Dates, the contract's enums, amounts as numbers. */
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

/** The columns of an `InvoiceReadRow` but `sync_active` (aliases `si`: the stored invoice, `c`: its connection, `s`: its current snapshot). */
const READ_COLUMNS = [
  'si.id',
  'si.integration_id',
  'si.connection_id',
  'c.realm_id',
  'c.status as connection_status',
  'c.checked_through',
  'si.source_record_id',
  'si.ledger_invoice_id',
  'si.invoice_number',
  'si.status',
  'si.currency',
  'si.total_amount_minor',
  'si.source_version',
  'si.revision',
  'si.deleted',
  'si.created_at',
  's.id as snapshot_id',
  's.mapper_version',
  's.content',
  's.issues',
  's.dependencies',
  's.mappings',
  's.qualification',
  'si.cross_invoice_risks',
] as const;

/** `sync_active` of an `InvoiceReadRow`: a sync of the connection `c` is queued or running. */
const syncActive = ({ exists, selectFrom }: ExpressionBuilder<Database & { c: Database['ledger_connections'] }, 'c'>) =>
  exists(
    selectFrom('ledger_sync_runs as r')
      .select(raw.lit(1).as('one'))
      .whereRef('r.connection_id', '=', 'c.id')
      .where('r.state', 'in', ['queued', 'running']),
  )
    .$castTo<boolean>()
    .as('sync_active');

/** Which stored invoices a reader may see: those of these ledger integrations, in this organization and environment. */
export interface InvoiceVisibility {
  organizationId: string;
  environment: Database['stored_invoices']['environment'];
  ledgerIntegrationIds: readonly string[];
}

/** The filters of a list page (alias `si`), all optional. */
interface ListFilters {
  connectionId?: string | undefined;
  ledgerInvoiceId?: string | undefined;
  invoiceNumber?: string | undefined;
  after?: { createdAt: Date; id: string } | undefined;
}

const filtered = (o: ListFilters) =>
  o.connectionId !== undefined || o.ledgerInvoiceId !== undefined || o.invoiceNumber !== undefined || o.after !== undefined;

const filtersOf = (eb: ExpressionBuilder<{ si: Database['stored_invoices'] }, 'si'>, o: ListFilters) => {
  const conditions = [];
  if (o.connectionId !== undefined) conditions.push(eb('si.connection_id', '=', o.connectionId));
  if (o.ledgerInvoiceId !== undefined) conditions.push(eb('si.ledger_invoice_id', '=', o.ledgerInvoiceId));
  if (o.invoiceNumber !== undefined) conditions.push(eb('si.invoice_number', '=', o.invoiceNumber));
  if (o.after) conditions.push(eb(eb.refTuple('si.created_at', 'si.id'), '>', eb.tuple(o.after.createdAt.toISOString(), o.after.id)));
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
  sql: Sql,
  o: ListFilters & { visibility: InvoiceVisibility | undefined; limit: number },
): Promise<InvoiceState[]> {
  const v = o.visibility;
  if (v === undefined) {
    const rows = await run(
      sql,
      db
        .selectFrom('stored_invoices as si')
        .innerJoin('ledger_connections as c', 'c.id', 'si.connection_id')
        .leftJoin('invoice_snapshots as s', 's.id', 'si.current_snapshot_id')
        .select(READ_COLUMNS)
        .select(syncActive)
        .$if(filtered(o), (q) => q.where((eb) => eb.and(filtersOf(eb, o))))
        .orderBy('si.created_at')
        .orderBy('si.id')
        .limit(o.limit),
    );
    return rows.map(invoiceStateOf);
  }
  const visibleIntegrations = db
    .selectNoFrom(raw<string>`jsonb_array_elements_text(${JSON.stringify(v.ledgerIntegrationIds)}::jsonb)::uuid`.as('id'))
    .distinct()
    .as('vi');
  const rows = await run(
    sql,
    db
      .selectFrom(visibleIntegrations)
      .crossJoinLateral((eb) =>
        eb
          .selectFrom('stored_invoices as si')
          .selectAll('si')
          .whereRef('si.integration_id', '=', 'vi.id')
          .where('si.organization_id', '=', v.organizationId)
          .where('si.environment', '=', v.environment)
          .$if(filtered(o), (q) => q.where((eb) => eb.and(filtersOf(eb, o))))
          .orderBy('si.created_at')
          .orderBy('si.id')
          .limit(o.limit)
          .as('si'),
      )
      .innerJoin('ledger_connections as c', 'c.id', 'si.connection_id')
      .leftJoin('invoice_snapshots as s', 's.id', 'si.current_snapshot_id')
      .select(READ_COLUMNS)
      .select(syncActive)
      .orderBy('si.created_at')
      .orderBy('si.id')
      .limit(o.limit),
  );
  return rows.map(invoiceStateOf);
}

export async function storedInvoiceById(
  sql: Sql,
  visibility: InvoiceVisibility | undefined,
  id: string,
): Promise<InvoiceState | undefined> {
  const v = visibility;
  const row = await first(
    sql,
    db
      .selectFrom('stored_invoices as si')
      .innerJoin('ledger_connections as c', 'c.id', 'si.connection_id')
      .leftJoin('invoice_snapshots as s', 's.id', 'si.current_snapshot_id')
      .select(READ_COLUMNS)
      .select(syncActive)
      .$if(v !== undefined, (q) =>
        q
          .where(
            'si.integration_id',
            '=',
            raw<string>`any(array(select jsonb_array_elements_text(${JSON.stringify(v!.ledgerIntegrationIds)}::jsonb)::uuid))`,
          )
          .where('si.organization_id', '=', v!.organizationId)
          .where('si.environment', '=', v!.environment),
      )
      .where('si.id', '=', id),
  );
  return row && invoiceStateOf(row);
}

/** Source record ids of a connection's records, by type and external id (provenance references). */
export async function sourceRecordIds(sql: Sql, connectionId: string, refs: readonly { objectType: string; externalId: string }[]) {
  if (refs.length === 0) return new Map<string, string>();
  const rows = await run(
    sql,
    db
      .selectFrom('ledger_source_records')
      .select(['id', 'entity_type', 'source_id'])
      .where('connection_id', '=', connectionId)
      .where(
        raw<string>`(${raw.ref('entity_type')} || ':' || ${raw.ref('source_id')})`,
        '=',
        anyOf(refs.map((r) => `${r.objectType}:${r.externalId}`)),
      ),
  );
  return new Map(rows.map((r) => [`${r.entity_type}:${r.source_id}`, r.id]));
}

/**
 * The ledger integrations linked to a payment provider integration, of the same organization and environment
 * (`preparationContexts` reads them the same way, in its own statement).
 */
export async function linkedLedgerIntegrations(sql: Sql, providerIntegrationId: string): Promise<string[]> {
  const rows = await run(
    sql,
    db
      .selectFrom('integration_links as l')
      .innerJoin('integrations as li', 'li.id', 'l.ledger_integration_id')
      .innerJoin('integrations as pi', 'pi.id', 'l.provider_integration_id')
      .select('l.ledger_integration_id as id')
      .where('l.provider_integration_id', '=', providerIntegrationId)
      .whereRef('li.organization_id', '=', 'pi.organization_id')
      .whereRef('li.environment', '=', 'pi.environment'),
  );
  return rows.map((r) => r.id);
}
