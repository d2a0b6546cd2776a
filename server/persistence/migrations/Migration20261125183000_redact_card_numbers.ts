import { Migration } from '@mikro-orm/migrations';
import {
  CARD_NUMBER_REDACTED,
  cardDataInSource,
  containsCardNumber,
  isProviderIdentifier,
  isSnapshotIdentifier,
  redactCardNumbers,
  type StoredIssue,
} from './frozen/redact-card-numbers-2026-11-25.js';

/** The append-only trigger functions as created with their tables: restored when the run is over. */
const appendOnly = (table: string) =>
  `create or replace function ${table}_append_only() returns trigger language plpgsql as $$ begin raise exception '${table} is append-only (% refused)', tg_op using errcode = 'restrict_violation'; end $$;`;

/**
 * The same, letting an UPDATE through only in a transaction that says it is this redaction. Replacing a function takes
 * no lock on its table, unlike ALTER TABLE ... DISABLE TRIGGER, which would hold writers of the old release out.
 */
const appendOnlyExceptRedaction = (table: string) =>
  `create or replace function ${table}_append_only() returns trigger language plpgsql as $$ begin
     if tg_op = 'UPDATE' and current_setting('svc.redacting_card_numbers', true) = 'on' then return new; end if;
     raise exception '${table} is append-only (% refused)', tg_op using errcode = 'restrict_violation'; end $$;`;

/** How long a batch waits for a row lock before it gives way to the old release's writers and is tried again. */
const LOCK_TIMEOUT = '2s';
const ATTEMPTS = 5;

/** A batch's transaction (or the migration's own connection). */
type Trx = ReturnType<Migration['getEntityManager']>;

interface Page<Row> {
  /** The batch's rows after `after` in id order: literal SQL, columns as of this migration. */
  select: string;
  /** The updates for the rows that hold a card number, run in the same transaction as the read. */
  redact: (trx: Trx, rows: Row[]) => Promise<void>;
}

/**
 * Data only: no card number stays in storage from imports made before the import redacted them (docs/decisions.md,
 * "Card numbers stored by earlier versions"). Source records, every snapshot (current ones included, which get
 * `card_data_in_source` so that readiness refuses them until the ordinary import maps the changed source record again),
 * invoice numbers and preparations are redacted in place.
 *
 * Not transactional, so that old instances keep writing while it runs (docs/operations.md): every table is walked in
 * id order, `batch` rows a transaction with a lock timeout; a batch that times out is tried again. A crash leaves each
 * batch done or not, and a rerun redacts what is left (a redacted row holds no number, so it is not touched again).
 * Runs only the frozen code beside it and SQL naming the columns as they were that day.
 */
export class Migration20261125183000_redact_card_numbers extends Migration {
  /** Rows a transaction reads and redacts. */
  batch = 500;

  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    const em = this.getEntityManager();
    await em.execute(appendOnlyExceptRedaction('invoice_snapshots'));
    await em.execute(appendOnlyExceptRedaction('preparations'));
    await this.walk('ledger_source_records', sourceRecords);
    await this.walk('invoice_snapshots', snapshots);
    await this.walk('stored_invoices', invoiceNumbers);
    await this.walk('preparations', preparations);
    await em.execute(appendOnly('invoice_snapshots'));
    await em.execute(appendOnly('preparations'));
  }

  override async down(): Promise<void> {
    // Nothing to undo: the numbers removed are not kept anywhere, by design.
  }

  /** Every row of a table in keyset batches, each its own short transaction. */
  private async walk<Row extends { id: string }>(table: string, page: Page<Row>): Promise<void> {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows = await this.inBatchTransaction(table, async (trx) => {
        const rows = await trx.execute<Row[]>(page.select, [after, this.batch]);
        await page.redact(trx, rows);
        return rows;
      });
      if (rows.length < this.batch) return;
      after = rows.at(-1)!.id;
    }
  }

  private async inBatchTransaction<T>(table: string, work: (trx: Trx) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.getEntityManager().transactional(async (trx) => {
          await trx.execute(`set local lock_timeout = '${LOCK_TIMEOUT}'`);
          await trx.execute(`set local svc.redacting_card_numbers = 'on'`);
          return work(trx);
        });
      } catch (error) {
        // lock_not_available: a writer holds a row of this batch; let it finish and try the batch again.
        if ((error as { code?: string }).code !== '55P03' || attempt >= ATTEMPTS) {
          throw new Error(`Redacting card numbers in ${table} failed (attempt ${attempt})`, { cause: error });
        }
      }
    }
  }
}

