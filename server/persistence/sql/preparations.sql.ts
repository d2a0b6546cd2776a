import { sql } from 'kysely';
import type { Environment, PaymentProvider } from '../../../contract/common/index.js';
import type { PreparationContextRead, SavedPreparation, StoredPreparation } from '../../domain/preparations/ports.js';
import { hotStatement, runNamed, type Database } from '../kysely.js';
import type { InvoiceReadRow } from './stored-invoices.sql.js';

/** A saved preparation's columns by property, under the domain's names (`SavedPreparation`). */
const SAVED = [
  'id',
  'organization as organizationId',
  'integration as integrationId',
  'environment',
  'provider',
  'kind',
  'storedInvoice as storedInvoiceId',
  'snapshot as snapshotId',
  'revision',
  'sourceIntegration as sourceIntegrationId',
  'connection as connectionId',
  'realmId',
  'checkedThrough',
  'amountMinor',
  'currency',
  'idempotencyKey',
  'fingerprint',
  'mode',
  'data',
  'createdAt',
] as const;

/** Columns the entity types more widely than the domain, which writes only these values (`StoredPreparation`). */
type Narrowed = {
  provider: PaymentProvider;
  kind: SavedPreparation['kind'];
  mode: SavedPreparation['mode'];
  qualificationLevel: StoredPreparation['qualificationLevel'];
};

/** A preparation of this integration and environment (payment-report correlation), or any when no scope is given (operators). */
export async function preparationById(
  db: Database,
  id: string,
  scope?: { integrationId: string; environment: Environment },
): Promise<StoredPreparation | undefined> {
  return db
    .selectFrom('preparations')
    .select([...SAVED, 'qualificationLevel'])
    .where('id', '=', id)
    .$if(scope !== undefined, (q) => q.where('integration', '=', scope!.integrationId).where('environment', '=', scope!.environment))
    .$narrowType<Narrowed>()
    .executeTakeFirst();
}

/** A keyset page of preparations in (createdAt, id) order, for operators. */
export async function listPreparations(
  db: Database,
  o: {
    invoiceId?: string | undefined;
    integrationId?: string | undefined;
    after?: { createdAt: Date; id: string } | undefined;
    limit: number;
  },
): Promise<StoredPreparation[]> {
  const { invoiceId, integrationId, after } = o;
  return db
    .selectFrom('preparations')
    .select([...SAVED, 'qualificationLevel'])
    .$if(invoiceId !== undefined, (q) => q.where('storedInvoice', '=', invoiceId!))
    .$if(integrationId !== undefined, (q) => q.where('integration', '=', integrationId!))
    .$if(after !== undefined, (q) => q.where((eb) => eb(eb.refTuple('createdAt', 'id'), '>', eb.tuple(after!.createdAt, after!.id))))
    .orderBy('createdAt')
    .orderBy('id')
    .limit(o.limit)
    .$narrowType<Narrowed>()
    .execute();
}

/**
 * A preparation as the raw statements of this module send and read it: the table's column names, and the database's
 * values when read (timestamps and the amount as text, `data` parsed JSON). The qualification level is set by the
 * insert from the pinned snapshot; the operator reads above and qualification.sql.ts read it.
 */
interface PreparationRow {
  id: string;
  organization_id: string;
  integration_id: string;
  environment: SavedPreparation['environment'];
  provider: SavedPreparation['provider'];
  kind: SavedPreparation['kind'];
  stored_invoice_id: string;
  snapshot_id: string;
  revision: string;
  source_integration_id: string;
  connection_id: string;
  source_connection_id: string;
  checked_through: string;
  amount_minor: string;
  currency: string;
  idempotency_key: string;
  fingerprint: string;
  mode: SavedPreparation['mode'];
  data: Record<string, unknown>;
  created_at: string;
}

