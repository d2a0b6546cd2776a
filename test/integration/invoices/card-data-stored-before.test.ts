import type { MikroORM } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { CARD_NUMBER_REDACTED } from '../../../server/domain/guard/redact-card-numbers.js';
import { getInvoiceForOperator } from '../../../server/domain/invoices/invoice-views.js';
import { mapAndStoreInvoices } from '../../../server/domain/invoices/store-invoices.js';
import { generateCompany } from '../../../server/ledger-sandbox/demo-company.js';
import { Migration20261125183000_redact_card_numbers as Redaction } from '../../../server/persistence/migrations/Migration20261125183000_redact_card_numbers.js';
import { migrate, openOrm } from '../../../server/persistence/orm.js';
import { poolUnitOfWork } from '../../../server/persistence/unit-of-work.js';
import { rawSql } from '../../support/raw-sql.js';
import { digitsOf, rowsHolding, TYPED } from '../../support/card-scan.js';
import { createTestDatabase } from '../../support/database.js';

/** The last migration of the versions that stored imported records raw. */
const BEFORE = 'Migration20261123161000_preparation_data_json';
const TABLES = ['ledger_source_records', 'stored_invoices', 'invoice_snapshots', 'preparations'] as const;
const [org, ledger, gwa, connection, run] = ['b1', 'b2', 'b3', 'b4', 'b5'].map((n) => `00000000-0000-4000-8000-0000000000${n}`) as [
  string,
  string,
  string,
  string,
  string,
];

/** Every row of the tables that hold imported text, as JSON by table and id. */
async function dump(orm: MikroORM): Promise<Record<string, Map<string, unknown>>> {
  const sql = rawSql(orm);
  const out: Record<string, Map<string, unknown>> = {};
  for (const table of TABLES) {
    const rows = await sql<{ id: string; row: unknown }>(`select id, to_jsonb(t)::text as row from ${table} t`);
    out[table] = new Map(rows.map((r) => [r.id, r.row]));
  }
  return out;
}

/** Ids whose row differs between two dumps, by table (every id of `before` is still there). */
/** Whether a row's columns of before are unchanged (columns later migrations add are not compared). */
function sameColumns(before: unknown, after: unknown): boolean {
  const [b, a] = [JSON.parse(String(before)) as Record<string, unknown>, JSON.parse(String(after)) as Record<string, unknown>];
  return Object.keys(b).every((k) => JSON.stringify(b[k]) === JSON.stringify(a[k]));
}

function changedIds(before: Record<string, Map<string, unknown>>, after: Record<string, Map<string, unknown>>) {
  return Object.fromEntries(
    TABLES.map((table) => {
      expect([...after[table]!.keys()].sort()).toStrictEqual([...before[table]!.keys()].sort());
      return [
        table,
        [...before[table]!]
          .filter(([id, row]) => !sameColumns(row, after[table]!.get(id)))
          .map(([id]) => id)
          .sort(),
      ];
    }),
  );
}

/**
 * Imports as a version before the import redacted card numbers made them: the records stored raw and mapped as
 * stored. 1001 holds card numbers in its own text, 1002 reads Item 4 whose name holds one, 1003 is clean now but an
 * earlier snapshot of it held one, 1004 is clean; a preparation made from 1001 copied a line description.
 */