/** Source records, redacted exactly as the import redacted a record before storing it that day. */
const sourceRecords: Page<{ id: string; payload: unknown }> = {
  select: `select "id", "payload" from "ledger_source_records" where "id" > ? order by "id" limit ?`,
  redact: async (trx, rows) => {
    for (const row of rows) {
      const { value, paths } = redactCardNumbers(row.payload, { isIdentifier: isProviderIdentifier });
      if (paths.length === 0) continue;
      await trx.execute(`update "ledger_source_records" set "payload" = ?::jsonb where "id" = ?`, [JSON.stringify(value), row.id]);
    }
  },
};

/**
 * Every snapshot holding a card number, redacted in place with a `card_data_in_source` issue per redacted field (its
 * path in the snapshot): the current snapshot as well, since remapping would need the mapper of the day it runs.
 */
const snapshots: Page<{ id: string; content: unknown; issues: StoredIssue[]; dependencies: unknown; mappings: unknown }> = {
  select: `select "id", "content", "issues", "dependencies", "mappings" from "invoice_snapshots" where "id" > ? order by "id" limit ?`,
  redact: async (trx, rows) => {
    for (const row of rows) {
      const isIdentifier = isSnapshotIdentifier;
      const content = redactCardNumbers(row.content, { isIdentifier });
      const dependencies = redactCardNumbers(row.dependencies, { root: 'provenance.dependencies', isIdentifier });
      const mappings = redactCardNumbers(row.mappings, { root: 'provenance.mappings', isIdentifier });
      const issues = redactCardNumbers(row.issues, { root: 'issues' });
      const paths = [...content.paths, ...dependencies.paths, ...mappings.paths, ...issues.paths];
      if (paths.length === 0) continue;
      await trx.execute(
        `update "invoice_snapshots" set "content" = ?::jsonb, "issues" = ?::jsonb, "dependencies" = ?::jsonb, "mappings" = ?::jsonb
          where "id" = ?`,
        [
          JSON.stringify(content.value),
          JSON.stringify([...(issues.value as StoredIssue[]), ...paths.map(cardDataInSource)]),
          JSON.stringify(dependencies.value),
          JSON.stringify(mappings.value),
          row.id,
        ],
      );
    }
  },
};

/** An invoice number holding a card number takes the marker, as its snapshot did. */
const invoiceNumbers: Page<{ id: string; invoice_number: string | null }> = {
  select: `select "id", "invoice_number" from "stored_invoices" where "id" > ? order by "id" limit ?`,
  redact: async (trx, rows) => {
    for (const row of rows) {
      if (row.invoice_number === null || !containsCardNumber(row.invoice_number)) continue;
      await trx.execute(`update "stored_invoices" set "invoice_number" = ? where "id" = ?`, [CARD_NUMBER_REDACTED, row.id]);
    }
  },
};

/**
 * A preparation's answer holding a card number (a gwa line description, for one), every string of it: the evidence
 * loses the digits, which the rule requires, and keeps everything else. `data` is `json`, read as its text.
 */
const preparations: Page<{ id: string; data: string }> = {
  select: `select "id", "data"::text as "data" from "preparations" where "id" > ? order by "id" limit ?`,
  redact: async (trx, rows) => {
    for (const row of rows) {
      const { value, paths } = redactCardNumbers(JSON.parse(row.data));
      if (paths.length === 0) continue;
      await trx.execute(`update "preparations" set "data" = ?::json where "id" = ?`, [JSON.stringify(value), row.id]);
    }
  },
};
