import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader, linkedProvider } from '../../support/ledger-flow.js';
import { bodyFor, expectedData, preparationFlow, type PreparationEndpoint, type Reader } from '../../support/preparation-flow.js';

// docs/network-qualification.md: "Nothing here changes an output: the service never repairs or invents a value". Four
// generated invoices over six items (2 lines each): 1001 items 3+4, with a PO.
const app = useLedgerApp({ sandbox: { invoices: 4, items: 6 } });
const { sql, post, invoiceOf } = preparationFlow(app);

async function confirm(reader: Reader, sourceItemId: string, productCode: string, unitOfMeasure: string, commodityCode: string) {
  const res = await app.admin('itemMappings.confirm', {
    connectionRowId: reader.connectionRowId,
    sourceItemId,
    productCode,
    unitOfMeasure,
    commodityCode,
    evidence: 'Price list 2026',
    approvedBy: 'ops@acme.test',
  });
  expect(res.status).toBe(200);
}

/** Where each output holds the first line's product code. */
const CODE_AT: Record<'gwa' | 'gwc' | 'gwcPreparation', (body: any) => { line: any; key: string }> = {
  gwa: (body) => ({ line: body.data.lineItems[0], key: 'productCode' }),
  gwc: (body) => ({ line: body.data.amount_details.line_items[0], key: 'product_code' }),
  gwcPreparation: (body) => ({ line: body.data.enrichment.amount_details.line_items[0], key: 'product_code' }),
};

/** The whole response body without what differs per saved preparation (its id, snapshot, revision and times), and the first line's code apart. */
function comparable(endpoint: keyof typeof CODE_AT, body: any) {
  const copy = structuredClone(body);
  const { line, key } = CODE_AT[endpoint](copy);
  const code = line[key];
  delete line[key];
  const { id, snapshotId, revision, createdAt, checkedThrough, ...preparation } = copy.preparation;
  for (const v of [id, snapshotId, revision, createdAt, checkedThrough]) expect(typeof v).toBe('string');
  return { code, body: { ...copy, preparation } };
}

describe('qualification: a placeholder risk never changes a provider output', () => {
  it('when a line’s product code is the placeholder ITEM, then endpoints 1, 11 and 12 send exactly ITEM and otherwise exactly what they send with a real code, while endpoint 9 shows the risk', async () => {
    const reader = await invoiceReader(app, 'gwc');
    expect((await app.admin('connections.configure', { id: reader.connectionRowId, purchaseOrderField: 'Purchase Order' })).status).toBe(
      200,
    );
    const keys = { gwa: (await linkedProvider(app, reader.ledger, 'gwa')).key, gwc: reader.key, gwcPreparation: reader.key };
    await confirm(reader, '4', 'SKU-00004', 'BX', '43211507');

    const outputsWith = async (productCode: string) => {
      await confirm(reader, '3', productCode, 'EA', '43211503');
      const detail = await invoiceOf(reader, '1001');
      expect(detail.invoice.lineItems[0]).toMatchObject({ sourceItemId: '3', productCode, unitOfMeasure: 'EA', commodityCode: '43211503' });
      const outputs = {} as Record<keyof typeof CODE_AT, any>;
      for (const endpoint of Object.keys(CODE_AT) as (keyof typeof CODE_AT)[]) {
        const res = await post(keys[endpoint], endpoint as PreparationEndpoint, bodyFor(detail));
        expect(res.status, `${endpoint}: ${JSON.stringify(res.body)}`).toBe(200);
        expect(res.body.preparation.snapshotId).toBe(detail.snapshotId);
        outputs[endpoint] = res.body;
      }
      return { detail, outputs };
    };

    const placeholder = await outputsWith('ITEM');
    const risk = {
      code: 'generic_product_code',
      field: 'product_code',
      ledgerInvoiceId: '1001',
      path: 'invoice.lineItems[0].productCode',
      source: { objectType: 'ItemMapping', externalId: '3', field: 'productCode' },
      message: 'The product code "ITEM" identifies no product.',
    };
    const shown = (placeholder.detail as any).qualification;
    expect(shown.gwa).toEqual({ level: 'product_3', missing: [], risks: [risk] });
    expect(shown.gwb).toEqual({ level: 'none', missing: [], risks: [] });
    expect(shown.gwc.risks).toEqual([risk]);
    // Each output is what the enrichment core makes of the stored invoice, ITEM included.
    expect(placeholder.outputs.gwa.data).toEqual(expectedData('gwa', placeholder.detail.invoice));
    expect(placeholder.outputs.gwc.data).toEqual(expectedData('gwc', placeholder.detail.invoice));
    expect(placeholder.outputs.gwcPreparation.data).toEqual({
      mode: 'enhanced',
      enrichment: expectedData('gwc', placeholder.detail.invoice),
      optimizationIssues: [],
    });

    const real = await outputsWith('SKU-00003');
    // The same invoice without the risk; what the outputs miss is the same (the risk does not change the level).
    expect((real.detail as any).qualification).toEqual({
      gwa: { ...shown.gwa, risks: [] },
      gwb: shown.gwb,
      gwc: { ...shown.gwc, risks: [] },
    });

    for (const endpoint of Object.keys(CODE_AT) as (keyof typeof CODE_AT)[]) {
      const withPlaceholder = comparable(endpoint, placeholder.outputs[endpoint]);
      const withReal = comparable(endpoint, real.outputs[endpoint]);
      expect([withPlaceholder.code, withReal.code], endpoint).toEqual(['ITEM', 'SKU-00003']);
      expect(withPlaceholder.body, endpoint).toEqual(withReal.body);
    }
    // Nothing else in the output holds the placeholder, and the second line is the same item's code either way.
    expect(JSON.stringify(placeholder.outputs.gwa.data).match(/"ITEM"/g)).toHaveLength(1);
    expect(JSON.stringify(placeholder.outputs.gwc.data).match(/"ITEM"/g)).toHaveLength(1);
    expect(placeholder.outputs.gwa.data.lineItems[1].productCode).toBe('SKU-00004');
    // The saved preparations hold the output as sent.
    for (const endpoint of Object.keys(CODE_AT) as (keyof typeof CODE_AT)[]) {
      const [saved] = await sql(`select data from preparations where id = ?`, [placeholder.outputs[endpoint].preparation.id]);
      expect(saved.data, endpoint).toEqual(placeholder.outputs[endpoint].data);
    }
  });
});