async function seedAsOlderVersion(orm: MikroORM) {
  const sql = rawSql(orm);
  const company = generateCompany({ invoices: 4, items: 4, linesPerInvoice: 1 });
  const invoice = (id: string) => company.Invoice.find((i) => i.Id === id)! as Record<string, any>;
  invoice('1001').Line[0].Description = `Paid by card ${TYPED.visa}, thanks`;
  invoice('1001').DocNumber = `INV ${TYPED.jcb}`;
  const item = company.Item.find((i) => i.Id === '4')!;
  item.Name = `Gift card ${TYPED.mastercard}`;
  expect(invoice('1002').Line[0].SalesItemLineDetail.ItemRef.value).toBe('4');
  invoice('1002').Line[0].SalesItemLineDetail.ItemRef.name = item.Name;

  await sql(`insert into organizations (id, name, status, created_at) values (?, 'o', 'active', now())`, [org]);
  for (const [id, provider] of [
    [ledger, 'ledger'],
    [gwa, 'gwa'],
  ])
    await sql(`insert into integrations (id, organization_id, provider, environment, created_at) values (?, ?, ?, 'sandbox', now())`, [
      id,
      org,
      provider,
    ]);
  await sql(
    `insert into ledger_connections (id, organization_id, integration_id, environment, realm_id, status, access_token_enc, refresh_token_enc,
       access_token_expires_at, checked_through, created_at, updated_at)
     values (?, ?, ?, 'sandbox', ?, 'active', '', '', now(), now(), now(), now())`,
    [connection, org, ledger, company.realmId],
  );
  await sql(
    `insert into ledger_sync_runs (id, organization_id, integration_id, environment, connection_id, workflow_run_id, state, mode,
       full_reconciliation, period_end, entities, attempts, created_at)
     values (?, ?, ?, 'sandbox', ?, ?, 'succeeded', 'historical', false, now(), '{}', 1, now())`,
    [run, org, ledger, connection, crypto.randomUUID()],
  );
  const records = [
    ['Preferences', company.Preferences],
    ...company.Item.map((i) => ['Item', i] as const),
    ...company.Invoice.map((i) => ['Invoice', i] as const),
  ] as const;
  for (const [entityType, payload] of records)
    await sql(
      `insert into ledger_source_records (id, organization_id, integration_id, environment, connection_id, entity_type, source_id, sync_token,
         deleted, payload, sync_run_id, created_at, updated_at)
       values (?, ?, ?, 'sandbox', ?, ?, ?, '0', false, ?::jsonb, ?, now(), now())`,
      [crypto.randomUUID(), org, ledger, connection, entityType, String(payload.Id), JSON.stringify(payload), run],
    );
  // Today's mapper also stores each snapshot's qualification and cross-invoice facts, columns later migrations add
  // (…_qualification, …_cross_invoice_facts, …_qualification_rules): they
  // exist while this version's rows are written only, so the schema is BEFORE's again when they are dumped.
  await sql(`alter table invoice_snapshots add column qualification jsonb, add column cross_invoice_facts json`);
  await sql(`alter table stored_invoices add column qualification_rules smallint not null default 0`);
  const { store } = poolUnitOfWork(orm);
  await mapAndStoreInvoices(store, { connection: (await store.ledger.connectionById(connection))!, now: new Date() });
  await sql(`alter table invoice_snapshots drop column qualification, drop column cross_invoice_facts`);
  await sql(`alter table stored_invoices drop column qualification_rules`);

  const current = async (ledgerInvoiceId: string) =>
    (
      await sql<{ id: string; snapshot_id: string; revision: string; content: any }>(
        `select si.id, s.id as snapshot_id, s.revision, s.content from stored_invoices si join invoice_snapshots s on s.id = si.current_snapshot_id
          where si.ledger_invoice_id = ?`,
        [ledgerInvoiceId],
      )
    )[0]!;
  const earlier = await current('1003');
  earlier.content.invoice.lineItems[0].description = `Card on file ${TYPED.discover}`;
  const earlierSnapshot = crypto.randomUUID();
  await sql(
    `insert into invoice_snapshots (id, organization_id, integration_id, environment, stored_invoice_id, revision, mapper_version, source_version,
       content, issues, dependencies, mappings, created_at)
     select ?, organization_id, integration_id, environment, stored_invoice_id, ?, mapper_version, source_version, ?::jsonb, issues, dependencies,
       mappings, created_at - interval '1 day' from invoice_snapshots where id = ?`,
    [earlierSnapshot, `r1_${'a'.repeat(40)}`, JSON.stringify(earlier.content), earlier.snapshot_id],
  );
  const prepare = async (ledgerInvoiceId: string, description: string) => {
    const { id, snapshot_id, revision } = await current(ledgerInvoiceId);
    const data = { mode: 'invoice', lineItems: [{ description, quantity: 1, unitAmountMinor: 1000 }], amountMinor: 1000 };
    await sql(
      `insert into preparations (id, organization_id, integration_id, environment, provider, kind, stored_invoice_id, snapshot_id, revision,
         source_integration_id, connection_id, source_connection_id, checked_through, amount_minor, currency, idempotency_key, fingerprint,
         mode, data, created_at)
       values (?, ?, ?, 'sandbox', 'gwa', 'enrichment', ?, ?, ?, ?, ?, ?, now(), 1000, 'USD', ?, ?, 'invoice', ?::json, now())`,
      [
        crypto.randomUUID(),
        org,
        gwa,
        id,
        snapshot_id,
        revision,
        ledger,
        connection,
        company.realmId,
        `key-${ledgerInvoiceId}`,
        'f'.repeat(64),
        JSON.stringify(data),
      ],
    );
  };
  await prepare('1001', `Paid by card ${TYPED.visa}, thanks`);
  await prepare('1004', 'Product number 2');
  const ids = await sql<{ ledger_invoice_id: string; id: string; snapshot_id: string }>(
    `select si.ledger_invoice_id, si.id, si.current_snapshot_id as snapshot_id from stored_invoices si order by 1`,
  );
  return { byLedgerId: new Map(ids.map((r) => [r.ledger_invoice_id, r])), earlierSnapshot };
}

