import { isDeepStrictEqual } from 'node:util';
import type { CategorizedIssue } from '../../contract/common/index.js';
import { containsCardNumber } from '../domain/guard/card-numbers.js';
import { CARD_NUMBER_REDACTED, redactCardNumbers } from '../domain/guard/redact-card-numbers.js';
import { invoiceIssue } from '../domain/invoices/issue-categories.js';
import { isProviderIdentifier } from '../domain/invoices/source-record.js';
import { mapStoredSourceInvoices } from '../domain/invoices/store-invoices.js';
import { connectionById } from './sql/ledger-connections.sql.js';
import { scopeOfConnection } from '../domain/ledger/types.js';
import type { Sql } from './sql/sql.js';
import { writeMappedInvoices } from './sql/stored-invoices.sql.js';

/**
 * Removing card numbers that earlier versions stored raw from imported records and
 * everything made of them (docs/decisions.md, "Card numbers stored by earlier
 * versions"); run by Migration20261125183000_redact_card_numbers inside its
 * transaction. Every table is walked in primary-key order, `BATCH` rows at a time,
 * so no table is ever held in memory whole. Running it again changes nothing.
 */
const BATCH = 500;

/** Where the steps run: the migration's transaction, and how many rows a page holds. */
interface Pass {
  sql: Sql;
  batch: number;
}

/** Each page of `table` in id order (keyset: the next page starts after the last id seen). */
async function eachPage<Row extends { id: string }>(
  o: Pass & { table: string; columns: string; where?: string; params?: unknown[] },
  handle: (rows: Row[]) => Promise<void>,
): Promise<void> {
  let after: string | undefined;
  for (;;) {
    const conditions = [o.where ?? 'true', after === undefined ? 'true' : 't.id > ?'];
    const rows = await o.sql<Row>(`select t.id, ${o.columns} from ${o.table} t where ${conditions.join(' and ')} order by t.id limit ?`, [
      ...(o.params ?? []),
      ...(after === undefined ? [] : [after]),
      o.batch,
    ]);
    if (rows.length > 0) await handle(rows);
    if (rows.length < o.batch) return;
    after = rows.at(-1)!.id;
  }
}

/** JSON as stored (`jsonb` drops `undefined` members and reorders keys): for comparing a mapping with what is stored. */
const asStored = (value: unknown): unknown => (value === undefined ? null : JSON.parse(JSON.stringify(value)));

/** Step 1: every stored source record, redacted exactly as the import redacts a record before storing it. */
async function redactSourceRecords(pass: Pass): Promise<void> {
  const { sql } = pass;
  await eachPage<{ id: string; payload: unknown }>({ ...pass, table: 'ledger_source_records', columns: 'payload' }, async (rows) => {
    for (const row of rows) {
      const { value, paths } = redactCardNumbers(row.payload, { isIdentifier: isProviderIdentifier });
      if (paths.length > 0) await sql(`update ledger_source_records set payload = ?::jsonb where id = ?`, [JSON.stringify(value), row.id]);
    }
  });
}

/**
 * Stored invoices that read a record holding the marker: their own Invoice record,
 * an Item their current snapshot depends on, or their company's Preferences.
 */
const READS_MARKER = `(
  exists (select 1 from ledger_source_records r where r.id = t.source_record_id and strpos(r.payload::text, ?) > 0)
  or exists (select 1 from ledger_source_records p where p.connection_id = t.connection_id and p.entity_type = 'Preferences'
      and strpos(p.payload::text, ?) > 0)
  or exists (select 1 from invoice_snapshots s cross join jsonb_array_elements(s.dependencies) d
      join ledger_source_records i on i.connection_id = t.connection_id and i.entity_type = 'Item' and i.source_id = d->>'externalId'
      where s.id = t.current_snapshot_id and d->>'objectType' = 'Item' and strpos(i.payload::text, ?) > 0))`;

interface CurrentRow {
  id: string;
  invoice_number: string | null;
  revision: string | null;
  deleted: boolean;
  content: unknown;
  issues: unknown;
  dependencies: unknown;
  mappings: unknown;
}

/**
 * Step 2: those invoices mapped again by the current mapper, as a sync would map
 * them, and stored where the result differs from what is stored. A new revision
 * gets a new snapshot (the ordinary write). The same revision (the usual case: the
 * record's SyncToken did not change, only its text) already has its snapshot,
 * which the unique (invoice, revision) key keeps from being written again: that
 * snapshot is rewritten in place to what the current mapper makes of the
 * redacted record, so the database holds what this version would have imported.
 */
