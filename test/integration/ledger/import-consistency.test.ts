import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { connect, ledgerTenant, waitForRun } from '../../support/ledger-flow.js';
import { touchEntity } from '../../../server/ledger-sandbox/company.js';
import { poolDatabase } from '../../../server/persistence/kysely.js';
import { invoicesDependingOnItems, invoicesOutOfStep } from '../../../server/persistence/sql/stored-invoices.sql.js';
import { recordingDatabase } from '../../support/recording-database.js';

const app = useLedgerApp({ sandbox: { invoices: 30, items: 6 } });
const sql = (q: string, p: unknown[] = []): Promise<any[]> => app.orm.em.getConnection().execute(q, p);
const syncPath = (id: string) => `/api/v1/integrations/ledger/${id}/sync`;
const invoices = (integrationId: string) =>
  sql(
    `select s.source_id, s.sync_token, s.deleted from ledger_source_records s join ledger_connections c on c.id = s.connection_id
     where c.integration_id = ? and s.entity_type = 'Invoice' order by s.source_id`,
    [integrationId],
  );

describe('importer: ties at a page boundary and full reconciliation', () => {
  it('when many invoices share one timestamp across page boundaries and a seen one changes between pages, then every invoice is imported', async () => {
    const tenant = await ledgerTenant(app);
    const connectionId = await connect(app, tenant);
    const company = app.sandbox.companies.get(connectionId)!;
    // All 30 invoices share one LastUpdatedTime: three pages of 10 (LEDGER_PAGE_SIZE) inside one tie set.
    const tie = new Date(Date.now() - 3_600_000);
    for (const invoice of company.Invoice) invoice.MetaData = { ...invoice.MetaData, LastUpdatedTime: tie.toISOString() };
    const changed = company.Invoice.find((i) => i.Id === '1003')!;
    let invoiceQueries = 0;
    app.sandbox.beforeAnswer(({ kind, statement }) => {
      // Before the second invoice page: an invoice of the first page changes (leaves the tie set, still inside the run's period).
      if (kind === 'query' && / from Invoice /.test(statement) && ++invoiceQueries === 2)
        touchEntity(changed, new Date(tie.getTime() + 1000));
    });
    try {
      const res = await app.request(syncPath(connectionId), { method: 'POST', key: tenant.key });
      expect(res.status).toBe(202);
      const run = await waitForRun(app, tenant, connectionId);
      expect(run).toMatchObject({ state: 'succeeded', error: null });
      const stored = await invoices(tenant.integrationId);
      expect(stored.map((r) => r.source_id)).toEqual(company.Invoice.map((i) => i.Id).sort());
      expect(stored.find((r) => r.source_id === '1003')).toEqual({ source_id: '1003', sync_token: '1', deleted: false });
      expect(stored.filter((r) => r.source_id !== '1003').every((r) => r.sync_token === '0' && !r.deleted)).toBe(true);
      // One page scanned at the tied time fills a page, so that time is walked in Id order (three pages), then the changed one is read at its new time.
      expect(run.entities.Invoice).toMatchObject({
        state: 'done',
        pages: 5,
        fetched: 31,
        created: 30,
        updated: 1,
        unchanged: 0,
        deleted: 0,
      });
    } finally {
      app.sandbox.beforeAnswer(undefined);
    }
  });

  it('when a full reconciliation reads every record, then stored records missing at the source are marked deleted, and a record changed mid-run is not', async () => {
    const tenant = await ledgerTenant(app);
    const connectionId = await connect(app, tenant);
    expect((await app.request(syncPath(connectionId), { method: 'POST', key: tenant.key })).status).toBe(202);
    expect(await waitForRun(app, tenant, connectionId)).toMatchObject({ state: 'succeeded' });
    expect(await invoices(tenant.integrationId)).toHaveLength(30);

    // Removed at the source with no change-feed entry (e.g. older than the 30-day look-back).
    const company = app.sandbox.companies.get(connectionId)!;
    const removed = company.Invoice.find((i) => i.Id === '1007')!;
    company.Invoice = company.Invoice.filter((i) => i !== removed);
    // An item the provider's default query no longer returns (inactivated) is not deleted: invoices may still reference it.
    const hiddenItem = company.Item[0]!;
    company.Item = company.Item.filter((i) => i !== hiddenItem);
    const busy = company.Invoice.find((i) => i.Id === '1020')!;
    let touched = false;
    // During the run an invoice changes after the run's period end: it must still count as present.
    app.sandbox.beforeAnswer(({ kind, statement }) => {
      if (!touched && kind === 'query' && / from Invoice /.test(statement)) {
        touched = true;
        touchEntity(busy, new Date(Date.now() + 1000));
      }
    });
    try {
      expect(
        (await app.request(syncPath(connectionId), { method: 'POST', key: tenant.key, json: { fullReconciliation: true } })).status,
      ).toBe(202);
      const run = await waitForRun(app, tenant, connectionId);
      expect(run).toMatchObject({ state: 'succeeded', mode: 'full' });
      expect(run.entities.Invoice).toMatchObject({ state: 'done', deleted: 1, created: 0 });
      expect(run.entities.Item).toMatchObject({ state: 'done', deleted: 0 });
      const stored = await invoices(tenant.integrationId);
      expect(stored).toHaveLength(30);
      expect(stored.filter((r) => r.deleted).map((r) => r.source_id)).toEqual(['1007']);
      const items = await sql(
        `select s.source_id, s.deleted from ledger_source_records s join ledger_connections c on c.id = s.connection_id
         where c.integration_id = ? and s.entity_type = 'Item' and s.source_id = ?`,
        [tenant.integrationId, hiddenItem.Id],
      );
      expect(items).toEqual([{ source_id: hiddenItem.Id, deleted: false }]);
    } finally {
      app.sandbox.beforeAnswer(undefined);
      company.Invoice.push(removed);
      company.Item.push(hiddenItem);
    }
  });
});

