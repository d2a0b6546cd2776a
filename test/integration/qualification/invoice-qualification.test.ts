import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader } from '../../support/ledger-flow.js';
import { preparationFlow, type Reader, confirmMapping } from '../../support/preparation-flow.js';

// docs/network-qualification.md, "Where it shows". Four generated invoices over six items (2 lines each):
// 1001 items 3+4, 1002 items 4+5, 1003 items 5+6, 1004 items 6+1 (no PO). Item 5 has no Sku at the source.
const app = useLedgerApp({ sandbox: { invoices: 4, items: 6 } });
const { sql, invoiceOf } = preparationFlow(app);

const source = (objectType: string, externalId: string, field: string) => ({ objectType, externalId, field });
const notInSource = (field: string, path: string, from: ReturnType<typeof source>) => ({
  field,
  reason: 'not_in_source',
  path,
  source: from,
});
const commodity = (line: number, item: string) =>
  notInSource('commodity_code', `invoice.lineItems[${line}].commodityCode`, source('ItemMapping', item, 'commodityCode'));
const unit = (line: number, item: string) =>
  notInSource('unit_of_measure', `invoice.lineItems[${line}].unitOfMeasure`, source('ItemMapping', item, 'unitOfMeasure'));
type Own = { level: string; missing: unknown[]; risks: unknown[] };
/** gwc has a place for the buyer's PO (customer_reference), but its invoice-backed output never fills it. */
const po = (invoice: string) => ({
  field: 'customer_code',
  reason: 'not_mapped',
  path: 'invoice.purchaseOrderReference',
  source: source('Invoice', invoice, 'CustomField'),
});
/** gwa's qualification; gwb sends nothing; gwc gwa's but for the PO it does not send, which keeps it partial at best. */
const outputs = (invoice: string, gwa: Own) => ({
  gwa,
  gwb: { level: 'none', missing: [], risks: [] },
  gwc: { level: gwa.level === 'product_3' ? 'partial' : gwa.level, missing: [po(invoice), ...gwa.missing], risks: gwa.risks },
});
/** The stored form of `outputs`: gwc's PO is the last entry of `missingAt` (gwa's are named first). */
const storedOutputs = (gwa: Own & { missing: number[] }, po: number) => ({
  gwa,
  gwb: { level: 'none', missing: [], risks: [] },
  gwc: { level: gwa.level === 'product_3' ? 'partial' : gwa.level, missing: [po, ...gwa.missing], risks: gwa.risks },
});
const singleUnit = (invoice: string, line: number, item: string, invoices = 4, items = 5) => ({
  code: 'single_unit_of_measure_everywhere',
  field: 'unit_of_measure',
  ledgerInvoiceId: invoice,
  path: `invoice.lineItems[${line}].unitOfMeasure`,
  source: source('ItemMapping', item, 'unitOfMeasure'),
  message: `Every line of ${invoices} invoices has the unit EA, over ${items} different items.`,
});

async function setUp() {
  const reader = await invoiceReader(app, 'gwa');
  expect((await app.admin('connections.configure', { id: reader.connectionRowId, purchaseOrderField: 'Purchase Order' })).status).toBe(200);
  return reader;
}

const confirm = (reader: Reader, sourceItemId: string, productCode: string, unitOfMeasure: string, commodityCode?: string) =>
  confirmMapping(app, reader.connectionRowId, { sourceItemId, productCode, unitOfMeasure, commodityCode });

/** The stored snapshot's qualification and the stored invoice's cross-invoice findings, as the database holds them. */
async function stored(invoiceId: string) {
  const [row] = await sql(
    `select s.qualification, si.cross_invoice_risks from stored_invoices si join invoice_snapshots s on s.id = si.current_snapshot_id where si.id = ?`,
    [invoiceId],
  );
  return row;
}

/** Every item's mapping confirmed in EA, but item 4's in BX: one step from one unit on every line of the window. */
async function everyItemEaButItem4(reader: Reader) {
  for (const [item, code] of [
    ['1', 'SKU-00001'],
    ['3', 'SKU-00003'],
    ['5', 'P-5'],
    ['6', 'SKU-00006'],
  ] as const)
    await confirm(reader, item, code, 'EA', '43211503');
  await confirm(reader, '4', 'SKU-00004', 'BX', '43211507');
}

