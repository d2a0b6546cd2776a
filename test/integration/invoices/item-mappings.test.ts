import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { connect, ledgerTenant } from '../../support/ledger-flow.js';

const app = useLedgerApp({ sandbox: { invoices: 4, items: 2 } });

/** A connected company; its row id is what operators pass as `connectionRowId` (former name `connectionId`). */
async function connection() {
  const tenant = await ledgerTenant(app);
  await connect(app, tenant);
  const [c] = (await app.admin<any[]>('connections.list', { integrationId: tenant.integrationId })).body;
  return { tenant, id: c.id as string };
}

const confirm = (input: Record<string, unknown>) => app.admin<any>('itemMappings.confirm', input);
const mapping = (connectionId: string, extra: Record<string, unknown> = {}) => ({
  connectionId,
  sourceItemId: '1',
  productCode: 'SKU-001',
  unitOfMeasure: 'EA',
  evidence: 'Catalogue sheet 2026-11, row 14',
  approvedBy: 'ops@acme.test',
  ...extra,
});

describe('item mappings (operator)', () => {
  it('when the connection is named connectionRowId, or by its former name connectionId, then both work; both at once or neither is a 400', async () => {
    const { id } = await connection();
    const { connectionId: _former, ...rest } = mapping(id) as Record<string, unknown>;
    expect((await confirm({ ...rest, connectionRowId: id })).status).toBe(200);
    expect((await confirm({ ...rest, connectionId: id })).status).toBe(200);
    const both = await confirm({ ...rest, connectionRowId: id, connectionId: id });
    expect(both.status).toBe(400);
    expect(both.body.error.data.issues.map((i: any) => i.path)).toEqual(['connectionId']);
    const neither = await confirm(rest);
    expect(neither.status).toBe(400);
    expect(neither.body.error.data.issues.map((i: any) => i.path)).toEqual(['connectionRowId']);
    const listed = await app.admin<any[]>('itemMappings.list', { connectionRowId: id, sourceItemId: '1' });
    expect(listed.body.map((m) => m.version)).toEqual([2, 1]);
    const invoices = await app.admin<any>('invoices.list', { connectionRowId: crypto.randomUUID() });
    expect(invoices.body.invoices).toEqual([]);
  });

  it('when an item is confirmed twice, then versions 1 and 2 exist and the first row is kept unchanged', async () => {
    const { id } = await connection();
    const first = await confirm(mapping(id, { commodityCode: '43211503' }));
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(
      [
        'approvedAt',
        'approvedBy',
        'commodityCode',
        'connectionId',
        'connectionRowId',
        'evidence',
        'id',
        'productCode',
        'sourceItemId',
        'unitOfMeasure',
        'version',
      ].sort(),
    );
    expect(first.body).toMatchObject({
      connectionRowId: id,
      connectionId: id,
      sourceItemId: '1',
      productCode: 'SKU-001',
      unitOfMeasure: 'EA',
      commodityCode: '43211503',
      version: 1,
    });
    const second = await confirm(mapping(id, { productCode: 'SKU-002' }));
    expect(second.body).toMatchObject({ version: 2, productCode: 'SKU-002', commodityCode: null });
    const listed = await app.admin<any[]>('itemMappings.list', { connectionId: id, sourceItemId: '1' });
    expect(listed.body.map((m) => [m.version, m.productCode, m.revokedAt])).toEqual([
      [2, 'SKU-002', null],
      [1, 'SKU-001', null],
    ]);
    expect(listed.body[1]).toEqual({ ...first.body, revokedAt: null });
  });

  it('when the same item is confirmed concurrently, then every confirmation gets its own version', async () => {
    const { id } = await connection();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => confirm(mapping(id, { sourceItemId: '2', productCode: `C-${i}` }))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(results.map((r) => r.body.version).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('when a value breaks the strictest provider limit, then BAD_REQUEST names the field and nothing is stored', async () => {
    const { id } = await connection();
    for (const [field, value] of [
      ['productCode', 'SKU-0000000013'],
      ['unitOfMeasure', 'Stück'],
      ['commodityCode', ' 4321'],
      ['productCode', ''],
    ] as const) {
      const res = await confirm(mapping(id, { [field]: value }));
      expect(res.status).toBe(400);
      expect([...new Set(res.body.error.data.issues.map((i: any) => i.path))]).toEqual([field]);
    }
    expect((await app.admin<any[]>('itemMappings.list', { connectionId: id })).body).toEqual([]);
  });

  it('when an unknown connection or mapping is named, then NOT_FOUND; revoking twice is a CONFLICT', async () => {
    const { id } = await connection();
    expect((await confirm(mapping(crypto.randomUUID()))).status).toBe(404);
    expect((await app.admin('itemMappings.list', { connectionId: crypto.randomUUID() })).status).toBe(404);
    const created = (await confirm(mapping(id))).body;
    const revoked = await app.admin<any>('itemMappings.revoke', { id: created.id });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: created.id, version: 1, revokedAt: expect.any(String) });
    expect((await app.admin('itemMappings.revoke', { id: created.id })).status).toBe(409);
    expect((await app.admin('itemMappings.revoke', { id: crypto.randomUUID() })).status).toBe(404);
  });

  it('when an operator sets the PO field, then the connection shows it and its settings version moves only on a change', async () => {
    const { tenant, id } = await connection();
    const set = await app.admin<any>('connections.configure', { id, purchaseOrderField: 'Purchase Order' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ id, purchaseOrderField: 'Purchase Order', settingsVersion: 2 });
    expect((await app.admin<any>('connections.configure', { id, purchaseOrderField: 'Purchase Order' })).body.settingsVersion).toBe(2);
    const cleared = await app.admin<any>('connections.configure', { id, purchaseOrderField: null });
    expect(cleared.body).toMatchObject({ purchaseOrderField: null, settingsVersion: 3 });
    const [listed] = (await app.admin<any[]>('connections.list', { integrationId: tenant.integrationId })).body;
    expect(listed).toMatchObject({ purchaseOrderField: null, settingsVersion: 3 });
    expect((await app.admin('connections.configure', { id: crypto.randomUUID(), purchaseOrderField: 'PO' })).status).toBe(404);
  });
});
