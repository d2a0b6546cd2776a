import type { Environment, PaymentProvider } from '../../../contract/common/index.js';
import type { PreparationContextRead, SavedPreparation } from '../../domain/preparations/ports.js';
import { invoiceReadColumns, linkedLedgerIntegrationsOf, readRows, type InvoiceReadRow } from './stored-invoices.sql.js';
import { withDates, type Sql } from './sql.js';

/** A row of `preparations` (columns by name; `data` parsed JSON). */
interface PreparationRow {
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

/** The domain's saved preparation of a row. */
function savedOf(row: PreparationRow): SavedPreparation {
  return {
    id: row.id,
    organizationId: row.organization_id,
    integrationId: row.integration_id,
    environment: row.environment as Environment,
    provider: row.provider as PaymentProvider,
    kind: row.kind as SavedPreparation['kind'],
    storedInvoiceId: row.stored_invoice_id,
    snapshotId: row.snapshot_id,
    revision: row.revision,
    sourceIntegrationId: row.source_integration_id,
    connectionRowId: row.connection_id,
    sourceConnectionId: row.source_connection_id,
    checkedThrough: row.checked_through,
    amountMinor: Number(row.amount_minor),
    currency: row.currency,
    idempotencyKey: row.idempotency_key,
    fingerprint: row.fingerprint,
    mode: row.mode as SavedPreparation['mode'],
    data: row.data,
    createdAt: row.created_at,
  };
}

/** The row of a saved preparation, as `insertPreparations` sends it (JSON: dates as ISO text, the amount exact). */
function rowOf(p: SavedPreparation): PreparationRow {
  return {
    id: p.id,
    organization_id: p.organizationId,
    integration_id: p.integrationId,
    environment: p.environment,
    provider: p.provider,
    kind: p.kind,
    stored_invoice_id: p.storedInvoiceId,
    snapshot_id: p.snapshotId,
    revision: p.revision,
    source_integration_id: p.sourceIntegrationId,
    connection_id: p.connectionRowId,
    source_connection_id: p.sourceConnectionId,
    checked_through: p.checkedThrough,
    amount_minor: String(p.amountMinor),
    currency: p.currency,
    idempotency_key: p.idempotencyKey,
    fingerprint: p.fingerprint,
    mode: p.mode,
    data: p.data,
    created_at: p.createdAt,
  };
}
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
): Promise<SavedPreparation | undefined> {
  const where = scope === undefined ? 'id = ?' : 'id = ? and integration_id = ? and environment = ?';
  const params = scope === undefined ? [id] : [id, scope.integrationId, scope.environment];
  return rows(await sql(`select ${COLUMNS} from preparations where ${where}`, params)).map(savedOf)[0];
}

/** The column types of a preparation as `json_to_recordset` reads them (`data` as `json`: the text as sent, unparsed). */
const RECORD_TYPES = `id uuid, organization_id uuid, integration_id uuid, environment text, provider text, kind text,
  stored_invoice_id uuid, snapshot_id uuid, revision text, source_integration_id uuid, connection_id uuid,
  source_connection_id text, checked_through timestamptz, amount_minor bigint, currency text, idempotency_key text,
  fingerprint text, mode text, data json, created_at timestamptz`;

/**
 * Insert preparations in one statement (group commit); the unique (integration, idempotency key) refuses a duplicate,
 * which aborts the whole statement. The rows travel as one JSON parameter, so the statement text is the same for any
 * number of rows and is prepared once per connection.
 */
export async function insertPreparations(sql: Sql, saved: readonly SavedPreparation[]): Promise<void> {
  // A row's fields are the columns, by name (dates as ISO text, the amount as its decimal text).
  await sql(
    `insert into preparations (${COLUMNS}) select ${COLUMNS} from json_to_recordset(?::json) as r(${RECORD_TYPES})`,
    [JSON.stringify(saved.map(rowOf))],
    'preparations_insert',
  );
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
): Promise<SavedPreparation[]> {
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
  ).map(savedOf);
}

/** How a preparation request names its invoice, and the stored invoice column that holds it. */
const SELECTOR_COLUMNS = { invoiceId: 'id', ledgerInvoiceId: 'ledger_invoice_id', invoiceNumber: 'invoice_number' } as const;