/** The record of a saved preparation as `insertPreparations` sends it (JSON: dates as ISO text, the amount exact). */
function rowOf(p: SavedPreparation): Omit<PreparationRow, 'checked_through' | 'created_at'> & { checked_through: Date; created_at: Date } {
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
    connection_id: p.connectionId,
    source_connection_id: p.realmId,
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

const PREPARATIONS_INSERT = hotStatement(
  'preparations_insert',
  (rows: string) =>
    sql`insert into preparations (id, organization_id, integration_id, environment, provider, kind, stored_invoice_id, snapshot_id, revision, source_integration_id, connection_id, source_connection_id, checked_through, amount_minor, currency, idempotency_key, fingerprint, mode, data, created_at, qualification_level) select id, organization_id, integration_id, environment, provider, kind, stored_invoice_id, snapshot_id, revision, source_integration_id, connection_id, source_connection_id, checked_through, amount_minor, currency, idempotency_key, fingerprint, mode, data, created_at, (select s.qualification -> r.provider ->> 'level' from invoice_snapshots s where s.id = r.snapshot_id) from json_to_recordset(${rows}::json) as r(id uuid, organization_id uuid, integration_id uuid, environment text, provider text, kind text,
  stored_invoice_id uuid, snapshot_id uuid, revision text, source_integration_id uuid, connection_id uuid,
  source_connection_id text, checked_through timestamptz, amount_minor bigint, currency text, idempotency_key text,
  fingerprint text, mode text, data json, created_at timestamptz)`,
);

/**
 * Insert preparations in one statement (group commit); the unique (integration, idempotency key) refuses a duplicate,
 * which aborts the whole statement. The rows travel as one JSON parameter (`json_to_recordset` reads `data` as `json`:
 * the text as sent, unparsed; each row's fields are the columns, by name), so the statement text is the same for any
 * number of rows and is prepared once per connection. Named: its text must not change (docs/performance.md).
 */
export async function insertPreparations(db: Database, saved: readonly SavedPreparation[]): Promise<void> {
  await runNamed(db, PREPARATIONS_INSERT, JSON.stringify(saved.map(rowOf)));
}

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

/** A row of `preparationContexts`: the request's number, the epoch, the saved preparation's columns (`p_`) and an invoice's (all null when none). */
type ContextRow = { n: number; auth_epoch: string } & { [C in keyof PreparationRow as `p_${C}`]: PreparationRow[C] | null } & {
  [C in keyof InvoiceReadRow]: InvoiceReadRow[C] | null;
};

/**
 * The statement of `preparationContexts`, one per selector; each differs from the others only in the stored invoice
 * column the selector compares (`f.id = r.value::uuid`, `f.ledger_invoice_id = r.value`, `f.invoice_number = r.value`).
 * Spelled out whole, not composed: they are named prepared statements whose text must not change (a changed text is
 * a new plan; docs/performance.md). The invoice columns are those of `InvoiceReadRow`, the saved preparation's are
 * `PreparationRow`'s prefixed `p_`; the snapshot's content and issues only when the caller does not hold it, its dependencies
 * and mappings never (preparation does not read them). The linked ledger integrations are those of
 * `linkedLedgerIntegrations` (stored-invoices.sql.ts).
 */
const PREPARATION_CONTEXTS = {
  invoiceId: hotStatement(
    'preparation_contexts_invoiceId',
    (requests: string) =>
      sql<ContextRow>`select r.n, (select value from auth_epoch where id) as auth_epoch, p.id as p_id, p.organization_id as p_organization_id, p.integration_id as p_integration_id, p.environment as p_environment, p.provider as p_provider, p.kind as p_kind, p.stored_invoice_id as p_stored_invoice_id, p.snapshot_id as p_snapshot_id, p.revision as p_revision, p.source_integration_id as p_source_integration_id, p.connection_id as p_connection_id, p.source_connection_id as p_source_connection_id, p.checked_through as p_checked_through, p.amount_minor as p_amount_minor, p.currency as p_currency, p.idempotency_key as p_idempotency_key, p.fingerprint as p_fingerprint, p.mode as p_mode, p.data as p_data, p.created_at as p_created_at, si.id, si.integration_id, si.connection_id, c.realm_id, c.status as connection_status, c.checked_through,
    exists (select 1 from ledger_sync_runs r where r.connection_id = c.id and r.state in ('queued', 'running')) as sync_active,
    si.source_record_id, si.ledger_invoice_id, si.invoice_number, si.status, si.currency, si.total_amount_minor, si.source_version,
    si.revision, si.deleted, si.created_at, s.id as snapshot_id, s.mapper_version, case when s.id is distinct from p.snapshot_id and s.id is distinct from r.known_snapshot then s.content end as content, case when s.id is distinct from p.snapshot_id and s.id is distinct from r.known_snapshot then s.issues end as issues, null as dependencies, null as mappings
       from jsonb_to_recordset(${requests}::jsonb)
            as r(n int, integration_id uuid, organization_id uuid, environment text, idempotency_key text, value text, known_snapshot uuid)
       left join lateral (
         select p.* from preparations p where p.integration_id = r.integration_id and p.idempotency_key = r.idempotency_key limit 1) p on true
       left join lateral (
         select f.id, f.created_at from stored_invoices f
          where f.integration_id in (select l.ledger_integration_id as id from integration_links l
       join integrations li on li.id = l.ledger_integration_id join integrations pi on pi.id = l.provider_integration_id
      where l.provider_integration_id = r.integration_id and li.organization_id = pi.organization_id and li.environment = pi.environment)
            and f.organization_id = r.organization_id and f.environment = r.environment and f.id = r.value::uuid
          order by f.created_at, f.id limit 2) f on true
       left join lateral (select si.* from stored_invoices si where si.id = f.id limit 1) si on true
       left join lateral (select c.* from ledger_connections c where c.id = si.connection_id limit 1) c on true
       left join lateral (select s.* from invoice_snapshots s where s.id = si.current_snapshot_id limit 1) s on true
      order by r.n, f.created_at, f.id`,
  ),
  ledgerInvoiceId: hotStatement(
    'preparation_contexts_ledgerInvoiceId',
    (requests: string) =>
      sql<ContextRow>`select r.n, (select value from auth_epoch where id) as auth_epoch, p.id as p_id, p.organization_id as p_organization_id, p.integration_id as p_integration_id, p.environment as p_environment, p.provider as p_provider, p.kind as p_kind, p.stored_invoice_id as p_stored_invoice_id, p.snapshot_id as p_snapshot_id, p.revision as p_revision, p.source_integration_id as p_source_integration_id, p.connection_id as p_connection_id, p.source_connection_id as p_source_connection_id, p.checked_through as p_checked_through, p.amount_minor as p_amount_minor, p.currency as p_currency, p.idempotency_key as p_idempotency_key, p.fingerprint as p_fingerprint, p.mode as p_mode, p.data as p_data, p.created_at as p_created_at, si.id, si.integration_id, si.connection_id, c.realm_id, c.status as connection_status, c.checked_through,
    exists (select 1 from ledger_sync_runs r where r.connection_id = c.id and r.state in ('queued', 'running')) as sync_active,
    si.source_record_id, si.ledger_invoice_id, si.invoice_number, si.status, si.currency, si.total_amount_minor, si.source_version,
    si.revision, si.deleted, si.created_at, s.id as snapshot_id, s.mapper_version, case when s.id is distinct from p.snapshot_id and s.id is distinct from r.known_snapshot then s.content end as content, case when s.id is distinct from p.snapshot_id and s.id is distinct from r.known_snapshot then s.issues end as issues, null as dependencies, null as mappings
       from jsonb_to_recordset(${requests}::jsonb)
            as r(n int, integration_id uuid, organization_id uuid, environment text, idempotency_key text, value text, known_snapshot uuid)
       left join lateral (
         select p.* from preparations p where p.integration_id = r.integration_id and p.idempotency_key = r.idempotency_key limit 1) p on true
       left join lateral (
         select f.id, f.created_at from stored_invoices f
          where f.integration_id in (select l.ledger_integration_id as id from integration_links l
       join integrations li on li.id = l.ledger_integration_id join integrations pi on pi.id = l.provider_integration_id
      where l.provider_integration_id = r.integration_id and li.organization_id = pi.organization_id and li.environment = pi.environment)
            and f.organization_id = r.organization_id and f.environment = r.environment and f.ledger_invoice_id = r.value
          order by f.created_at, f.id limit 2) f on true
       left join lateral (select si.* from stored_invoices si where si.id = f.id limit 1) si on true
       left join lateral (select c.* from ledger_connections c where c.id = si.connection_id limit 1) c on true
       left join lateral (select s.* from invoice_snapshots s where s.id = si.current_snapshot_id limit 1) s on true
      order by r.n, f.created_at, f.id`,
  ),
  invoiceNumber: hotStatement(
    'preparation_contexts_invoiceNumber',
    (requests: string) =>
      sql<ContextRow>`select r.n, (select value from auth_epoch where id) as auth_epoch, p.id as p_id, p.organization_id as p_organization_id, p.integration_id as p_integration_id, p.environment as p_environment, p.provider as p_provider, p.kind as p_kind, p.stored_invoice_id as p_stored_invoice_id, p.snapshot_id as p_snapshot_id, p.revision as p_revision, p.source_integration_id as p_source_integration_id, p.connection_id as p_connection_id, p.source_connection_id as p_source_connection_id, p.checked_through as p_checked_through, p.amount_minor as p_amount_minor, p.currency as p_currency, p.idempotency_key as p_idempotency_key, p.fingerprint as p_fingerprint, p.mode as p_mode, p.data as p_data, p.created_at as p_created_at, si.id, si.integration_id, si.connection_id, c.realm_id, c.status as connection_status, c.checked_through,
    exists (select 1 from ledger_sync_runs r where r.connection_id = c.id and r.state in ('queued', 'running')) as sync_active,
    si.source_record_id, si.ledger_invoice_id, si.invoice_number, si.status, si.currency, si.total_amount_minor, si.source_version,
    si.revision, si.deleted, si.created_at, s.id as snapshot_id, s.mapper_version, case when s.id is distinct from p.snapshot_id and s.id is distinct from r.known_snapshot then s.content end as content, case when s.id is distinct from p.snapshot_id and s.id is distinct from r.known_snapshot then s.issues end as issues, null as dependencies, null as mappings
       from jsonb_to_recordset(${requests}::jsonb)
            as r(n int, integration_id uuid, organization_id uuid, environment text, idempotency_key text, value text, known_snapshot uuid)
       left join lateral (
         select p.* from preparations p where p.integration_id = r.integration_id and p.idempotency_key = r.idempotency_key limit 1) p on true
       left join lateral (
         select f.id, f.created_at from stored_invoices f
          where f.integration_id in (select l.ledger_integration_id as id from integration_links l
       join integrations li on li.id = l.ledger_integration_id join integrations pi on pi.id = l.provider_integration_id
      where l.provider_integration_id = r.integration_id and li.organization_id = pi.organization_id and li.environment = pi.environment)
            and f.organization_id = r.organization_id and f.environment = r.environment and f.invoice_number = r.value
          order by f.created_at, f.id limit 2) f on true
       left join lateral (select si.* from stored_invoices si where si.id = f.id limit 1) si on true
       left join lateral (select c.* from ledger_connections c where c.id = si.connection_id limit 1) c on true
       left join lateral (select s.* from invoice_snapshots s where s.id = si.current_snapshot_id limit 1) s on true
      order by r.n, f.created_at, f.id`,
  ),
} as const satisfies Record<PreparationContextRead['selector'], unknown>;

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
  db: Database,
  selector: PreparationContextRead['selector'],
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
  const found = await runNamed(db, PREPARATION_CONTEXTS[selector], JSON.stringify(requests));
  const byRequest = reads.map(() => [] as ContextRow[]);
  for (const row of found) byRequest[row.n]!.push(row);
  // Every request yields at least one row (a left join from the requests).
  const authEpoch = String(found[0]!.auth_epoch);
  return { contexts: byRequest.map((rows) => contextOf(rows, authEpoch)), authEpoch };
}

