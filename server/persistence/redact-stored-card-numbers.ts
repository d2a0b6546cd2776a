import { isDeepStrictEqual } from 'node:util';
import { sql as raw } from 'kysely';
import type { CategorizedIssue } from '../../contract/common/index.js';
import { containsCardNumber } from '../domain/guard/card-numbers.js';
import { CARD_NUMBER_REDACTED, redactCardNumbers } from '../domain/guard/redact-card-numbers.js';
import { invoiceIssue } from '../domain/invoices/issue-categories.js';
import { isProviderIdentifier } from '../domain/invoices/source-record.js';
import { mapStoredSourceInvoices } from '../domain/invoices/store-invoices.js';
import { db, run } from './db/query.js';
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

/**
 * Each page of a table in id order (keyset: the next page starts after the last id seen). `read` is the table's page
 * statement: the rows after `after` (all when undefined) in id order, `batch` at most.
 */
async function eachPage<Row extends { id: string }>(
  o: Pass,
  read: (after: string | undefined, batch: number) => Promise<Row[]>,
  handle: (rows: Row[]) => Promise<void>,
): Promise<void> {
  let after: string | undefined;
  for (;;) {
    const rows = await read(after, o.batch);
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
  const page = (after: string | undefined, batch: number) =>
    run(
      sql,
      db
        .selectFrom('ledger_source_records as t')
        .select(['t.id', 't.payload'])
        .$if(after !== undefined, (q) => q.where('t.id', '>', after!))
        .orderBy('t.id')
        .limit(batch),
    );
  await eachPage(pass, page, async (rows) => {
    for (const row of rows) {
      const { value, paths } = redactCardNumbers(row.payload, { isIdentifier: isProviderIdentifier });
      if (paths.length === 0) continue;
      await run(
        sql,
        db
          .updateTable('ledger_source_records')
          .set({ payload: JSON.stringify(value) })
          .where('id', '=', row.id),
      );
    }
  });
}

/** The text of a record's payload holds the marker (alias `r`). */
const holdsMarker = (alias: 'r' | 'p' | 'i') => raw<number>`strpos(${raw.ref(`${alias}.payload`)}::text, ${CARD_NUMBER_REDACTED})`;

/**
 * A page of the stored invoices that read a record holding the marker: their own
 * Invoice record, an Item their current snapshot depends on, or their company's
 * Preferences.
 */
const invoicesReadingMarker = (sql: Sql) => (after: string | undefined, batch: number) =>
  run(
    sql,
    db
      .selectFrom('stored_invoices as t')
      .select(['t.id', 't.connection_id', 't.ledger_invoice_id'])
      .where(({ or, exists, selectFrom }) =>
        or([
          exists(
            selectFrom('ledger_source_records as r')
              .select(raw.lit(1).as('one'))
              .whereRef('r.id', '=', 't.source_record_id')
              .where(holdsMarker('r'), '>', 0),
          ),
          exists(
            selectFrom('ledger_source_records as p')
              .select(raw.lit(1).as('one'))
              .whereRef('p.connection_id', '=', 't.connection_id')
              .where('p.entity_type', '=', 'Preferences')
              .where(holdsMarker('p'), '>', 0),
          ),
          exists(
            selectFrom('invoice_snapshots as s')
              .crossJoin(raw`jsonb_array_elements(${raw.ref('s.dependencies')})`.as('d'))
              .innerJoin('ledger_source_records as i', (join) =>
                join
                  .onRef('i.connection_id', '=', 't.connection_id')
                  .on('i.entity_type', '=', 'Item')
                  .on('i.source_id', '=', raw<string>`d->>'externalId'`),
              )
              .select(raw.lit(1).as('one'))
              .whereRef('s.id', '=', 't.current_snapshot_id')
              .where(raw<string>`d->>'objectType'`, '=', 'Item')
              .where(holdsMarker('i'), '>', 0),
          ),
        ]),
      )
      .$if(after !== undefined, (q) => q.where('t.id', '>', after!))
      .orderBy('t.id')
      .limit(batch),
  );

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
  await eachPage(pass, invoicesReadingMarker(sql), async (rows) => {
    for (const connectionId of new Set(rows.map((r) => r.connection_id))) {
      const connection = (await connectionById(sql, connectionId))!;
      const ids = rows.filter((r) => r.connection_id === connectionId).map((r) => r.ledger_invoice_id);
      const mapped = await mapStoredSourceInvoices(sql, { connection, ledgerInvoiceIds: ids });
      const stateIds = JSON.stringify(mapped.flatMap((m) => (m.state ? [m.state.id] : [])));
      const current = await run(
        sql,
        db
          .selectFrom('stored_invoices as si')
          .leftJoin('invoice_snapshots as s', 's.id', 'si.current_snapshot_id')
          .select(['si.id', 'si.invoice_number', 'si.revision', 'si.deleted', 's.content', 's.issues', 's.dependencies', 's.mappings'])
          .where('si.id', '=', raw<string>`any(array(select jsonb_array_elements_text(${stateIds}::jsonb)::uuid))`),
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
        await run(
          sql,
          db
            .updateTable('invoice_snapshots')
            .set({
              content: JSON.stringify(w.content),
              issues: JSON.stringify(w.issues),
              dependencies: JSON.stringify(w.dependencies),
              mappings: JSON.stringify(w.mappings),
              mapper_version: w.mapperVersion,
              source_version: w.sourceVersion,
            })
            .where('stored_invoice_id', '=', w.id)
            .where('revision', '=', w.revision),
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
  const page = (after: string | undefined, batch: number) =>
    run(
      sql,
      db
        .selectFrom('invoice_snapshots as t')
        .select(['t.id', 't.content', 't.issues', 't.dependencies', 't.mappings'])
        .$if(after !== undefined, (q) => q.where('t.id', '>', after!))
        .orderBy('t.id')
        .limit(batch),
    );
  await eachPage(pass, page, async (rows) => {
    for (const row of rows) {
      const isIdentifier = (key: string) => SNAPSHOT_IDENTIFIERS.has(key);
      const content = redactCardNumbers(row.content, { isIdentifier });
      const dependencies = redactCardNumbers(row.dependencies, { root: 'provenance.dependencies', isIdentifier });
      const mappings = redactCardNumbers(row.mappings, { root: 'provenance.mappings', isIdentifier });
      const issues = redactCardNumbers(row.issues, { root: 'issues' });
      const paths = [...content.paths, ...dependencies.paths, ...mappings.paths, ...issues.paths];
      if (paths.length === 0) continue;
      const found = paths.map((path) => invoiceIssue('card_data_in_source', path));
      await run(
        sql,
        db
          .updateTable('invoice_snapshots')
          .set({
            content: JSON.stringify(content.value),
            issues: JSON.stringify([...(issues.value as CategorizedIssue[]), ...found]),
            dependencies: JSON.stringify(dependencies.value),
            mappings: JSON.stringify(mappings.value),
          })
          .where('id', '=', row.id),
      );
    }
  });
}

/** Step 4: an invoice number still holding a card number (an invoice not mapped again above) takes the marker, as its snapshot did. */
async function redactInvoiceNumbers(pass: Pass): Promise<void> {
  const { sql } = pass;
  const page = (after: string | undefined, batch: number) =>
    run(
      sql,
      db
        .selectFrom('stored_invoices as t')
        .select(['t.id', 't.invoice_number'])
        .where('t.invoice_number', 'is not', null)
        .$if(after !== undefined, (q) => q.where('t.id', '>', after!))
        .orderBy('t.id')
        .limit(batch),
    );
  await eachPage(pass, page, async (rows) => {
    for (const row of rows.filter((r) => containsCardNumber(r.invoice_number!))) {
      await run(sql, db.updateTable('stored_invoices').set({ invoice_number: CARD_NUMBER_REDACTED }).where('id', '=', row.id));
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
  // `data` is `json`: read as its text, which the driver would otherwise parse.
  const page = (after: string | undefined, batch: number) =>
    run(
      sql,
      db
        .selectFrom('preparations as t')
        .select((eb) => ['t.id', eb.cast<string>('t.data', 'text').as('data')])
        .$if(after !== undefined, (q) => q.where('t.id', '>', after!))
        .orderBy('t.id')
        .limit(batch),
    );
  await eachPage(pass, page, async (rows) => {
    for (const row of rows) {
      const { value, paths } = redactCardNumbers(JSON.parse(row.data));
      if (paths.length === 0) continue;
      await run(
        sql,
        db
          .updateTable('preparations')
          .set({ data: JSON.stringify(value) })
          .where('id', '=', row.id),
      );
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