/** What `preparationContexts` reads for one request: the domain's context with the invoices still as rows (the snapshot cache fills their JSON). */
export interface ContextRows {
  /** The preparation already saved under the idempotency key, if any. */
  saved: SavedPreparation | undefined;
  /**
   * The visible invoices the selector names, oldest first, at most two (two: ambiguous). Of their snapshot's JSON only
   * the content and the mapper's issues are read (what preparation checks), and only when it is neither the saved
   * preparation's snapshot (a replay on the same snapshot does not need them) nor the snapshot the caller said it holds.
   */
  invoices: InvoiceReadRow[];
  /**
   * The auth epoch the statement read (see migration auth_epoch): it started after the requests waiting for an epoch
   * asked, so the shared reads hand it to them (`sharedReads`).
   */
  authEpoch: string;
}

/** One preparation request's reads (`preparationContexts`). */
export interface ContextRowsRead extends PreparationContextRead {
  /** A snapshot the caller already holds: when it is the invoice's current one, its JSON is not sent (`content` null). */
  knownSnapshotId?: string | undefined;
}

/**
 * One statement for what preparation requests read before they answer or insert, for several requests at once (the
 * reads of concurrent requests share a round trip): each key's saved preparation and the invoices its selector names
 * among those of the ledger integrations linked to the caller's integration (in its organization and environment),
 * each with its current snapshot and its connection's state. One round trip instead of four (links, key, invoice,
 * snapshot) per request; docs/performance.md, "Invoice-backed preparation". The requests of one statement use one
 * selector (one index); answers come in the order asked.
 *
 * The statement also reads the auth epoch (`authEpoch`): the authentication of requests submitted before it started
 * can take it instead of a statement of its own (`sharedReads`).
 *
 * A named statement per selector: planning this join cost more than running it (≈ 0.9 ms a batch). Each lookup is a
 * lateral subquery with a limit, so the generic plan looks rows up one request at a time through their keys whatever
 * number of requests it guesses the batch holds (a plain join let it hash-join a whole scan of `preparations`).
 */
export async function preparationContexts(
  sql: Sql,
  selector: keyof typeof SELECTOR_COLUMNS,
  reads: readonly Omit<ContextRowsRead, 'selector'>[],
): Promise<{ contexts: ContextRows[]; authEpoch: string }> {
  const requests = reads.map((r, n) => ({
    n,
    integration_id: r.scope.integrationId,
    organization_id: r.scope.organizationId,
    environment: r.scope.environment,
    idempotency_key: r.idempotencyKey,
    value: r.value,
    known_snapshot: r.knownSnapshotId ?? null,
  }));
  const value = selector === 'invoiceId' ? 'r.value::uuid' : 'r.value';
  const found = await sql<Record<string, unknown>>(
    `select r.n, (select value from auth_epoch where id) as auth_epoch, ${COLUMN_NAMES.map((c) => `p.${c} as p_${c}`).join(', ')}, ${invoiceReadColumns({ only: ['content', 'issues'], when: 's.id is distinct from p.snapshot_id and s.id is distinct from r.known_snapshot' })}
       from jsonb_to_recordset(?::jsonb)
            as r(n int, integration_id uuid, organization_id uuid, environment text, idempotency_key text, value text, known_snapshot uuid)
       left join lateral (
         select p.* from preparations p where p.integration_id = r.integration_id and p.idempotency_key = r.idempotency_key limit 1) p on true
       left join lateral (
         select f.id, f.created_at from stored_invoices f
          where f.integration_id in (${linkedLedgerIntegrationsOf('r.integration_id')})
            and f.organization_id = r.organization_id and f.environment = r.environment and f.${SELECTOR_COLUMNS[selector]} = ${value}
          order by f.created_at, f.id limit 2) f on true
       left join lateral (select si.* from stored_invoices si where si.id = f.id limit 1) si on true
       left join lateral (select c.* from ledger_connections c where c.id = si.connection_id limit 1) c on true
       left join lateral (select s.* from invoice_snapshots s where s.id = si.current_snapshot_id limit 1) s on true
      order by r.n, f.created_at, f.id`,
    [JSON.stringify(requests)],
    `preparation_contexts_${selector}`,
  );
  const byRequest = reads.map(() => [] as Record<string, unknown>[]);
  for (const row of found) byRequest[row.n as number]!.push(row);
  // Every request yields at least one row (a left join from the requests).
  const authEpoch = String(found[0]!.auth_epoch);
  return { contexts: byRequest.map((rows) => contextOf(rows, authEpoch)), authEpoch };
}

function contextOf(found: Record<string, unknown>[], authEpoch: string): ContextRows {
  const first = found[0];
  const saved = first?.p_id == null ? undefined : rows([Object.fromEntries(COLUMN_NAMES.map((c) => [c, first[`p_${c}`]]))]).map(savedOf)[0];
  return { saved, invoices: readRows(found.filter((r) => r.id !== null)), authEpoch };
}
