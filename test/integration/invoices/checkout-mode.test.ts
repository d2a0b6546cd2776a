import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader } from '../../support/ledger-flow.js';
import { bodyFor, codes, preparationFlow } from '../../support/preparation-flow.js';

// Spec, Preparation mode: "For gwa checkout-readiness, a gap in PO, SKU or unit downgrades the payment to ordinary
// instead of blocking it." 12 invoices over 6 items: item 5 has no Sku; 1007 is partly paid; no unit is confirmed yet.
const app = useLedgerApp({ sandbox: { invoices: 12, items: 6 } });
const { post, invoiceOf, confirmMappings, savedPreparations } = preparationFlow(app);

const GWA_FALLBACK_MESSAGE =
  'The invoice cannot produce enhanced gwa fields: it lacks a purchase-order number, product code or unit. ' +
  'Pay it as an ordinary sale without these fields (its checkoutMode is ordinary) and report it without enrichmentRequestId';

describe('checkoutMode of the invoice list and detail (spec: Preparation mode)', () => {
  it('gwa: when an open invoice lacks only PO, SKU or unit, then one read says ordinary and why, and endpoint 1 keeps its 422 with the gwa codes', async () => {
    const reader = await invoiceReader(app, 'gwa');
    const list = await app.request('/api/v1/invoices?ledgerInvoiceId=1001', { key: reader.key });
    expect(list.status).toBe(200);
    const [summary] = list.body.data.invoices;
    expect(summary).toMatchObject({ ready: false, checkoutMode: 'ordinary' });
    expect(codes(summary.issues)).toEqual(['missing_purchase_order_number', 'missing_unit_of_measure']);
    const detail = await invoiceOf(reader, '1001');
    expect(detail).toMatchObject({ ready: false, checkoutMode: 'ordinary', issues: summary.issues });

    const res = await post(reader.key, 'gwa', bodyFor(detail));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: { type: 'validation_error', message: GWA_FALLBACK_MESSAGE, issues: summary.issues } });
    expect(await savedPreparations(reader.integrationId)).toEqual([]);
  });

  it('gwa: when the invoice is partly paid or its connection paused, then blocked; once PO and mappings are in place, enhanced', async () => {
    const reader = await invoiceReader(app, 'gwa');
    const partlyPaid = await invoiceOf(reader, '1007');
    expect(partlyPaid).toMatchObject({ ready: false, checkoutMode: 'blocked' });
    expect(codes(partlyPaid.issues)).toContain('invoice_balance_not_full');
    const refused = await post(reader.key, 'gwa', bodyFor(partlyPaid));
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe('The invoice cannot be prepared for this payment now');

    expect((await app.admin('connections.configure', { id: reader.connectionRowId, purchaseOrderField: 'Purchase Order' })).status).toBe(
      200,
    );
    const mapped = await confirmMappings(reader, '1001');
    expect(mapped).toMatchObject({ ready: true, checkoutMode: 'enhanced', issues: [] });

    // A paused connection is a state problem: never downgraded.
    const unmapped = await invoiceOf(reader, '1002');
    expect(unmapped.checkoutMode).toBe('ordinary');
    expect((await app.admin('connections.pause', { id: reader.connectionRowId })).status).toBe(200);
    const paused = await invoiceOf(reader, '1002');
    expect(paused).toMatchObject({ ready: false, checkoutMode: 'blocked' });
    expect(codes(paused.issues)).toContain('connection_paused');
  });

  it('gwc and gwb: gwc shows endpoint 12’s ordinary mode for field gaps; gwb has no ordinary mode', async () => {
    const gwc = await invoiceReader(app, 'gwc');
    const forGwc = await invoiceOf(gwc, '1001');
    expect(forGwc).toMatchObject({ ready: false, checkoutMode: 'ordinary' });
    expect(codes(forGwc.issues)).toEqual(['missing_unit_of_measure']);
    const preparation = await post(gwc.key, 'gwcPreparation', bodyFor(forGwc));
    expect(preparation.status).toBe(200);
    expect(preparation.body.data).toMatchObject({ mode: 'ordinary', enrichment: null, optimizationIssues: forGwc.issues });

    const gwb = await invoiceReader(app, 'gwb');
    expect(await invoiceOf(gwb, '1002')).toMatchObject({ ready: true, checkoutMode: 'enhanced', issues: [] });
    expect(await invoiceOf(gwb, '1007')).toMatchObject({ ready: false, checkoutMode: 'blocked' });
  });
});
