import type { MikroORM } from '@mikro-orm/postgresql';
import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { mapAndStoreInvoices } from '../../../server/domain/invoices/store-invoices.js';
import { generateCompany } from '../../../server/ledger-sandbox/demo-company.js';
import { openOrm } from '../../../server/persistence/orm.js';
import { poolUnitOfWork } from '../../../server/persistence/unit-of-work.js';
import { rawSql } from '../../support/raw-sql.js';
import { digitsOf, rowsHolding, TYPED } from '../../support/card-scan.js';
import { createTestDatabase } from '../../support/database.js';

/** The last migration of the versions that stored imported records raw, and the redaction. */
const BEFORE = 'Migration20261123161000_preparation_data_json';
const REDACTION = 'Migration20261125183000_redact_card_numbers';
const [org, ledger, connection, run] = ['c1', 'c2', 'c3', 'c4'].map((n) => `00000000-0000-4000-8000-0000000000${n}`) as [
  string,
  string,
  string,
  string,
];
/** More than two batches of the migration's 500 rows. */
const INVOICES = 1100;

/** Invoices imported raw by the older version, every one but the first with a card number in its line. */
async function seedAsOlderVersion(orm: MikroORM): Promise<string> {
  const sql = rawSql(orm);
  const company = generateCompany({ invoices: INVOICES, items: 4, linesPerInvoice: 1 });
  for (const invoice of company.Invoice.slice(1)) (invoice as Record<string, any>).Line[0].Description = `Paid by card ${TYPED.visa}`;
  await sql(`insert into organizations (id, name, status, created_at) values (?, 'o', 'active', now())`, [org]);
  await sql(`insert into integrations (id, organization_id, provider, environment, created_at) values (?, ?, 'ledger', 'sandbox', now())`, [
    ledger,
    org,
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
  // exist while these rows are written only.
  await sql(`alter table invoice_snapshots add column qualification jsonb, add column cross_invoice_facts json`);
  await sql(`alter table stored_invoices add column qualification_rules smallint not null default 0`);
  const { store } = poolUnitOfWork(orm);
  await mapAndStoreInvoices(store, { connection: (await store.ledger.connectionById(connection))!, now: new Date() });
  await sql(`alter table invoice_snapshots drop column qualification, drop column cross_invoice_facts`);
  await sql(`alter table stored_invoices drop column qualification_rules`);
  const [clean] = await sql<{ id: string }>(
    `select s.id from invoice_snapshots s join stored_invoices si on si.current_snapshot_id = s.id where si.ledger_invoice_id = ?`,
    [company.Invoice[0]!.Id],
  );
  return clean!.id;
}

describe('card-number redaction during a rolling release', () => {
  it('when old instances keep writing snapshots while the migration runs, then every write succeeds within a 500 ms lock timeout and no table holds the digits', async () => {
    const db = await createTestDatabase({ migrated: false });
    const orm = await openOrm(db.url);
    try {
      await orm.migrator.up({ to: BEFORE });
      const clean = await seedAsOlderVersion(orm);
      expect((await rowsHolding(rawSql(orm), digitsOf(TYPED.visa), TYPED.visa)).length).toBeGreaterThan(0);

      // What an old instance writes: a new clean snapshot revision, each statement in its own transaction that gives up
      // after 500 ms waiting for a lock (as a request would rather answer 503 than hang).
      let migrating = true;
      const errors: unknown[] = [];
      let written = 0;
      const writer = async () => {
        const kysely = orm.em.getConnection().getClient();
        while (migrating) {
          try {
            await kysely.transaction().execute(async (trx) => {
              await trx.executeQuery(CompiledQuery.raw(`set local lock_timeout = '500ms'`));
              await trx.executeQuery(
                CompiledQuery.raw(
                  `insert into invoice_snapshots (id, organization_id, integration_id, environment, stored_invoice_id, revision, mapper_version,
                   source_version, content, issues, dependencies, mappings, created_at)
                 select $1, organization_id, integration_id, environment, stored_invoice_id, $2, mapper_version, source_version, content, issues,
                   dependencies, mappings, now() from invoice_snapshots where id = $3`,
                  [crypto.randomUUID(), `r1_${crypto.randomUUID().replaceAll('-', '').padEnd(40, '0')}`, clean],
                ),
              );
            });
            written++;
          } catch (error) {
            errors.push(error);
          }
        }
      };
      const writers = [writer(), writer()];
      const applied = await orm.migrator.up({ to: REDACTION }).finally(() => (migrating = false));
      await Promise.all(writers);

      expect(applied.map((m) => m.name)).toContain(REDACTION);
      expect(errors.map((e) => String(e))).toStrictEqual([]);
      expect(written).toBeGreaterThan(0);
      const sql = rawSql(orm);
      for (const typed of Object.values(TYPED)) expect(await rowsHolding(sql, digitsOf(typed), typed), typed).toStrictEqual([]);
      const [{ n }] = (await sql<{ n: string }>(
        `select count(*) as n from invoice_snapshots where issues::text like '%card_data_in_source%'`,
      )) as [{ n: string }];
      expect(Number(n)).toBe(INVOICES - 1);
      // The append-only rule holds again for everyone else.
      await expect(sql(`update invoice_snapshots set mapper_version = mapper_version`)).rejects.toThrow(/append-only \(UPDATE refused\)/);
    } finally {
      await orm.close(true);
      await db.drop();
    }
  });
});
