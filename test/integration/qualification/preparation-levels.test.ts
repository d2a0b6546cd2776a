import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader, linkedProvider, waitForRun } from '../../support/ledger-flow.js';
import { bodyFor, preparationFlow, type PreparationEndpoint, type Reader, confirmMapping } from '../../support/preparation-flow.js';

// docs/network-qualification.md, "Where it shows": a preparation records the level of the snapshot it pins, for every
// invoice-backed endpoint (1, 6, 11 and 12). Four generated invoices over six items (2 lines each): 1001 items 3+4,
// 1002 items 4+5 (both with a PO). Item 5 has no Sku at the source.
const app = useLedgerApp({ sandbox: { invoices: 4, items: 6 } });
const { sql, post, invoiceOf } = preparationFlow(app);

type Provider = 'gwa' | 'gwb' | 'gwc';
/** Each invoice-backed endpoint and the provider whose level its preparation records. */
const ENDPOINTS: readonly (readonly [PreparationEndpoint, Provider])[] = [
  ['gwa', 'gwa'],
  ['gwb', 'gwb'],
  ['gwc', 'gwc'],
  ['gwcPreparation', 'gwc'],
];

const confirm = (reader: Reader, sourceItemId: string, productCode: string, unitOfMeasure: string, commodityCode?: string) =>
  confirmMapping(app, reader.connectionRowId, { sourceItemId, productCode, unitOfMeasure, commodityCode });

/** A synced source with its PO field configured, and a gwa, a gwb and a gwc integration linked to it, each with a reading key. */
async function setUp() {
  const gwc = await invoiceReader(app, 'gwc');
  expect((await app.admin('connections.configure', { id: gwc.connectionRowId, purchaseOrderField: 'Purchase Order' })).status).toBe(200);
  const keys: Record<Provider, string> = {
    gwa: (await linkedProvider(app, gwc.ledger, 'gwa')).key,
    gwb: (await linkedProvider(app, gwc.ledger, 'gwb')).key,
    gwc: gwc.key,
  };
  return { reader: gwc, keys };
}

/** Both stored levels of a preparation: the row's and its evidence projection's. */
const levelsOf = async (preparationId: string) => {
  const [p] = await sql(`select provider, qualification_level from preparations where id = ?`, [preparationId]);
  const [e] = await sql(`select provider, qualification_level from preparation_evidence where preparation_id = ?`, [preparationId]);
  return { preparation: p, evidence: e };
};

/**
 * The invoice as endpoint 9 shows it now, then one preparation through each invoice-backed endpoint: each with the level
 * endpoint 9 showed for its provider just before, and the snapshot it pinned.
 */
async function prepareEverywhere(setup: Awaited<ReturnType<typeof setUp>>, ledgerInvoiceId: string) {
  const detail = await invoiceOf(setup.reader, ledgerInvoiceId);
  const shown = (detail as any).qualification as Record<Provider, { level: string }>;
  const prepared = [];
  for (const [endpoint, provider] of ENDPOINTS) {
    const res = await post(setup.keys[provider], endpoint, bodyFor(detail));
    expect(res.status, `${endpoint}: ${JSON.stringify(res.body)}`).toBe(200);
    expect(res.body.preparation.snapshotId).toBe(detail.snapshotId);
    prepared.push({ endpoint, provider, id: res.body.preparation.id as string, shown: shown[provider].level });
  }
  return { detail, prepared };
}

/** The level endpoint 9 shows per provider. */
const levelsShown = (detail: unknown) =>
  Object.fromEntries((['gwa', 'gwb', 'gwc'] as const).map((p) => [p, (detail as any).qualification[p].level as string]));

/** Every preparation still records the level it was made at, in its row and in its evidence row. */
async function expectRecorded(prepared: { endpoint: string; provider: Provider; id: string; shown: string }[]) {
  for (const p of prepared) {
    expect(await levelsOf(p.id), p.endpoint).toEqual({
      preparation: { provider: p.provider, qualification_level: p.shown },
      evidence: { provider: p.provider, qualification_level: p.shown },
    });
  }
}

