import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { connect, ledgerTenant, waitForRun } from '../../support/ledger-flow.js';
import { deleteEntity, touchEntity } from '../../../server/ledger-sandbox/company.js';

const app = useLedgerApp({ sandbox: { invoices: 1001, items: 3 }, config: { LEDGER_PAGE_SIZE: '500' } });
const sql = (q: string, p: unknown[] = []): Promise<any[]> => app.orm.em.getConnection().execute(q, p);
const syncPath = (id: string) => `/api/v1/integrations/ledger/${id}/sync`;

describe('importer: change feed at its 1000-object cap', () => {
  it('when the change feed answer for an entity is at the cap, then the entity is reconciled and a deletion the answer dropped is still marked', async () => {
    const tenant = await ledgerTenant(app);
    const connectionId = await connect(app, tenant);
    expect((await app.request(syncPath(connectionId), { method: 'POST', key: tenant.key })).status).toBe(202);
    expect(await waitForRun(app, tenant, connectionId, 60_000)).toMatchObject({
      state: 'succeeded',
      entities: { Invoice: { created: 1001 } },
    });

    // 1000 invoices change and one is deleted: the change feed holds 1001 objects, answers 1000, and drops the deletion.
    const company = app.sandbox.companies.get(connectionId)!;
    deleteEntity(company, 'Invoice', '1500');
    for (const invoice of company.Invoice) touchEntity(invoice);
    expect(company.Invoice).toHaveLength(1000);
    expect((await app.request(syncPath(connectionId), { method: 'POST', key: tenant.key })).status).toBe(202);
    const run = await waitForRun(app, tenant, connectionId, 60_000);
    expect(run).toMatchObject({ state: 'succeeded', mode: 'incremental', error: null });
    expect(run.entities.Invoice).toMatchObject({ state: 'done', deleted: 1, updated: 1000, created: 0 });
    expect(run.entities.Item).toMatchObject({ state: 'done', deleted: 0 });
    const deleted = await sql(
      `select s.source_id from ledger_source_records s join ledger_connections c on c.id = s.connection_id where c.integration_id = ? and s.deleted order by s.source_id`,
      [tenant.integrationId],
    );
    expect(deleted).toEqual([{ source_id: '1500' }]);
    // Two imports of 1,001 invoices, each awaited up to 60 s: under a loaded two-worker run the default 30 s is too short.
  }, 150_000);
});
