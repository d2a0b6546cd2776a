import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { connect, ledgerTenant, waitForRun } from '../../support/ledger-flow.js';
import { mapAndStoreInvoices, storeAndMapInvoicePage } from '../../../server/domain/invoices/store-invoices.js';
import { poolUnitOfWork } from '../../../server/persistence/unit-of-work.js';
import { scopeOfConnection } from '../../../server/domain/ledger/types.js';

const app = useLedgerApp({ sandbox: { invoices: 3, items: 2 } });
const sql = (q: string, p: unknown[] = []): Promise<any[]> => app.orm.em.getConnection().execute(q, p);

describe('a sync page mapped from memory', () => {
  it('when a page holds a newer version and an older one, then the newer is mapped as fetched and the older from what is stored', async () => {
    const tenant = await ledgerTenant(app);
    const realmId = await connect(app, tenant);
    expect((await app.request(`/api/v1/integrations/ledger/${realmId}/sync`, { method: 'POST', key: tenant.key })).status).toBe(202);
    const run = await waitForRun(app, tenant, realmId);
    expect(run.state).toBe('succeeded');
    const [{ id: connectionId }] = await sql(`select id from ledger_connections where integration_id = ?`, [tenant.integrationId]);
    const [older, newer] = await sql(
      `select source_id, payload, last_updated_at from ledger_source_records where connection_id = ? and entity_type = 'Invoice' order by source_id limit 2`,
      [connectionId],
    );
    const before = await sql(
      `select ledger_invoice_id, invoice_number, source_version, revision from stored_invoices where connection_id = ?`,
      [connectionId],
    );
    const storedNumber = (id: string) => before.find((r) => r.ledger_invoice_id === id).invoice_number;
    const at = (row: { last_updated_at: string | Date }, days: number) =>
      new Date(new Date(row.last_updated_at).getTime() + days * 86_400_000);
    const page = [
      // An older version than the one stored: the upsert keeps the stored record, so the page's copy must not be mapped.
      {
        sourceId: older.source_id,
        syncToken: '7',
        lastUpdatedAt: at(older, -1),
        deleted: false,
        payload: { ...older.payload, SyncToken: '7', DocNumber: 'FROM-OLDER-PAGE' },
      },
      {
        sourceId: newer.source_id,
        syncToken: '8',
        lastUpdatedAt: at(newer, 1),
        deleted: false,
        payload: { ...newer.payload, SyncToken: '8', DocNumber: 'FROM-NEWER-PAGE' },
      },
    ];
    const stored = await poolUnitOfWork(app.orm).transaction(async (stores) => {
      const connection = (await stores.ledger.connectionById(connectionId))!;
      const store = () =>
        stores.ledger.upsertSourceRecords({
          scope: scopeOfConnection(connection),
          connectionId,
          entityType: 'Invoice',
          syncRunId: run.id,
          records: page,
          now: new Date(),
        });
      return storeAndMapInvoicePage(stores, { connection, records: page, store, items: new Map(), now: new Date() });
    });
    expect([...stored.written.keys()]).toEqual([newer.source_id]);
    const after = await sql(
      `select ledger_invoice_id, invoice_number, source_version from stored_invoices where connection_id = ? and ledger_invoice_id in (?, ?)`,
      [connectionId, older.source_id, newer.source_id],
    );
    expect(after.sort((a, b) => a.ledger_invoice_id.localeCompare(b.ledger_invoice_id))).toEqual([
      { ledger_invoice_id: older.source_id, invoice_number: storedNumber(older.source_id), source_version: '0' },
      { ledger_invoice_id: newer.source_id, invoice_number: 'FROM-NEWER-PAGE', source_version: '8' },
    ]);
    const [snapshot] = await sql(
      `select s.content->'invoice'->>'invoiceNumber' as number from stored_invoices si join invoice_snapshots s on s.id = si.current_snapshot_id
        where si.connection_id = ? and si.ledger_invoice_id = ?`,
      [connectionId, newer.source_id],
    );
    expect(snapshot.number).toBe('FROM-NEWER-PAGE');
    // The older copy was never mapped: its invoice still has only the snapshot of the first sync.
    const snapshots = await sql(
      `select si.ledger_invoice_id, count(*)::int as n from stored_invoices si join invoice_snapshots s on s.stored_invoice_id = si.id
        where si.connection_id = ? and si.ledger_invoice_id in (?, ?) group by si.ledger_invoice_id order by si.ledger_invoice_id`,
      [connectionId, older.source_id, newer.source_id],
    );
    expect(snapshots).toEqual([
      { ledger_invoice_id: older.source_id, n: 1 },
      { ledger_invoice_id: newer.source_id, n: 2 },
    ]);
  });

  it('when a stored invoice is mapped again to a revision it has, then it keeps pointing at that snapshot and no snapshot is added', async () => {
    const tenant = await ledgerTenant(app);
    const realmId = await connect(app, tenant);
    expect((await app.request(`/api/v1/integrations/ledger/${realmId}/sync`, { method: 'POST', key: tenant.key })).status).toBe(202);
    expect((await waitForRun(app, tenant, realmId)).state).toBe('succeeded');
    const [{ id: connectionId }] = await sql(`select id from ledger_connections where integration_id = ?`, [tenant.integrationId]);
    const stored = () =>
      sql(
        `select si.ledger_invoice_id, si.revision, si.deleted, si.current_snapshot_id, (select count(*)::int from invoice_snapshots s where s.stored_invoice_id = si.id) as snapshots
           from stored_invoices si where si.connection_id = ? order by si.ledger_invoice_id`,
        [connectionId],
      );
    const before = await stored();
    const [first] = before;
    // Deleted at the source: the mapping's revision does not change (the snapshot stays), the stored invoice says deleted.
    await sql(`update ledger_source_records set deleted = true where connection_id = ? and entity_type = 'Invoice' and source_id = ?`, [
      connectionId,
      first.ledger_invoice_id,
    ]);
    const result = await poolUnitOfWork(app.orm).transaction(async (stores) => {
      const connection = (await stores.ledger.connectionById(connectionId))!;
      return mapAndStoreInvoices(stores, { connection, ledgerInvoiceIds: [first.ledger_invoice_id], now: new Date() });
    });
    expect(result).toEqual({ mapped: 1, snapshots: 0 });
    expect(await stored()).toEqual(before.map((r) => (r.ledger_invoice_id === first.ledger_invoice_id ? { ...r, deleted: true } : r)));
  });
});