async function remapInvoicesReadingRedactedRecords(pass: Pass, now: Date): Promise<void> {
  const { sql } = pass;
  const marker = [CARD_NUMBER_REDACTED, CARD_NUMBER_REDACTED, CARD_NUMBER_REDACTED];
  const page = { table: 'stored_invoices', columns: 't.connection_id, t.ledger_invoice_id', where: READS_MARKER, params: marker };
  await eachPage<{ id: string; connection_id: string; ledger_invoice_id: string }>({ ...pass, ...page }, async (rows) => {
    for (const connectionId of new Set(rows.map((r) => r.connection_id))) {
      const connection = (await connectionById(sql, connectionId))!;
      const ids = rows.filter((r) => r.connection_id === connectionId).map((r) => r.ledger_invoice_id);
      const mapped = await mapStoredSourceInvoices(sql, { connection, ledgerInvoiceIds: ids });
      const current = await sql<CurrentRow>(
        `select si.id, si.invoice_number, si.revision, si.deleted, s.content, s.issues, s.dependencies, s.mappings
           from stored_invoices si left join invoice_snapshots s on s.id = si.current_snapshot_id
          where si.id = any(array(select jsonb_array_elements_text(?::jsonb)::uuid))`,
        [JSON.stringify(mapped.flatMap((m) => (m.state ? [m.state.id] : [])))],
      );
      const byId = new Map(current.map((c) => [c.id, c]));
      const changed = mapped
        .map((m) => m.write)
        .filter((w) => {
          const stored = byId.get(w.id);
          const mapping = [w.invoiceNumber, w.revision, w.deleted, w.content, w.issues, w.dependencies, w.mappings];
          const s = stored && [
            stored.invoice_number,
            stored.revision,
            stored.deleted,
            stored.content,
            stored.issues,
            stored.dependencies,
            stored.mappings,
          ];
          return !isDeepStrictEqual(asStored(mapping), asStored(s));
        });
      for (const w of changed) {
        await sql(
          `update invoice_snapshots set content = ?::jsonb, issues = ?::jsonb, dependencies = ?::jsonb, mappings = ?::jsonb,
             mapper_version = ?, source_version = ? where stored_invoice_id = ? and revision = ?`,
          [
            ...[w.content, w.issues, w.dependencies, w.mappings].map((v) => JSON.stringify(v)),
            w.mapperVersion,
            w.sourceVersion,
            w.id,
            w.revision,
          ],
        );
      }
      await writeMappedInvoices(sql, { scope: scopeOfConnection(connection), connectionId, rows: changed, now });
    }
  });
}

/** Snapshot fields that are identifiers the source assigned (an Item's or Invoice's Id, a SyncToken), kept as the import keeps them. */
const SNAPSHOT_IDENTIFIERS = new Set(['externalId', 'sourceItemId', 'version']);

/**
 * Step 3: every snapshot still holding a card number (earlier revisions, which no
 * longer have their source record to be mapped from), redacted in place, with a
 * `card_data_in_source` issue per redacted field (its path in the snapshot) so
 * that readiness refuses it wherever it is read.
 */
async function redactSnapshots(pass: Pass): Promise<void> {
  const { sql } = pass;
  type Row = { id: string; content: unknown; issues: CategorizedIssue[]; dependencies: unknown; mappings: unknown };
  const page = { table: 'invoice_snapshots', columns: 'content, issues, dependencies, mappings' };
  await eachPage<Row>({ ...pass, ...page }, async (rows) => {
    for (const row of rows) {
      const isIdentifier = (key: string) => SNAPSHOT_IDENTIFIERS.has(key);
      const content = redactCardNumbers(row.content, { isIdentifier });
      const dependencies = redactCardNumbers(row.dependencies, { root: 'provenance.dependencies', isIdentifier });
      const mappings = redactCardNumbers(row.mappings, { root: 'provenance.mappings', isIdentifier });
      const issues = redactCardNumbers(row.issues, { root: 'issues' });
      const paths = [...content.paths, ...dependencies.paths, ...mappings.paths, ...issues.paths];
      if (paths.length === 0) continue;
      const found = paths.map((path) => invoiceIssue('card_data_in_source', path));
      await sql(
        `update invoice_snapshots set content = ?::jsonb, issues = ?::jsonb, dependencies = ?::jsonb, mappings = ?::jsonb where id = ?`,
        [
          JSON.stringify(content.value),
          JSON.stringify([...(issues.value as CategorizedIssue[]), ...found]),
          JSON.stringify(dependencies.value),
          JSON.stringify(mappings.value),
          row.id,
        ],
      );
    }
  });
}

/** Step 4: an invoice number still holding a card number (an invoice not mapped again above) takes the marker, as its snapshot did. */
async function redactInvoiceNumbers(pass: Pass): Promise<void> {
  const { sql } = pass;
  const page = { table: 'stored_invoices', columns: 'invoice_number', where: 't.invoice_number is not null' };
  await eachPage<{ id: string; invoice_number: string }>({ ...pass, ...page }, async (rows) => {
    for (const row of rows.filter((r) => containsCardNumber(r.invoice_number))) {
      await sql(`update stored_invoices set invoice_number = ? where id = ?`, [CARD_NUMBER_REDACTED, row.id]);
    }
  });
}

/**
 * Step 5: a preparation's answer holding a card number (a gwa line description,
 * for one) is redacted in place, every string of it: the evidence loses the
 * digits, which the rule requires, and keeps everything else byte for byte.
 */
async function redactPreparations(pass: Pass): Promise<void> {
  const { sql } = pass;
  await eachPage<{ id: string; data: string }>({ ...pass, table: 'preparations', columns: 'data::text as data' }, async (rows) => {
    for (const row of rows) {
      const { value, paths } = redactCardNumbers(JSON.parse(row.data));
      if (paths.length > 0) await sql(`update preparations set data = ?::json where id = ?`, [JSON.stringify(value), row.id]);
    }
  });
}

/**
 * Everything, in order: the source records first (what the mapper reads), then
 * the invoices mapped from them, then whatever older snapshots, invoice numbers
 * and preparations still hold a number. The caller disables the append-only
 * triggers of `invoice_snapshots` and `preparations` for its transaction.
 */
export async function redactStoredCardNumbers(sql: Sql, o: { now: Date; batch?: number }): Promise<void> {
  const pass = { sql, batch: o.batch ?? BATCH };
  await redactSourceRecords(pass);
  await remapInvoicesReadingRedactedRecords(pass, o.now);
  await redactSnapshots(pass);
  await redactInvoiceNumbers(pass);
  await redactPreparations(pass);
}
