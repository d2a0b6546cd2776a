import type { InvoiceStatus } from '../../../contract/canonical-invoice.js';
import type { CategorizedIssue, ConnectionStatus } from '../../../contract/common/index.js';
import type { StoredInvoice } from '../../../contract/invoices.js';
import type { InvoiceState } from '../../domain/invoices/types.js';
import { withDates, type Sql, type TenantScope } from './sql.js';

// Lists are bound as one JSON array (`any(array(select jsonb_array_elements_text(?::jsonb)))`): the query builder would
// otherwise spread a bound array into separate values, and an empty list would not be valid SQL.

/** A source record as the mapper reads it. */
export interface SourceRecordRow {
  id: string;
  source_id: string;
  sync_token: string | null;
  deleted: boolean;
  payload: Record<string, unknown>;
}

/** Source records of one entity type of a connection: all of them, or those with the given source ids. */
export function sourceRecordsOf(
  sql: Sql,
  connectionId: string,
  entityType: string,
  sourceIds?: readonly string[],
): Promise<SourceRecordRow[]> {
  const only = sourceIds === undefined ? '' : ' and source_id = any(array(select jsonb_array_elements_text(?::jsonb)))';
  const params = sourceIds === undefined ? [connectionId, entityType] : [connectionId, entityType, JSON.stringify(sourceIds)];
  return sql<SourceRecordRow>(
    `select id, source_id, sync_token, deleted, payload from ledger_source_records where connection_id = ? and entity_type = ?${only} order by source_id`,
    params,
  );
}

/** What a stored invoice's row needs to know before a mapping is written. */
export interface StoredState {
  id: string;
  ledger_invoice_id: string;
  revision: string | null;
  deleted: boolean;
}