type Seeded = Awaited<ReturnType<typeof seedAsOlderVersion>>;
type Dump = Awaited<ReturnType<typeof dump>>;

const scan = (orm: MikroORM, typed: string) =>
  rowsHolding(rawSql(orm), digitsOf(typed), typed).then((found) => found.map((f) => f.table).sort());

/** No table holds a number; the invoices read from one are ready for no provider and name each field; nothing else changed. */
async function expectRedacted(orm: MikroORM, seeded: Seeded, before: Dump): Promise<Dump> {
  const sql = rawSql(orm);
  const id = (ledgerInvoiceId: string) => seeded.byLedgerId.get(ledgerInvoiceId)!;
  for (const typed of Object.values(TYPED)) expect(await scan(orm, typed), typed).toStrictEqual([]);
  const storage = poolUnitOfWork(orm);
  const cardPaths = async (ledgerInvoiceId: string, provider?: 'gwa' | 'gwb' | 'gwc') => {
    const detail = await getInvoiceForOperator(storage, { id: id(ledgerInvoiceId).id, provider });
    const paths = detail.issues.filter((i) => i.code === 'card_data_in_source').map((i) => `${i.category} ${i.path}`);
    return { ready: detail.ready, paths: paths.sort(), detail };
  };
  // Not mapped again (that needs the mapper of the day): the current snapshot is redacted in place, issues at its paths.
  const own = ['source invoice.invoiceNumber', 'source invoice.lineItems[0].description'];
  const ofItem = ['source invoice.lineItems[0].productName'];
  for (const provider of ['gwa', 'gwb', 'gwc'] as const) {
    const first = await cardPaths('1001', provider);
    expect({ ready: first.ready, paths: first.paths }, provider).toStrictEqual({ ready: false, paths: own });
    const second = await cardPaths('1002', provider);
    expect({ ready: second.ready, paths: second.paths }, provider).toStrictEqual({ ready: false, paths: ofItem });
    expect((await cardPaths('1003', provider)).paths).toStrictEqual([]);
    expect((await cardPaths('1004', provider)).paths).toStrictEqual([]);
  }
  const first = (await cardPaths('1001')).detail;
  expect(first.invoiceNumber).toBe(CARD_NUMBER_REDACTED);
  expect(first.invoice!.lineItems[0]!.description).toBe(CARD_NUMBER_REDACTED);
  // The same revision: its snapshot was rewritten, not joined by a second one.
  expect(first.snapshotId).toBe(id('1001').snapshot_id);

  // The earlier snapshot of 1003 is redacted and carries the issue at its path in the snapshot.
  const [earlier] = await sql<{ description: string; issues: { code: string; path: string; category: string }[] }>(
    `select content->'invoice'->'lineItems'->0->>'description' as description, issues from invoice_snapshots where id = ?`,
    [seeded.earlierSnapshot],
  );
  expect(earlier!.description).toBe(CARD_NUMBER_REDACTED);
  expect(earlier!.issues.filter((i) => i.code === 'card_data_in_source').map((i) => [i.path, i.category])).toStrictEqual([
    ['invoice.lineItems[0].description', 'source'],
  ]);
  const [prepared] = await sql<{ id: string; data: string }>(
    `select id, data::text as data from preparations where stored_invoice_id = ?`,
    [id('1001').id],
  );
  expect(JSON.parse(prepared!.data).lineItems[0].description).toBe(CARD_NUMBER_REDACTED);

  // Only the rows that held a number, or were made from one, changed.
  const after = await dump(orm);
  const recordIds = await sql<{ id: string; key: string }>(`select id, entity_type || ':' || source_id as key from ledger_source_records`);
  const recordId = (key: string) => recordIds.find((r) => r.key === key)!.id;
  expect(changedIds(before, after)).toStrictEqual({
    ledger_source_records: [recordId('Invoice:1001'), recordId('Invoice:1002'), recordId('Item:4')].sort(),
    stored_invoices: [id('1001').id],
    invoice_snapshots: [id('1001').snapshot_id, id('1002').snapshot_id, seeded.earlierSnapshot].sort(),
    preparations: [prepared!.id],
  });
  return after;
}