/** Change invoice 1002 at the source (`change` returns what to put back) and import it again (an incremental run). */
async function changeAtSource(reader: Reader, change: (invoice: Record<string, unknown>) => Record<string, unknown>) {
  const company = app.sandbox.companies.get(reader.connectionId)!;
  const invoice = company.Invoice.find((i) => i.Id === '1002')! as Record<string, unknown>;
  const before = { SyncToken: invoice.SyncToken, MetaData: invoice.MetaData, ...change(invoice) };
  invoice.SyncToken = String(Number(invoice.SyncToken) + 1);
  invoice.MetaData = { ...(invoice.MetaData as object), LastUpdatedTime: new Date().toISOString() };
  try {
    const { ledger, connectionId } = reader;
    expect((await app.request(`/api/v1/integrations/ledger/${connectionId}/sync`, { method: 'POST', key: ledger.key })).status).toBe(202);
    expect(await waitForRun(app, ledger, connectionId)).toMatchObject({ state: 'succeeded' });
    return await invoiceOf(reader, '1002');
  } finally {
    Object.assign(invoice, before);
  }
}

describe('qualification: every invoice-backed endpoint records the level at preparation time', () => {
  it('when a partial invoice is prepared through endpoints 1, 6, 11 and 12, then each preparation and its evidence row record the level endpoint 9 showed for its provider, and neither a remap to product_3 nor a source change to none changes them', async () => {
    const setup = await setUp();
    await confirm(setup.reader, '4', 'SKU-00004', 'BX', '43211507');
    await confirm(setup.reader, '5', 'P-5', 'EA'); // no commodity code: 1002 is partial for gwa and gwc

    const { detail, prepared } = await prepareEverywhere(setup, '1002');
    expect(levelsShown(detail)).toEqual({ gwa: 'partial', gwb: 'none', gwc: 'partial' });
    expect(prepared.map((p) => [p.endpoint, p.shown])).toEqual([
      ['gwa', 'partial'],
      ['gwb', 'none'],
      ['gwc', 'partial'],
      ['gwcPreparation', 'partial'],
    ]);
    await expectRecorded(prepared);

    // Mapped again: item 5 gets its commodity code, so gwa is Product-3-grade now (gwb still sends no line data).
    await confirm(setup.reader, '5', 'P-5', 'EA', '43211508');
    const remapped = await invoiceOf(setup.reader, '1002');
    expect(remapped.snapshotId).not.toBe(detail.snapshotId);
    expect(levelsShown(remapped)).toMatchObject({ gwa: 'product_3', gwb: 'none' });
    expect((remapped as any).qualification.gwc.missing.map((m: any) => m.field)).not.toContain('commodity_code');
    await expectRecorded(prepared);
    // A preparation made now records the level shown now.
    const after = await prepareEverywhere(setup, '1002');
    expect(after.prepared.map((p) => p.shown)).toEqual(['product_3', 'none', levelsShown(remapped).gwc, levelsShown(remapped).gwc]);
    await expectRecorded(after.prepared);

    // The source changes: 1002 loses its tax detail and is imported again; with the tax unknown no output sends line data.
    const changed = await changeAtSource(setup.reader, (invoice) => {
      const { TxnTaxDetail } = invoice;
      delete invoice.TxnTaxDetail;
      return { TxnTaxDetail };
    });
    expect(changed.snapshotId).not.toBe(remapped.snapshotId);
    expect(changed.invoice.taxAmountMinor).toBeNull();
    expect(levelsShown(changed)).toEqual({ gwa: 'none', gwb: 'none', gwc: 'none' });
    await expectRecorded(prepared);
    await expectRecorded(after.prepared);
  });

  it('when a product_3 invoice is prepared through endpoints 1, 6, 11 and 12 and then remapped down to partial, then each preparation keeps the level it was made at', async () => {
    const setup = await setUp();
    await confirm(setup.reader, '3', 'SKU-00003', 'EA', '43211503');
    await confirm(setup.reader, '4', 'SKU-00004', 'BX', '43211507');

    const { detail, prepared } = await prepareEverywhere(setup, '1001');
    expect(levelsShown(detail)).toMatchObject({ gwa: 'product_3', gwb: 'none' });
    expect((detail as any).qualification.gwa.missing).toEqual([]);
    const gwc = levelsShown(detail).gwc;
    expect(prepared.map((p) => [p.endpoint, p.shown])).toEqual([
      ['gwa', 'product_3'],
      ['gwb', 'none'],
      ['gwc', gwc],
      ['gwcPreparation', gwc],
    ]);
    await expectRecorded(prepared);

    // Mapped again without item 3's commodity code: 1001 is partial now for gwa and gwc.
    await confirm(setup.reader, '3', 'SKU-00003', 'EA');
    const remapped = await invoiceOf(setup.reader, '1001');
    expect(levelsShown(remapped)).toEqual({ gwa: 'partial', gwb: 'none', gwc: 'partial' });
    await expectRecorded(prepared);
  });
});
