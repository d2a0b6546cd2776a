import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { connect, ledgerTenant, waitForRun } from '../../support/ledger-flow.js';
import { seededRandom } from '../../support/ledger-sandbox.js';

const INVOICES = 1200;
const PAGE = 100;
// Strict protocol: rows sharing a LastUpdatedTime come back in a new order on every page.
const app = useLedgerApp({ sandbox: { invoices: INVOICES, items: 6, strict: true }, config: { LEDGER_PAGE_SIZE: String(PAGE) } });
const sql = (q: string, p: unknown[] = []): Promise<any[]> => app.orm.em.getConnection().execute(q, p);
const syncPath = (id: string) => `/api/v1/integrations/ledger/${id}/sync`;
const invoices = (integrationId: string) =>
  sql(
    `select s.source_id, s.deleted from ledger_source_records s join ledger_connections c on c.id = s.connection_id
     where c.integration_id = ? and s.entity_type = 'Invoice' order by s.source_id`,
    [integrationId],
  );
const second = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, '-00:00');

/** Give `ties` invoices (picked by `random`) one LastUpdatedTime and every other invoice its own second. */
function tie(ties: number, random: () => number) {
  const company = [...app.sandbox.companies.values()][0]!;
  const order = company.Invoice.map((i) => ({ i, k: random() })).sort((a, b) => a.k - b.k);
  const base = Date.now() - 5 * 86_400_000;
  order.forEach(({ i }, n) => {
    i.MetaData = { ...i.MetaData, LastUpdatedTime: second(new Date(base + (n < ties ? 0 : (n - ties + 1) * 1000))) };
  });
  return company;
}

async function sync(tenant: { key: string }, connectionId: string, json?: Record<string, unknown>) {
  const res = await app.request(syncPath(connectionId), { method: 'POST', key: tenant.key, ...(json ? { json } : {}) });
  expect(res.status).toBe(202);
  return waitForRun(app, tenant as never, connectionId, 60_000);
}

describe('importer: rows sharing a LastUpdatedTime beyond one page, in an order the provider reshuffles on every page', () => {
  it('when the tie count is below, at or above the page size (and beyond the 1000-row cap), then every invoice is imported once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(PAGE - 1, PAGE, PAGE + 1, 1100), fc.integer(), async (ties, seed) => {
        const company = tie(ties, seededRandom(seed));
        app.sandbox.setStrict(true, seededRandom(seed + 1));
        const tenant = await ledgerTenant(app);
        const connectionId = await connect(app, tenant);
        const run = await sync(tenant, connectionId);
        expect(run).toMatchObject({ state: 'succeeded', error: null });
        expect(run.entities.Invoice).toMatchObject({ state: 'done', fetched: INVOICES, created: INVOICES, updated: 0, deleted: 0 });
        const stored = await invoices(tenant.integrationId);
        expect(stored.map((r) => r.source_id)).toEqual(company.Invoice.map((i) => i.Id).sort());
      }),
      {
        numRuns: 5,
        examples: [
          [PAGE - 1, 1],
          [PAGE, 2],
          [1100, 3],
        ],
      },
    );
  });

  it('when a full reconciliation reads a tie set beyond the page size, then only the invoice removed at the source is marked deleted', async () => {
    const company = tie(1100, seededRandom(7));
    const tenant = await ledgerTenant(app);
    const connectionId = await connect(app, tenant);
    expect(await sync(tenant, connectionId)).toMatchObject({ state: 'succeeded' });
    expect(await invoices(tenant.integrationId)).toHaveLength(INVOICES);

    const tied = company.Invoice.filter((i) => i.MetaData!.LastUpdatedTime === company.Invoice[0]!.MetaData!.LastUpdatedTime);
    const removed = tied.length > 1 ? tied[tied.length >> 1]! : company.Invoice[0]!;
    company.Invoice = company.Invoice.filter((i) => i !== removed);
    try {
      const run = await sync(tenant, connectionId, { fullReconciliation: true });
      expect(run).toMatchObject({ state: 'succeeded', mode: 'full' });
      expect(run.entities.Invoice).toMatchObject({ state: 'done', created: 0, updated: 0, deleted: 1 });
      const stored = await invoices(tenant.integrationId);
      expect(stored).toHaveLength(INVOICES);
      expect(stored.filter((r) => r.deleted).map((r) => r.source_id)).toEqual([removed.Id]);
    } finally {
      company.Invoice.push(removed);
    }
  });
});