describe('invoice detail (endpoint 9): qualification per provider, computed when the invoice is mapped', () => {
  it('when an invoice is Product-3-grade, partial for a value the source lacks, or sends no line data, then each shows its level and what to fix, as stored with its snapshot', async () => {
    const reader = await setUp();
    // Before any mapping no line has a unit: gwa and gwc send no line-item data.
    const unmapped = await invoiceOf(reader, '1001');
    expect((unmapped as any).qualification).toEqual(
      outputs('1001', { level: 'none', missing: [commodity(0, '3'), unit(0, '3'), commodity(1, '4'), unit(1, '4')], risks: [] }),
    );

    await confirm(reader, '3', 'SKU-00003', 'EA', '43211503');
    await confirm(reader, '4', 'SKU-00004', 'BX', '43211507');
    await confirm(reader, '5', 'P-5', 'EA');

    const product3 = await invoiceOf(reader, '1001');
    expect((product3 as any).qualification).toEqual(outputs('1001', { level: 'product_3', missing: [], risks: [] }));

    const partial = await invoiceOf(reader, '1002');
    expect((partial as any).qualification).toEqual(outputs('1002', { level: 'partial', missing: [commodity(1, '5')], risks: [] }));

    const none = await invoiceOf(reader, '1003');
    expect((none as any).qualification).toEqual(
      outputs('1003', { level: 'none', missing: [commodity(0, '5'), commodity(1, '6'), unit(1, '6')], risks: [] }),
    );

    // Stored with the snapshot it was computed from, in the stored form (each missing field once, as field@line, the
    // providers by index, and where the source holds each line); no cross-invoice finding was ever written.
    const sourceFacts = { lines: [0, 1], taxable: [true, true], discountLine: null, shippingLine: null };
    expect(await stored(partial.id)).toEqual({
      qualification: {
        ...storedOutputs({ level: 'partial', missing: [0], risks: [] }, 1),
        missingAt: ['commodity_code@1', 'customer_code'],
        riskFindings: [],
        source: sourceFacts,
      },
      cross_invoice_risks: null,
    });
    // The earlier snapshot keeps what was computed from it.
    const [earlier] = await sql(`select qualification from invoice_snapshots where id = ?`, [unmapped.snapshotId]);
    expect(earlier.qualification).toEqual({
      ...storedOutputs({ level: 'none', missing: [0, 1, 2, 3], risks: [] }, 4),
      missingAt: ['commodity_code@0', 'unit_of_measure@0', 'commodity_code@1', 'unit_of_measure@1', 'customer_code'],
      riskFindings: [],
      source: sourceFacts,
    });
  });

  it('when a product code is a placeholder, then the outputs that carry it show the risk with the record to fix; the output is unchanged', async () => {
    const reader = await setUp();
    await confirm(reader, '1', 'ITEM', 'EA');
    await confirm(reader, '6', 'SKU-00006', 'EA', '43211504');
    const invoice = await invoiceOf(reader, '1004');
    const risk = {
      code: 'generic_product_code',
      field: 'product_code',
      ledgerInvoiceId: '1004',
      path: 'invoice.lineItems[1].productCode',
      source: source('ItemMapping', '1', 'productCode'),
      message: 'The product code "ITEM" identifies no product.',
    };
    // gwa refuses without the buyer's PO, which the source lacks (fix it there); gwc would not send it anyway.
    const missingPo = notInSource('customer_code', 'invoice.purchaseOrderReference', source('Invoice', '1004', 'CustomField'));
    expect((invoice as any).qualification).toEqual({
      gwa: { level: 'none', missing: [missingPo, commodity(1, '1')], risks: [risk] },
      gwb: { level: 'none', missing: [], risks: [] },
      gwc: { level: 'partial', missing: [po('1004'), commodity(1, '1')], risks: [risk] },
    });
    // Never repaired: the stored line keeps the code the merchant confirmed.
    expect(invoice.invoice.lineItems[1]).toMatchObject({ sourceItemId: '1', productCode: 'ITEM', unitOfMeasure: 'EA' });
  });

  it('when every line of the window’s invoices gets one unit, then each invoice shows the cross-invoice risk; when the set changes back, it is gone', async () => {
    const reader = await setUp();
    await everyItemEaButItem4(reader);
    const before = await invoiceOf(reader, '1001');
    expect((before as any).qualification).toEqual(outputs('1001', { level: 'product_3', missing: [], risks: [] }));

    await confirm(reader, '4', 'SKU-00004', 'EA', '43211507');
    const after = await invoiceOf(reader, '1001');
    const findings = [singleUnit('1001', 0, '3'), singleUnit('1001', 1, '4')];
    expect((after as any).qualification).toEqual(outputs('1001', { level: 'product_3', missing: [], risks: findings }));
    expect(await stored(after.id)).toEqual({
      qualification: {
        ...storedOutputs({ level: 'product_3', missing: [], risks: [] }, 0),
        missingAt: ['customer_code'],
        riskFindings: [],
        source: { lines: [0, 1], taxable: [true, true], discountLine: null, shippingLine: null },
      },
      cross_invoice_risks: findings,
    });
    const others = await invoiceOf(reader, '1004');
    expect((others as any).qualification.gwc.risks).toEqual([singleUnit('1004', 0, '6'), singleUnit('1004', 1, '1')]);
    // What the rules read of the snapshot is kept beside it: its date, each line's descriptor, unit, Item, Id and product
    // code, and the Items whose code is their confirmed mapping's.
    const [facts] = await sql(`select cross_invoice_facts from invoice_snapshots where id = ?`, [after.snapshotId]);
    expect(after.invoice.issuedAt).toMatch(/^2\d{3}-/);
    expect(facts.cross_invoice_facts).toEqual({
      issuedAt: after.invoice.issuedAt,
      lines: [
        ['Product 3', 'EA', '3', '1', 'SKU-00003'],
        ['Product 4', 'EA', '4', '2', 'SKU-00004'],
      ],
      codeMappings: [
        ['3', 'SKU-00003'],
        ['4', 'SKU-00004'],
      ],
    });

    await confirm(reader, '4', 'SKU-00004', 'BX', '43211507');
    expect(((await invoiceOf(reader, '1001')) as any).qualification).toEqual(
      outputs('1001', { level: 'product_3', missing: [], risks: [] }),
    );
    const rows = await sql(`select cross_invoice_risks from stored_invoices where connection_id = ?`, [reader.connectionRowId]);
    expect(rows.map((r) => r.cross_invoice_risks)).toEqual([[], [], [], []]);
  });

  it('when a window invoice’s snapshot was stored before its cross-invoice facts were kept, then the rules read its mapped invoice', async () => {
    const reader = await setUp();
    await everyItemEaButItem4(reader);
    // 1004 (items 6 and 1, which the next change does not touch) on a copy of its snapshot without facts, as stored before.
    const invoice = await invoiceOf(reader, '1004');
    const [older] = await sql(
      `insert into invoice_snapshots (id, organization_id, integration_id, environment, stored_invoice_id, revision, mapper_version, source_version, content, issues, dependencies, mappings, qualification, created_at)
       select gen_random_uuid(), organization_id, integration_id, environment, stored_invoice_id, 'rev-before-facts', mapper_version, source_version, content, issues, dependencies, mappings, qualification, now()
         from invoice_snapshots where id = ? returning id, cross_invoice_facts`,
      [invoice.snapshotId],
    );
    expect(older.cross_invoice_facts).toBeNull();
    await sql(`update stored_invoices set current_snapshot_id = ?, revision = 'rev-before-facts' where id = ?`, [older.id, invoice.id]);

    // Item 4 gets the unit of all the others: 1001 and 1002 are mapped again, and the pass over the window counts 1004 in.
    await confirm(reader, '4', 'SKU-00004', 'EA', '43211507');
    expect((await stored(invoice.id)).cross_invoice_risks).toEqual([singleUnit('1004', 0, '6'), singleUnit('1004', 1, '1')]);
    const reread = await invoiceOf(reader, '1004');
    expect(reread.snapshotId).toBe(older.id);
    expect((reread as any).qualification.gwc.risks).toEqual([singleUnit('1004', 0, '6'), singleUnit('1004', 1, '1')]);
    expect((await stored((await invoiceOf(reader, '1001')).id)).cross_invoice_risks).toEqual([
      singleUnit('1001', 0, '3'),
      singleUnit('1001', 1, '4'),
    ]);
  });

  it('when one product code is on different Items of the window’s invoices, then each such line shows repeated_product_code with the mapping to fix; the same Item on several invoices is not a finding', async () => {
    const reader = await setUp();
    // Item 4 (on 1001 and 1002) keeps one code on both invoices: a near miss.
    await confirm(reader, '4', 'SKU-00004', 'BX', '43211507');
    await confirm(reader, '3', 'DUP-1', 'EA', '43211503');
    await confirm(reader, '6', 'dup 1', 'EA', '43211504');
    const first = await invoiceOf(reader, '1001');
    const finding = repeated('1001', 0, '3', 'Item 6 on 1003, 1004');
    expect((first as any).qualification).toEqual(outputs('1001', { level: 'product_3', missing: [], risks: [finding] }));
    expect((await stored(first.id)).cross_invoice_risks).toEqual([finding]);
    const rows = await sql(
      `select ledger_invoice_id, cross_invoice_risks from stored_invoices where connection_id = ? order by ledger_invoice_id`,
      [reader.connectionRowId],
    );
    expect(rows.map((r) => [r.ledger_invoice_id, r.cross_invoice_risks])).toEqual([
      ['1001', [finding]],
      ['1002', null], // never a finding, so never written
      ['1003', [repeated('1003', 1, '6', 'Item 3 on 1001')]],
      ['1004', [repeated('1004', 0, '6', 'Item 3 on 1001')]],
    ]);
    // Never repaired: the stored lines keep the codes the merchant confirmed.
    expect(first.invoice.lineItems[0]).toMatchObject({ sourceItemId: '3', productCode: 'DUP-1' });
  });

  it('when a window invoice’s snapshot keeps cross-invoice facts from before they held product codes, then the rules read its mapped invoice and mappings', async () => {
    const reader = await setUp();
    await confirm(reader, '6', 'dup 1', 'EA', '43211504');
    // 1004 (items 6 and 1, which the next change does not touch) on a copy of its snapshot with facts in the earlier form.
    const invoice = await invoiceOf(reader, '1004');
    const [current] = await sql(`select cross_invoice_facts from invoice_snapshots where id = ?`, [invoice.snapshotId]);
    const earlier = {
      issuedAt: current.cross_invoice_facts.issuedAt,
      lines: current.cross_invoice_facts.lines.map((l: unknown[]) => l.slice(0, 4)),
    };
    const [older] = await sql(
      `insert into invoice_snapshots (id, organization_id, integration_id, environment, stored_invoice_id, revision, mapper_version, source_version, content, issues, dependencies, mappings, qualification, cross_invoice_facts, created_at)
       select gen_random_uuid(), organization_id, integration_id, environment, stored_invoice_id, 'rev-facts-without-codes', mapper_version, source_version, content, issues, dependencies, mappings, qualification, ?::json, now()
         from invoice_snapshots where id = ? returning id`,
      [JSON.stringify(earlier), invoice.snapshotId],
    );
    await sql(`update stored_invoices set current_snapshot_id = ?, revision = 'rev-facts-without-codes' where id = ?`, [
      older.id,
      invoice.id,
    ]);

    // Item 3 (on 1001 only) gets item 6's code: 1001 is mapped again, and the pass over the window reads 1004's mapped invoice.
    await confirm(reader, '3', 'DUP-1', 'EA', '43211503');
    expect((await stored(invoice.id)).cross_invoice_risks).toEqual([repeated('1004', 0, '6', 'Item 3 on 1001')]);
    const reread = await invoiceOf(reader, '1004');
    expect(reread.snapshotId).toBe(older.id);
    expect((await stored((await invoiceOf(reader, '1001')).id)).cross_invoice_risks).toEqual([
      repeated('1001', 0, '3', 'Item 6 on 1003, 1004'),
    ]);
  });
});

function repeated(invoice: string, line: number, item: string, others: string) {
  return {
    code: 'repeated_product_code',
    field: 'product_code',
    ledgerInvoiceId: invoice,
    path: `invoice.lineItems[${line}].productCode`,
    source: source('ItemMapping', item, 'productCode'),
    message: `The same product code is on other items of other invoices (${others}).`,
  };
}