export function storedStates(sql: Sql, connectionId: string, ledgerInvoiceIds: readonly string[]): Promise<StoredState[]> {
  return sql<StoredState>(
    `select id, ledger_invoice_id, revision, deleted from stored_invoices where connection_id = ? and ledger_invoice_id = any(array(select jsonb_array_elements_text(?::jsonb)))`,
    [connectionId, JSON.stringify(ledgerInvoiceIds)],
  );
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
    })),
  );
  const [written] = await sql<{ snapshots: number }>(
    `with v as (
       select * from jsonb_to_recordset(?::jsonb) as v(id uuid, snapshot_id uuid, source_record_id uuid, ledger_invoice_id text,
         invoice_number text, status text, currency text, total_amount_minor bigint, source_version text, revision text,
         mapper_version text, deleted boolean, content jsonb, issues jsonb, dependencies jsonb, mappings jsonb)
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
         source_version, content, issues, dependencies, mappings, created_at)
       select v.snapshot_id, ?, ?, ?, si.id, v.revision, v.mapper_version, v.source_version, v.content, v.issues, v.dependencies,
         v.mappings, ? from v join invoices si on si.ledger_invoice_id = v.ledger_invoice_id
       on conflict (stored_invoice_id, revision) do nothing
       returning id
     )
     select count(*)::int as snapshots from snapshots`,
    [rows, organizationId, integrationId, environment, o.connectionId, o.now, o.now, organizationId, integrationId, environment, o.now],
  );
  const snapshots = written?.snapshots ?? 0;
  if (snapshots < o.rows.length) {
    // A revision seen before (for example a mapping revoked and confirmed back): point at the snapshot already stored.
    await sql(
      `update stored_invoices si set current_snapshot_id = s.id from invoice_snapshots s
        where si.connection_id = ? and si.ledger_invoice_id = any(array(select jsonb_array_elements_text(?::jsonb))) and s.stored_invoice_id = si.id and s.revision = si.revision
          and si.current_snapshot_id is distinct from s.id`,
      [o.connectionId, JSON.stringify(o.rows.map((r) => r.ledgerInvoiceId))],
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
  // Invoices a run wrote were mapped after that run's items were stored: no need to map them again.
  const except =
    o.exceptWrittenByRun === undefined
      ? ''
      : ` and not exists (select 1 from ledger_source_records r where r.connection_id = si.connection_id and r.entity_type = 'Invoice'
            and r.source_id = si.ledger_invoice_id and r.sync_run_id = ?)`;
  const rows = await sql<{ ledger_invoice_id: string }>(
    `select si.ledger_invoice_id from stored_invoices si join invoice_snapshots s on s.id = si.current_snapshot_id
      where si.connection_id = ? and exists (
        select 1 from jsonb_array_elements(s.dependencies) d where d->>'objectType' = 'Item' and d->>'externalId' = any(array(select jsonb_array_elements_text(?::jsonb))))${except}`,
    [o.connectionId, JSON.stringify(o.itemIds), ...(o.exceptWrittenByRun === undefined ? [] : [o.exceptWrittenByRun])],
  );
  return rows.map((r) => r.ledger_invoice_id);
}

/** Source invoices whose stored invoice is missing or disagrees on deletion: to map (deletions, records imported before mapping). */
export async function invoicesOutOfStep(sql: Sql, connectionId: string): Promise<string[]> {
  const rows = await sql<{ source_id: string }>(
    `select r.source_id from ledger_source_records r
       left join stored_invoices si on si.connection_id = r.connection_id and si.ledger_invoice_id = r.source_id
      where r.connection_id = ? and r.entity_type = 'Invoice' and (si.id is null or si.deleted <> r.deleted)`,
    [connectionId],
  );
  return rows.map((r) => r.source_id);
}

/** Source invoices of a connection that a sync run did not write (unchanged at the source, or not in the run's period). */
export async function invoicesNotWrittenBy(sql: Sql, o: { connection: { id: string }; syncRunId: string }): Promise<string[]> {
  const rows = await sql<{ source_id: string }>(
    `select source_id from ledger_source_records where connection_id = ? and entity_type = 'Invoice' and sync_run_id is distinct from ?`,
    [o.connection.id, o.syncRunId],
  );
  return rows.map((r) => r.source_id);
}

/** Source ids of the records of one entity type that a sync run wrote (created, changed or marked deleted). */
export async function sourceIdsWrittenBy(sql: Sql, o: { connectionId: string; entityType: string; syncRunId: string }): Promise<string[]> {
  const rows = await sql<{ source_id: string }>(
    `select source_id from ledger_source_records where connection_id = ? and entity_type = ? and sync_run_id = ?`,
    [o.connectionId, o.entityType, o.syncRunId],
  );
  return rows.map((r) => r.source_id);
}

/** A stored invoice with its current snapshot and what readiness needs of its connection. */
export interface InvoiceReadRow {
  id: string;
  integration_id: string;
  connection_id: string;
  realm_id: string;
  connection_status: string;
  checked_through: Date | null;
  sync_active: boolean;
  source_record_id: string;
  ledger_invoice_id: string;
  invoice_number: string | null;
  status: string;
  currency: string | null;
  total_amount_minor: string | null;
  source_version: string | null;
  revision: string | null;
  deleted: boolean;
  created_at: Date;
  snapshot_id: string | null;
  mapper_version: string | null;
  content: { invoice: unknown } | null;
  issues: unknown[] | null;
  dependencies: unknown[] | null;
  mappings: unknown[] | null;
}

export const readRows = withDates<InvoiceReadRow>(['checked_through', 'created_at']);

const NO_ISSUES: readonly CategorizedIssue[] = Object.freeze([]);

/** The domain's view of a read row (`InvoiceState`): camelCase, the contract's enums, amounts as numbers. */
export function invoiceStateOf(row: InvoiceReadRow): InvoiceState {
  return {
    id: row.id,
    integrationId: row.integration_id,
    connectionRowId: row.connection_id,
    sourceConnectionId: row.realm_id,
    connectionStatus: row.connection_status as ConnectionStatus,
    checkedThrough: row.checked_through,
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
    createdAt: row.created_at,
    snapshotId: row.snapshot_id,
    mapperVersion: row.mapper_version,
    invoice: (row.content?.invoice ?? null) as StoredInvoice | null,
    issues: (row.issues ?? NO_ISSUES) as readonly CategorizedIssue[],
    dependencies: (row.dependencies ?? []) as InvoiceState['dependencies'],
    mappings: (row.mappings ?? []) as InvoiceState['mappings'],
  };
}

const readStates = (rows: Record<string, unknown>[]) => readRows(rows).map(invoiceStateOf);

const SNAPSHOT_JSON = ['content', 'issues', 'dependencies', 'mappings'] as const;

/**
 * The columns of an `InvoiceReadRow` (aliases `si`, `c`, `s`). The snapshot's JSON columns are the bulk of the row:
 * `json.only` reads just those (the others are null), `json.when` (an SQL condition) reads them only when it holds.
 */
export function invoiceReadColumns(json: { only?: readonly (typeof SNAPSHOT_JSON)[number][]; when?: string } = {}): string {
  const only: readonly string[] = json.only ?? SNAPSHOT_JSON;
  const snapshot = SNAPSHOT_JSON.map((c) =>
    !only.includes(c) ? `null as ${c}` : json.when ? `case when ${json.when} then s.${c} end as ${c}` : `s.${c}`,
  );
  return `si.id, si.integration_id, si.connection_id, c.realm_id, c.status as connection_status, c.checked_through,
    exists (select 1 from ledger_sync_runs r where r.connection_id = c.id and r.state in ('queued', 'running')) as sync_active,
    si.source_record_id, si.ledger_invoice_id, si.invoice_number, si.status, si.currency, si.total_amount_minor, si.source_version,
    si.revision, si.deleted, si.created_at, s.id as snapshot_id, s.mapper_version, ${snapshot.join(', ')}`;
}

const COLUMNS = invoiceReadColumns();

const READ = `select ${COLUMNS}
  from stored_invoices si join ledger_connections c on c.id = si.connection_id left join invoice_snapshots s on s.id = si.current_snapshot_id`;

/** Which stored invoices a reader may see: those of these ledger integrations, in this organization and environment. */
export interface InvoiceVisibility {
  organizationId: string;
  environment: string;
  ledgerIntegrationIds: readonly string[];
}

/** The tenant filter of a reader; operators (no visibility) see every invoice. */
const visible = (v: InvoiceVisibility | undefined) =>
  v === undefined
    ? { where: 'true', params: [] as unknown[] }
    : {
        where:
          'si.integration_id = any(array(select jsonb_array_elements_text(?::jsonb)::uuid)) and si.organization_id = ? and si.environment = ?',
        params: [JSON.stringify(v.ledgerIntegrationIds), v.organizationId, v.environment] as unknown[],
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
  o: {
    visibility: InvoiceVisibility | undefined;
    connectionId?: string | undefined;
    ledgerInvoiceId?: string | undefined;
    invoiceNumber?: string | undefined;
    after?: { createdAt: Date; id: string } | undefined;
    limit: number;
  },
): Promise<InvoiceState[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const filter = (condition: string, ...values: unknown[]) => {
    where.push(condition);
    params.push(...values);
  };
  if (o.connectionId !== undefined) filter('si.connection_id = ?', o.connectionId);
  if (o.ledgerInvoiceId !== undefined) filter('si.ledger_invoice_id = ?', o.ledgerInvoiceId);
  if (o.invoiceNumber !== undefined) filter('si.invoice_number = ?', o.invoiceNumber);
  if (o.after) filter('(si.created_at, si.id) > (?, ?)', o.after.createdAt, o.after.id);
  const v = o.visibility;
  if (v === undefined) {
    const conditions = where.length === 0 ? 'true' : where.join(' and ');
    return readStates(await sql(`${READ} where ${conditions} order by si.created_at, si.id limit ?`, [...params, o.limit]));
  }
  const page = `select si.* from stored_invoices si
      where si.integration_id = vi.id and si.organization_id = ? and si.environment = ?${where.map((w) => ` and ${w}`).join('')}
      order by si.created_at, si.id limit ?`;
  return readStates(
    await sql(
      `select ${COLUMNS}
         from (select distinct jsonb_array_elements_text(?::jsonb)::uuid as id) vi cross join lateral (${page}) si
         join ledger_connections c on c.id = si.connection_id left join invoice_snapshots s on s.id = si.current_snapshot_id
        order by si.created_at, si.id limit ?`,
      [JSON.stringify(v.ledgerIntegrationIds), v.organizationId, v.environment, ...params, o.limit, o.limit],
    ),
  );
}

export async function storedInvoiceById(
  sql: Sql,
  visibility: InvoiceVisibility | undefined,
  id: string,
): Promise<InvoiceState | undefined> {
  const v = visible(visibility);
  return readStates(await sql(`${READ} where ${v.where} and si.id = ?`, [...v.params, id]))[0];
}

/** Source record ids of a connection's records, by type and external id (provenance references). */
export async function sourceRecordIds(sql: Sql, connectionId: string, refs: readonly { objectType: string; externalId: string }[]) {
  if (refs.length === 0) return new Map<string, string>();
  const rows = await sql<{ id: string; entity_type: string; source_id: string }>(
    `select id, entity_type, source_id from ledger_source_records where connection_id = ? and (entity_type || ':' || source_id) = any(array(select jsonb_array_elements_text(?::jsonb)))`,
    [connectionId, JSON.stringify(refs.map((r) => `${r.objectType}:${r.externalId}`))],
  );
  return new Map(rows.map((r) => [`${r.entity_type}:${r.source_id}`, r.id]));
}

/** The ledger integrations linked to a payment provider integration (bound parameter) of the same organization and environment. */
export const linkedLedgerIntegrationsOf = (providerIntegrationId: string) => `select l.ledger_integration_id as id from integration_links l
       join integrations li on li.id = l.ledger_integration_id join integrations pi on pi.id = l.provider_integration_id
      where l.provider_integration_id = ${providerIntegrationId} and li.organization_id = pi.organization_id and li.environment = pi.environment`;

export const LINKED_LEDGER_INTEGRATIONS = linkedLedgerIntegrationsOf('?');

export async function linkedLedgerIntegrations(sql: Sql, providerIntegrationId: string): Promise<string[]> {
  const rows = await sql<{ id: string }>(LINKED_LEDGER_INTEGRATIONS, [providerIntegrationId]);
  return rows.map((r) => r.id);
}