function contextOf(found: ContextRow[], authEpoch: string): ContextRows {
  const first = found[0];
  // The `p_` columns are all set when `p_id` is (a left join of one preparation row).
  const saved = first?.p_id == null ? undefined : savedOf(first as SavedRow);
  return { saved, invoices: found.filter((r): r is ContextRow & InvoiceReadRow => r.id !== null), authEpoch };
}

/** A context row whose saved preparation is there: its `p_` columns are all set when `p_id` is. */
type SavedRow = { [C in keyof PreparationRow as `p_${C}`]: PreparationRow[C] };

/**
 * The domain's saved preparation of a context row: a raw statement's row, so the database's names and values
 * (timestamps and the amount as text), converted once here.
 */
function savedOf(row: SavedRow): SavedPreparation {
  return {
    id: row.p_id,
    organizationId: row.p_organization_id,
    integrationId: row.p_integration_id,
    environment: row.p_environment,
    provider: row.p_provider,
    kind: row.p_kind,
    storedInvoiceId: row.p_stored_invoice_id,
    snapshotId: row.p_snapshot_id,
    revision: row.p_revision,
    sourceIntegrationId: row.p_source_integration_id,
    connectionId: row.p_connection_id,
    realmId: row.p_source_connection_id,
    checkedThrough: new Date(row.p_checked_through),
    amountMinor: Number(row.p_amount_minor),
    currency: row.p_currency,
    idempotencyKey: row.p_idempotency_key,
    fingerprint: row.p_fingerprint,
    mode: row.p_mode,
    data: row.p_data,
    createdAt: new Date(row.p_created_at),
  };
}
