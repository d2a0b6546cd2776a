import { invoiceReadColumns, LINKED_LEDGER_INTEGRATIONS, readRows, type InvoiceReadRow } from './stored-invoices.sql.js';
import { withDates, type Sql, type TenantScope } from './sql.js';

/** A saved preparation as the domain reads it. */
export interface PreparationRow {
  id: string;
  organization_id: string;
  integration_id: string;
  environment: string;
  provider: string;
  kind: string;
  stored_invoice_id: string;
  snapshot_id: string;
  revision: string;
  source_integration_id: string;
  connection_id: string;
  source_connection_id: string;
  checked_through: Date;
  amount_minor: string;
  currency: string;
  idempotency_key: string;
  fingerprint: string;
  mode: string;
  data: Record<string, unknown>;
  created_at: Date;
}

const rows = withDates<PreparationRow>(['checked_through', 'created_at']);
const COLUMN_NAMES = [
  'id',
  'organization_id',
  'integration_id',
  'environment',
  'provider',
  'kind',
  'stored_invoice_id',
  'snapshot_id',
  'revision',
  'source_integration_id',
  'connection_id',
  'source_connection_id',
  'checked_through',
  'amount_minor',
  'currency',
  'idempotency_key',
  'fingerprint',
  'mode',
  'data',
  'created_at',
] as const satisfies readonly (keyof PreparationRow)[];
const COLUMNS = COLUMN_NAMES.join(', ');

/** A preparation of this integration and environment (payment-report correlation), or any when no scope is given (operators). */
export async function preparationById(
  sql: Sql,
  id: string,
  scope?: { integrationId: string; environment: string },
): Promise<PreparationRow | undefined> {
  const where = scope === undefined ? 'id = ?' : 'id = ? and integration_id = ? and environment = ?';
  const params = scope === undefined ? [id] : [id, scope.integrationId, scope.environment];
  return rows(await sql(`select ${COLUMNS} from preparations where ${where}`, params))[0];
}

export interface PreparationInsert {
  id: string;
  provider: string;
  kind: string;
  storedInvoiceId: string;
  snapshotId: string;
  revision: string;
  sourceIntegrationId: string;
  connectionId: string;
  sourceConnectionId: string;
  checkedThrough: Date;
  amountMinor: number;
  currency: string;
  idempotencyKey: string;
  fingerprint: string;
  mode: string;
  data: unknown;
  createdAt: Date;
}

/** One preparation to insert, with the tenant that owns it. */
export interface ScopedPreparationInsert {
  scope: TenantScope;
  row: PreparationInsert;
}

const INSERT_VALUES = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?)';

/**
 * Insert preparations in one statement (group commit); the unique (integration, idempotency key) refuses a duplicate,
 * which aborts the whole statement.
 */
export async function insertPreparations(sql: Sql, inserts: readonly ScopedPreparationInsert[]): Promise<void> {
  const params = inserts.flatMap(({ scope, row }) => [
    row.id,
    scope.organizationId,
    scope.integrationId,
    scope.environment,
    row.provider,
    row.kind,
    row.storedInvoiceId,
    row.snapshotId,
    row.revision,
    row.sourceIntegrationId,
    row.connectionId,
    row.sourceConnectionId,
    row.checkedThrough,
    row.amountMinor,
    row.currency,
    row.idempotencyKey,
    row.fingerprint,
    row.mode,
    JSON.stringify(row.data),
    row.createdAt,
  ]);
  await sql(`insert into preparations (${COLUMNS}) values ${inserts.map(() => INSERT_VALUES).join(', ')}`, params);
}

/** A keyset page of preparations in (created_at, id) order, for operators. */
export async function listPreparations(
  sql: Sql,
  o: {
    invoiceId?: string | undefined;
    integrationId?: string | undefined;
    after?: { createdAt: Date; id: string } | undefined;
    limit: number;
  },
): Promise<PreparationRow[]> {
  const where: string[] = ['true'];
  const params: unknown[] = [];
  const filter = (condition: string, ...values: unknown[]) => {
    where.push(condition);
    params.push(...values);
  };
  if (o.invoiceId !== undefined) filter('stored_invoice_id = ?', o.invoiceId);
  if (o.integrationId !== undefined) filter('integration_id = ?', o.integrationId);
  if (o.after) filter('(created_at, id) > (?, ?)', o.after.createdAt, o.after.id);
  return rows(
    await sql(`select ${COLUMNS} from preparations where ${where.join(' and ')} order by created_at, id limit ?`, [...params, o.limit]),
  );
}

/** How a preparation request names its invoice, and the stored invoice column that holds it. */
const SELECTOR_COLUMNS = { invoiceId: 'id', ledgerInvoiceId: 'ledger_invoice_id', invoiceNumber: 'invoice_number' } as const;

/** Everything a preparation request needs to read, read at once (`preparationContext`). */
export interface PreparationContext {
  /** The preparation already saved under the idempotency key, if any. */
  saved: PreparationRow | undefined;
  /**
   * The visible invoices the selector names, oldest first, at most two (two: ambiguous). Of their snapshot's JSON only
   * the content and the mapper's issues are read (what preparation checks), and only when it is not the saved
   * preparation's snapshot: a replay on the same snapshot does not need them.
   */
  invoices: InvoiceReadRow[];
}

/**
 * One statement for what a preparation request reads before it answers or inserts: the key's saved preparation and
 * the invoices the selector names among those of the ledger integrations linked to the caller's integration (in its
 * organization and environment), each with its current snapshot and its connection's state. One round trip instead
 * of four (links, key, invoice, snapshot); docs/performance.md, "Invoice-backed preparation".
 */
export async function preparationContext(
  sql: Sql,
  o: { scope: TenantScope; idempotencyKey: string; selector: keyof typeof SELECTOR_COLUMNS; value: string },
): Promise<PreparationContext> {
  const found = await sql<Record<string, unknown>>(
    `with found as (
       select si.id, si.created_at from stored_invoices si
        where si.integration_id in (${LINKED_LEDGER_INTEGRATIONS}) and si.organization_id = ? and si.environment = ?
          and si.${SELECTOR_COLUMNS[o.selector]} = ?
        order by si.created_at, si.id limit 2)
     select ${COLUMN_NAMES.map((c) => `p.${c} as p_${c}`).join(', ')}, ${invoiceReadColumns({ only: ['content', 'issues'], when: 's.id is distinct from p.snapshot_id' })}
       from (select 1) one
       left join preparations p on p.integration_id = ? and p.idempotency_key = ?
       left join found f on true
       left join stored_invoices si on si.id = f.id
       left join ledger_connections c on c.id = si.connection_id
       left join invoice_snapshots s on s.id = si.current_snapshot_id
      order by f.created_at, f.id`,
    [o.scope.integrationId, o.scope.organizationId, o.scope.environment, o.value, o.scope.integrationId, o.idempotencyKey],
    `preparation_context_${o.selector}`,
  );
  const first = found[0];
  const saved = first?.p_id == null ? undefined : rows([Object.fromEntries(COLUMN_NAMES.map((c) => [c, first[`p_${c}`]]))])[0];
  return { saved, invoices: readRows(found.filter((r) => r.id !== null)) };
}
