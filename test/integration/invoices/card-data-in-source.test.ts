import { describe, expect, it } from 'vitest';
import { containsCardNumber } from '../../../server/domain/guard/card-numbers.js';
import { CARD_NUMBER_REDACTED } from '../../../server/domain/guard/redact-card-numbers.js';
import type { QboEntity } from '../../../server/ledger-sandbox/company.js';
import { digitsOf, rowsHolding as rowsHoldingIn, TYPED } from '../../support/card-scan.js';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader, linkedProvider } from '../../support/ledger-flow.js';
import { bodyFor, codes, PREPARATION_PATHS } from '../../support/preparation-flow.js';

// 6 invoices (1001-1006) over 4 items, all with a Sku; 1004 has no PO field.
const app = useLedgerApp({ sandbox: { invoices: 6, items: 4 } });
const sql = (q: string, p: unknown[] = []): Promise<any[]> => app.orm.em.getConnection().execute(q, p);

/** A string the import stores as typed: the scan below must find it, or it could not find the card numbers either. */
const CONTROL = 'Delivery slot 7391 2846 5502';
const rowsHolding = (digits: string, typed: string) => rowsHoldingIn(sql, digits, typed);

describe('card numbers in the accounting source', () => {
  it('when imported invoices and items hold card numbers in any text field, then no table holds the digits and the invoices name each field', async () => {
    for (const typed of Object.values(TYPED)) expect(containsCardNumber(typed)).toBe(true);
    const company = [...app.sandbox.companies.values()][0]!;
    const invoice = (id: string) => company.Invoice.find((i) => i.Id === id)! as QboEntity & { Line: any[]; CustomField: any[] };
    invoice('1001').Line[0].Description = `Paid by card ${TYPED.visa}, thanks`;
    invoice('1002').CustomerMemo = { value: `card ${TYPED.mastercard} exp 12/30` };
    invoice('1002').PrivateNote = `Amex ${TYPED.amex}`;
    invoice('1002').CustomField[0].StringValue = TYPED.discover;
    invoice('1003').DocNumber = `INV ${TYPED.jcb}`;
    invoice('1003').CustomerRef = { value: '3', name: `Customer ${TYPED.visa}` };
    invoice('1005').Line[0].Description = CONTROL;
    // An item's name and SKU feed the lines of every invoice that reads it.
    const item = company.Item.find((i) => i.Id === '2')!;
    item.Name = `Gift card ${TYPED.mastercard}`;
    item.Sku = TYPED.amex.replace(/\t/g, '');
    const readingItem2 = company.Invoice.filter((i) => (i.Line as any[]).some((l) => l.SalesItemLineDetail?.ItemRef?.value === '2')).map(
      (i) => i.Id,
    );
    expect(readingItem2.length).toBeGreaterThan(0);
    for (const inv of company.Invoice)
      for (const line of inv.Line as any[])
        if (line.SalesItemLineDetail?.ItemRef?.value === '2') line.SalesItemLineDetail.ItemRef.name = item.Name;

    const reader = await invoiceReader(app, 'gwb');

    for (const typed of Object.values(TYPED)) expect(await rowsHolding(digitsOf(typed), typed)).toStrictEqual([]);
    expect((await rowsHolding(digitsOf(CONTROL), CONTROL)).map((f) => f.table)).toEqual(
      expect.arrayContaining(['"public"."ledger_source_records"', '"public"."invoice_snapshots"']),
    );

    const list = await app.request('/api/v1/invoices?limit=50', { key: reader.key });
    expect(list.status).toBe(200);
    const byLedgerId = new Map<string, any>(list.body.data.invoices.map((i: any) => [i.ledgerInvoiceId, i]));
    const cardIssues = async (ledgerInvoiceId: string) => {
      const detail = await app.request(`/api/v1/invoices/${byLedgerId.get(ledgerInvoiceId).id}`, { key: reader.key });
      expect(detail.status).toBe(200);
      return {
        detail: detail.body.data,
        paths: detail.body.data.issues.filter((i: any) => i.code === 'card_data_in_source').map((i: any) => [i.path, i.category]),
      };
    };
    // Every field named by its path at the source, in the invoice and in the item its lines read (with the item's name copied into ItemRef).
    const itemFields = (id: string) => {
      const lines = (company.Invoice.find((i) => i.Id === id)!.Line as any[]).flatMap((l, i) =>
        l.SalesItemLineDetail?.ItemRef?.value === '2' ? [`source.Line[${i}].SalesItemLineDetail.ItemRef.name`] : [],
      );
      return lines.length === 0 ? [] : [...lines, 'source.Item(2).Name', 'source.Item(2).Sku'];
    };
    const expected: Record<string, string[]> = {
      '1001': ['source.Line[0].Description'],
      '1002': ['source.CustomField[0].StringValue', 'source.CustomerMemo.value', 'source.PrivateNote'],
      '1003': ['source.DocNumber', 'source.CustomerRef.name'],
    };
    for (const id of ['1001', '1002', '1003', '1004', '1005', '1006']) {
      const want = [...(expected[id] ?? []), ...itemFields(id)].sort();
      expect((await cardIssues(id)).paths.sort(), id).toStrictEqual(want.map((path) => [path, 'source']));
      expect(byLedgerId.get(id).ready, id).toBe(want.length === 0);
    }
    // What endpoint 9 returns carries the marker where the number was, never the number.
    const { detail: first } = await cardIssues('1001');
    expect(first.invoice.lineItems[0].description).toBe(CARD_NUMBER_REDACTED);
    const { detail: third } = await cardIssues('1003');
    expect(third.invoiceNumber).toBe(CARD_NUMBER_REDACTED);
    const [stored] = await sql(
      `select payload->'Line'->0->>'Description' as description from ledger_source_records where entity_type = 'Invoice' and source_id = '1001'`,
    );
    expect(stored.description).toBe(CARD_NUMBER_REDACTED);

    // No provider output is made of such an invoice: endpoint 6 refuses it as a source conflict.
    const prepared = await app.request(PREPARATION_PATHS.gwb, { method: 'POST', key: reader.key, json: bodyFor(byLedgerId.get('1001')) });
    expect(prepared.status).toBe(409);
    expect(prepared.body.error.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'card_data_in_source', path: 'source.Line[0].Description', category: 'source' }),
      ]),
    );
    expect(JSON.stringify(prepared.body)).not.toMatch(/4539/);
    // Every provider: gwa and gwc read the same source and refuse it too; endpoint 12 does not fall back to ordinary mode.
    for (const provider of ['gwa', 'gwc'] as const) {
      const other = await linkedProvider(app, reader.ledger, provider);
      const summaries = (await app.request('/api/v1/invoices?limit=50', { key: other.key })).body.data.invoices as any[];
      const affected = summaries.find((i) => i.ledgerInvoiceId === '1001');
      expect(affected.ready).toBe(false);
      expect(affected.issues).toEqual(
        expect.arrayContaining([expect.objectContaining({ code: 'card_data_in_source', path: 'source.Line[0].Description' })]),
      );
      for (const endpoint of provider === 'gwa' ? (['gwa'] as const) : (['gwc', 'gwcPreparation'] as const)) {
        const res = await app.request(PREPARATION_PATHS[endpoint], { method: 'POST', key: other.key, json: bodyFor(affected) });
        expect(res.status, endpoint).toBe(409);
        expect(codes(res.body.error.issues), endpoint).toContain('card_data_in_source');
      }
    }
    // A clean invoice beside them is prepared as before.
    const cleanId = ['1004', '1005', '1006'].find((id) => itemFields(id).length === 0)!;
    const clean = await app.request(PREPARATION_PATHS.gwb, { method: 'POST', key: reader.key, json: bodyFor(byLedgerId.get(cleanId)) });
    expect(clean.status, JSON.stringify(clean.body)).toBe(200);
  });
});