/** Table rows a plan read and then discarded (by a scan's filter or index recheck, or by a join filter), over all its loops. */
function rowsDiscarded(node: Record<string, any>): number {
  const keys = [
    'Rows Removed by Join Filter',
    ...(node['Relation Name'] ? ['Rows Removed by Filter', 'Rows Removed by Index Recheck'] : []),
  ];
  const own = keys.map((k) => Number(node[k] ?? 0)).reduce((a, b) => a + b, 0);
  return (
    own * Number(node['Actual Loops'] ?? 1) +
    ((node.Plans as Record<string, any>[] | undefined) ?? []).map(rowsDiscarded).reduce((a, b) => a + b, 0)
  );
}

describe('importer: a connection the statistics have not seen yet', () => {
  it('when a connection imports for the first time while the statistics name only another one, then the searches for invoices to map read each stored invoice by its key, not every invoice for each record', async () => {
    const tables = ['ledger_source_records', 'stored_invoices', 'invoice_snapshots'];
    const sync = async () => {
      const tenant = await ledgerTenant(app);
      const connectionId = await connect(app, tenant);
      expect((await app.request(syncPath(connectionId), { method: 'POST', key: tenant.key })).status).toBe(202);
      expect(await waitForRun(app, tenant, connectionId)).toMatchObject({ state: 'succeeded' });
      return { tenant, connectionId };
    };
    const first = await sync();
    // The statistics see the first connection only, and keep seeing it (no automatic analysis in between).
    for (const table of tables) await sql(`alter table ${table} set (autovacuum_enabled = off)`);
    try {
      await sql(`analyze ${tables.join(', ')}`);
      const { tenant, connectionId: realmId } = await sync();
      const connectionOf = async (integrationId: string) =>
        (await sql(`select id from ledger_connections where integration_id = ?`, [integrationId]))[0].id as string;
      const connectionId = await connectionOf(tenant.integrationId);
      const stored = (await sql(`select ledger_invoice_id from stored_invoices where connection_id = ? order by 1`, [connectionId])).map(
        (r) => r.ledger_invoice_id as string,
      );
      expect(stored).toEqual((await invoices(tenant.integrationId)).map((r) => r.source_id));
      expect(stored.length).toBeGreaterThanOrEqual(29);

      const { db, sentWith } = recordingDatabase(poolDatabase(app.orm));
      const company = app.sandbox.companies.get(realmId)!;
      const firstRun = (
        await sql(`select id from ledger_sync_runs where connection_id = ?`, [await connectionOf(first.tenant.integrationId)])
      )[0].id as string;
      expect(await invoicesOutOfStep(db, connectionId)).toEqual([]);
      const depending = await invoicesDependingOnItems(db, {
        connectionId,
        itemIds: company.Item.map((i) => i.Id),
        exceptWrittenByRun: firstRun,
      });
      expect(depending.sort()).toEqual(stored);
      expect(sentWith).toHaveLength(2);
      // At this size a sequential scan of a page or two is what the planner rightly picks; at an import's size it picks
      // the indexes (docs/performance.md, "A new connection's statistics"), and this shows which keys it then uses.
      for (const statement of sentWith) {
        const plan = await app.orm.em.fork().transactional(async (em) => {
          await em.execute('set local enable_seqscan = off');
          const explained = await em.execute<{ 'QUERY PLAN': { Plan: Record<string, any> }[] }[]>(
            `explain (analyze, format json) ${statement.sql.replace(/\$\d+/g, '?')}`,
            [...statement.parameters],
          );
          return explained[0]!['QUERY PLAN'][0]!.Plan;
        });
        // Linear in the connection's invoices (up to 60 discarded); reading all of them for each record discards 800 or more.
        expect(rowsDiscarded(plan), statement.sql).toBeLessThanOrEqual(60);
      }
    } finally {
      for (const table of tables) await sql(`alter table ${table} reset (autovacuum_enabled)`);
    }
  });
});