/** A database at the last migration before the redaction, seeded as that version stored imports, and its rows before. */
async function olderDatabase(run: (orm: MikroORM, seeded: Seeded, before: Dump) => Promise<void>) {
  const db = await createTestDatabase({ migrated: false });
  const orm = await openOrm(db.url);
  try {
    await orm.migrator.up({ to: BEFORE });
    const seeded = await seedAsOlderVersion(orm);
    await run(orm, seeded, await dump(orm));
  } finally {
    await orm.close(true);
    await db.drop();
  }
}

describe('card numbers stored by earlier versions', () => {
  it('when a database made before the import redacted holds card numbers, then the migration leaves no table holding the digits and blocks the invoices read from them', async () => {
    await olderDatabase(async (orm, seeded, before) => {
      // The scan finds the numbers where the older version put them.
      const [records, invoices, snapshots, preparations] = TABLES.map((t) => `"public"."${t}"`);
      expect(await scan(orm, TYPED.visa)).toStrictEqual([snapshots, records, preparations]);
      expect(await scan(orm, TYPED.jcb)).toStrictEqual([snapshots, records, invoices]);
      expect(await scan(orm, TYPED.mastercard)).toStrictEqual([snapshots, records]);
      expect(await scan(orm, TYPED.discover)).toStrictEqual([snapshots]);

      expect(await migrate(orm)).toContain('Migration20261125183000_redact_card_numbers');
      const after = await expectRedacted(orm, seeded, before);

      // Run again (its down is a no-op): nothing changes.
      await orm.migrator.down({ to: 'Migration20261125180000_gwc_webhooks' });
      expect(await migrate(orm)).toContain('Migration20261125183000_redact_card_numbers');
      const none = { ledger_source_records: [], stored_invoices: [], invoice_snapshots: [], preparations: [] };
      expect(changedIds(after, await dump(orm))).toStrictEqual(none);
      // The append-only triggers are back.
      const sql = rawSql(orm);
      await expect(sql(`update invoice_snapshots set mapper_version = mapper_version`)).rejects.toThrow(/append-only \(UPDATE refused\)/);
      await expect(sql(`update preparations set mode = mode`)).rejects.toThrow(/append-only \(UPDATE refused\)/);
    });
  });

  it('when every table spans many pages, then each batch is redacted the same', async () => {
    for (const batch of [1, 2]) {
      await olderDatabase(async (orm, seeded, before) => {
        const redaction = new Redaction(orm.em.getDriver(), orm.config);
        redaction.batch = batch;
        await redaction.up();
        // The later migrations (a second run of the redaction changes nothing), so today's reads find their columns.
        await migrate(orm);
        await expectRedacted(orm, seeded, before);
      });
    }
  });
});
