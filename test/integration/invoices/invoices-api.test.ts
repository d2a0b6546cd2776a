import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { connect, invoiceReader, waitForRun } from '../../support/ledger-flow.js';
import { confirmItem } from '../../support/preparation-flow.js';
import { createTenant } from '../../support/tenants.js';

// 12 invoices over 6 items: item 5 has no Sku; invoice 1007 is partly paid; 1004, 1008, 1012 have no PO field.
const app = useLedgerApp({ sandbox: { invoices: 12, items: 6 } });
const sql = (q: string, p: unknown[] = []): Promise<any[]> => app.orm.em.getConnection().execute(q, p);
const list = (key: string, query = '') => app.request(`/api/v1/invoices${query}`, { key });
const get = (key: string, id: string) => app.request(`/api/v1/invoices/${id}`, { key });
const codes = (issues: { code: string }[]) => [...new Set(issues.map((i) => i.code))].sort();

async function all(key: string, query = ''): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const res = await list(key, `?limit=5${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    out.push(...res.body.data.invoices);
    cursor = res.body.data.nextCursor;
  } while (cursor);
  return out;
}

describe('stored invoices over HTTP (endpoints 8, 9)', () => {
  it('when a stored invoice would have no snapshot, or another invoice’s, then the database refuses it and nothing changes', async () => {
    const reader = await invoiceReader(app, 'gwb');
    const rows = await sql(
      `select si.id, si.current_snapshot_id from stored_invoices si join ledger_connections c on c.id = si.connection_id
        where c.integration_id = ? order by si.ledger_invoice_id limit 2`,
      [reader.ledger.integrationId],
    );
    const [a, b] = rows as { id: string; current_snapshot_id: string }[];
    await expect(sql(`update stored_invoices set current_snapshot_id = null where id = ?`, [a!.id])).rejects.toThrow(/not-null|null value/);
    await expect(sql(`update stored_invoices set current_snapshot_id = ? where id = ?`, [crypto.randomUUID(), a!.id])).rejects.toThrow(
      /has no snapshot of its own/,
    );
    await expect(sql(`update stored_invoices set current_snapshot_id = ? where id = ?`, [b!.current_snapshot_id, a!.id])).rejects.toThrow(
      /has no snapshot of its own/,
    );
    expect(await sql(`select current_snapshot_id from stored_invoices where id = ?`, [a!.id])).toEqual([
      { current_snapshot_id: a!.current_snapshot_id },
    ]);
    // Inside a transaction the check waits for the commit: the write batch points a row at its snapshot in a later statement.
    await app.orm.em.fork().transactional(async (em) => {
      await em.execute(`update stored_invoices set current_snapshot_id = ? where id = ?`, [crypto.randomUUID(), a!.id]);
      await em.execute(`update stored_invoices set current_snapshot_id = ? where id = ?`, [a!.current_snapshot_id, a!.id]);
    });
    const detail = await get(reader.key, a!.id);
    expect(detail.status).toBe(200);
    expect(detail.body.data.snapshotId).toBe(a!.current_snapshot_id);
  });

  it('when a synced source is read, then every invoice comes once, in pages, with readiness that differs per provider', async () => {
    const gwc = await invoiceReader(app, 'gwc');
    const invoices = await all(gwc.key);
    // Pages follow the order the service stored them in; each invoice appears exactly once.
    expect(invoices.map((i) => i.ledgerInvoiceId).sort()).toEqual(Array.from({ length: 12 }, (_, i) => String(1001 + i)));
    const first = invoices.find((i) => i.ledgerInvoiceId === '1001');
    expect(Object.keys(first).sort()).toEqual([
      'checkedThrough',
      'checkoutMode',
      'currency',
      'id',
      'invoiceNumber',
      'issues',
      'ledgerInvoiceId',
      'ready',
      'revision',
      'snapshotId',
      'sourceVersion',
      'status',
      'totalAmountMinor',
    ]);
    expect(first).toMatchObject({ invoiceNumber: 'INV-000001', status: 'open', currency: 'usd', sourceVersion: '0', ready: false });
    // gwc needs a unit on every line, which only a merchant-confirmed mapping gives.
    expect(codes(first.issues)).toEqual(['missing_unit_of_measure']);
    expect(first.issues.every((i: any) => i.category === 'mapping')).toBe(true);

    // The same source read with a gwb key: gwb lines carry no unit or SKU, so open, fully unpaid invoices are ready.
    const gwb = await app.admin<{ id: string }>('integrations.create', {
      organizationId: gwc.ledger.organizationId,
      provider: 'gwb',
      environment: 'sandbox',
    });
    await app.admin('links.create', { ledgerIntegrationId: gwc.ledger.integrationId, providerIntegrationId: gwb.body.id });
    const gwbKey = (await app.admin<{ key: string }>('apiKeys.issue', { integrationId: gwb.body.id, scopes: ['invoices:read'] })).body.key;
    const forGwb = await all(gwbKey);
    expect(
      forGwb
        .filter((i) => i.ready)
        .map((i) => i.ledgerInvoiceId)
        .sort(),
    ).toEqual(['1001', '1002', '1003', '1004', '1005', '1006', '1008', '1009', '1010', '1011', '1012']);
    const partlyPaid = forGwb.find((i) => i.ledgerInvoiceId === '1007');
    expect(partlyPaid).toMatchObject({ status: 'partially_paid', ready: false });
    expect(codes(partlyPaid.issues)).toEqual(['invoice_balance_not_full', 'invoice_not_open']);
  });

  it('when a cursor is tampered, reused with other filters or by another tenant, then 400 invalid_cursor', async () => {
    const a = await invoiceReader(app, 'gwc');
    const b = await invoiceReader(app, 'gwc');
    const page = await list(a.key, '?limit=2');
    const cursor = page.body.data.nextCursor as string;
    const tampered = Buffer.from(
      Buffer.from(cursor, 'base64url')
        .toString('utf8')
        .replace(/\|[^|]+$/, '|AAAAAAAAAAAAAAAAAAAAAA'),
      'utf8',
    ).toString('base64url');
    for (const [key, query] of [
      [a.key, `?limit=2&cursor=${tampered}`],
      [a.key, `?limit=2&invoiceNumber=INV-000001&cursor=${cursor}`],
      [b.key, `?limit=2&cursor=${cursor}`],
      [a.key, '?cursor=not-a-cursor'],
    ] as const) {
      const res = await list(key, query);
      expect(res.status).toBe(400);
      expect(res.body.error.issues).toEqual([
        { code: 'invalid_cursor', path: 'cursor', message: 'Use the nextCursor of the previous page unchanged' },
      ]);
    }
    expect((await list(a.key, `?limit=2&cursor=${cursor}`)).status).toBe(200);
  });

  it('when limit is outside 1-100 or not a number, then 400 naming limit', async () => {
    const { key } = await invoiceReader(app, 'gwb');
    for (const bad of ['0', '101', 'abc', '2.5']) {
      const res = await list(key, `?limit=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.error.issues.map((i: any) => i.path)).toEqual(['limit']);
    }
    expect((await list(key, '?unknown=1')).status).toBe(400);
  });

  it('when filtered by source id or by an invoice number two invoices share, then exact matches, both invoices returned, and readiness the same as unfiltered', async () => {
    const reader = await invoiceReader(app, 'gwb');
    const byId = await list(reader.key, '?ledgerInvoiceId=1003');
    expect(byId.body.data.invoices.map((i: any) => i.invoiceNumber)).toEqual(['INV-000003']);
    // Give a second invoice the number INV-000002 at the source and sync again.
    const company = app.sandbox.companies.get(reader.connectionId)!;
    const twin = company.Invoice.find((i) => i.Id === '1009')!;
    const before = twin.DocNumber;
    twin.DocNumber = 'INV-000002';
    twin.SyncToken = '1';
    twin.MetaData = { ...(twin.MetaData as object), LastUpdatedTime: new Date().toISOString() };
    try {
      expect(
        (await app.request(`/api/v1/integrations/ledger/${reader.connectionId}/sync`, { method: 'POST', key: reader.ledger.key })).status,
      ).toBe(202);
      // Until the run has finished every invoice reads `sync_in_progress`: compare readiness only once it has.
      expect(await waitForRun(app, reader.ledger, reader.connectionId)).toMatchObject({ state: 'succeeded' });
      const both = (await list(reader.key, '?invoiceNumber=INV-000002')).body.data.invoices;
      expect(both.map((i: any) => i.ledgerInvoiceId).sort()).toEqual(['1002', '1009']);
      const unfiltered = (await list(reader.key, '?limit=100')).body.data.invoices;
      for (const invoice of both) {
        // A shared number is a selection problem (409 when preparing by number), never a readiness issue.
        expect(invoice.issues.map((i: any) => i.code)).not.toContain('ambiguous_invoice_number');
        const same = unfiltered.find((i: any) => i.id === invoice.id);
        expect({ ready: invoice.ready, issues: invoice.issues }).toEqual({ ready: same.ready, issues: same.issues });
        expect((await get(reader.key, invoice.id)).body.data).toMatchObject({ ready: same.ready, issues: same.issues });
      }
    } finally {
      twin.DocNumber = before;
    }
  });

  it('when one invoice is read, then the detail has the snapshot and provenance (references only); foreign, unknown and malformed ids are one 404', async () => {
    const reader = await invoiceReader(app, 'gwc');
    const other = await invoiceReader(app, 'gwc');
    const [summary] = (await list(reader.key, '?ledgerInvoiceId=1001')).body.data.invoices;
    const res = await get(reader.key, summary.id);
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('invoice');
    const detail = res.body.data;
    expect(detail).toMatchObject({ ...summary, checkedThrough: expect.any(String) });
    expect(detail.invoice).toMatchObject({
      invoiceNumber: 'INV-000001',
      purchaseOrderReference: null,
      currency: 'usd',
      taxRepresentation: 'transaction',
    });
    expect(detail.invoice.lineItems[0]).toMatchObject({
      sourceLineId: '1',
      taxAmountMinor: null,
      discountAmountMinor: null,
      totalAmountMinor: null,
    });
    const [record] = await sql(
      `select id from ledger_source_records where entity_type = 'Invoice' and source_id = '1001' and integration_id = ?`,
      [reader.ledger.integrationId],
    );
    expect(detail.provenance).toMatchObject({
      sourceIntegrationId: reader.ledger.integrationId,
      sourceConnectionId: reader.connectionId,
      sourceRecordId: record.id,
      mapperVersion: '1',
      mappings: [],
    });
    expect(detail.provenance.dependencies.map((d: any) => d.objectType).sort()).toEqual(expect.arrayContaining(['Item', 'Preferences']));
    expect(detail.provenance.dependencies.every((d: any) => typeof d.sourceRecordId === 'string')).toBe(true);
    expect(JSON.stringify(detail)).not.toMatch(/SyncToken|MetaData|access_token|refresh/);

    const notFound = { error: { type: 'not_found', message: 'No such invoice', issues: [] } };
    for (const id of [crypto.randomUUID(), 'not-a-uuid', summary.id]) {
      const key = id === summary.id ? other.key : reader.key;
      const miss = await get(key, id);
      expect(miss.status).toBe(404);
      expect(miss.body).toEqual(notFound);
    }
  });

  it('when the operator confirms the missing mappings, then the invoice gets a new revision and snapshot and becomes ready for gwc', async () => {
    const reader = await invoiceReader(app, 'gwc');
    const [before] = (await list(reader.key, '?ledgerInvoiceId=1001')).body.data.invoices;
    const detail = (await get(reader.key, before.id)).body.data;
    for (const line of detail.invoice.lineItems) await confirmItem(app, reader.connectionRowId, line.sourceItemId);
    const after = (await get(reader.key, before.id)).body.data;
    expect(after.ready).toBe(true);
    expect(after.issues).toEqual([]);
    expect(after.revision).not.toBe(before.revision);
    expect(after.snapshotId).not.toBe(before.snapshotId);
    expect(after.invoice.lineItems.every((l: any) => l.unitOfMeasure === 'EA')).toBe(true);
    expect(after.provenance.mappings.map((m: any) => m.version)).toEqual(after.invoice.lineItems.map(() => 1));
    // Each confirmation gave a revision of its own; the earlier snapshots are kept, and the database refuses to change or delete any.
    const snapshots = await sql(`select id from invoice_snapshots where stored_invoice_id = ? order by created_at`, [before.id]);
    expect(snapshots).toHaveLength(1 + new Set(detail.invoice.lineItems.map((l: any) => l.sourceItemId)).size);
    expect([snapshots[0].id, snapshots.at(-1).id]).toEqual([before.snapshotId, after.snapshotId]);
    await expect(sql(`update invoice_snapshots set revision = 'x' where id = ?`, [before.snapshotId])).rejects.toThrow(
      /append-only \(UPDATE refused\)/,
    );
    await expect(sql(`delete from invoice_snapshots where id = ?`, [before.snapshotId])).rejects.toThrow(/append-only \(DELETE refused\)/);

    // Revoking one mapping takes readiness away again, with the mapping issue.
    const [mapping] = (
      await app.admin<any[]>('itemMappings.list', {
        connectionId: reader.connectionRowId,
        sourceItemId: after.invoice.lineItems[0].sourceItemId,
      })
    ).body;
    await app.admin('itemMappings.revoke', { id: mapping.id });
    const revoked = (await get(reader.key, before.id)).body.data;
    expect(revoked.ready).toBe(false);
    expect(codes(revoked.issues)).toContain('item_mapping_revoked');
  });

  it('when the PO field is configured, then gwa readiness reads the PO from that custom field and revisions change', async () => {
    const reader = await invoiceReader(app, 'gwa');
    const read = async () => (await list(reader.key, '?ledgerInvoiceId=1001')).body.data.invoices[0];
    const before = await read();
    expect(codes(before.issues)).toContain('missing_purchase_order_number');
    const configured = await app.admin<any>('connections.configure', { id: reader.connectionRowId, purchaseOrderField: 'Purchase Order' });
    expect(configured.status).toBe(200);
    const after = await read();
    expect(codes(after.issues)).not.toContain('missing_purchase_order_number');
    expect(after.revision).not.toBe(before.revision);
    expect((await get(reader.key, after.id)).body.data.invoice.purchaseOrderReference).toBe('PO-1');
  });

  it('when the source is not fresh, a sync is queued, or the connection is paused, then readiness says so by category', async () => {
    const reader = await invoiceReader(app, 'gwb');
    const read = async () => (await list(reader.key, '?ledgerInvoiceId=1001')).body.data.invoices[0];
    expect((await read()).ready).toBe(true);
    await sql(`update ledger_connections set checked_through = now() - interval '5 hours' where id = ?`, [reader.connectionRowId]);
    expect((await read()).issues).toEqual([expect.objectContaining({ code: 'source_stale', category: 'freshness' })]);
    await sql(`update ledger_connections set checked_through = now(), status = 'paused' where id = ?`, [reader.connectionRowId]);
    expect((await read()).issues).toEqual([expect.objectContaining({ code: 'connection_paused', category: 'access' })]);
  });

  it('when a ledger of the same organization is linked to another provider integration only, then its invoices are invisible to this key', async () => {
    const reader = await invoiceReader(app, 'gwc');
    const stranger = await invoiceReader(app, 'gwc');
    const mine = await all(reader.key);
    const theirs = await all(stranger.key);
    expect(mine).toHaveLength(12);
    expect(new Set([...mine, ...theirs].map((i) => i.id)).size).toBe(24);
    // A second accounting source in the reader's organization, linked only to a gwb integration.
    const other = await createTenant(app, {
      provider: 'ledger',
      scopes: ['integrations:write', 'integrations:read'],
      organizationId: reader.ledger.organizationId,
    });
    const connectionId = await connect(app, other);
    await app.request(`/api/v1/integrations/ledger/${connectionId}/sync`, { method: 'POST', key: other.key });
    await waitForRun(app, other, connectionId);
    const gwb = await app.admin<{ id: string }>('integrations.create', {
      organizationId: reader.ledger.organizationId,
      provider: 'gwb',
      environment: 'sandbox',
    });
    await app.admin('links.create', { ledgerIntegrationId: other.integrationId, providerIntegrationId: gwb.body.id });
    const [stored] = await sql(`select count(*)::int as n from stored_invoices where integration_id = ?`, [other.integrationId]);
    expect(stored.n).toBe(12);
    expect((await all(reader.key)).map((i) => i.id)).toEqual(mine.map((i) => i.id));
    const foreign = (await sql(`select id from stored_invoices where integration_id = ? limit 1`, [other.integrationId]))[0].id;
    expect((await get(reader.key, foreign)).status).toBe(404);
  });
});
