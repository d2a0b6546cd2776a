import { describe, expect, it } from 'vitest';
import type { QboEntity } from '../../../server/ledger-sandbox/company.js';
import { demoCompany } from '../../../server/ledger-sandbox/demo-company.js';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader } from '../../support/ledger-flow.js';
import { confirmItem, newKey, preparationFlow, type PreparationEndpoint, type Reader } from '../../support/preparation-flow.js';

/**
 * The demo company (generated invoices: no PO field, no SKU, partly paid; one invoice per mapping rule: void, tax
 * inclusive, group line, line without item, inexact amount, euro, a second invoice numbered INV-000001) plus faults a
 * real accounting company holds: a paid invoice, a paid invoice whose line amount is not exact (the full-invoice rule
 * must hold even when the invoice cannot become canonical), and an invoice without a balance.
 */
function fixtureCompany() {
  const company = demoCompany();
  const rule = (doc: string) => company.Invoice.find((i) => i.DocNumber === doc)!;
  const variant = (from: QboEntity, id: string, doc: string, change: Record<string, unknown>): QboEntity => ({
    ...structuredClone(from),
    Id: id,
    DocNumber: doc,
    ...change,
  });
  const plain = company.Invoice[0]!;
  const inexact = rule('RULE-INEXACT');
  const lines = inexact.Line as Record<string, unknown>[];
  company.Invoice.push(
    variant(plain, '3001', 'RULE-PAID', { Balance: 0 }),
    variant(inexact, '3002', 'RULE-PAID-INEXACT-LINE', { TotalAmt: 12.01, Balance: 0, Line: [{ ...lines[0], Amount: 10.005 }] }),
    variant(plain, '3003', 'RULE-NO-BALANCE', { Balance: undefined }),
  );
  return company;
}

const app = useLedgerApp({ sandbox: { companies: [fixtureCompany()] } });
const { post, sql } = preparationFlow(app);

interface Summary {
  id: string;
  invoiceNumber: string | null;
  currency: string | null;
  totalAmountMinor: number | null;
  ready: boolean;
  issues: { code: string; path: string; category: string }[];
}

const ENDPOINT: Record<'gwa' | 'gwb' | 'gwc', PreparationEndpoint> = { gwa: 'gwa', gwb: 'gwb', gwc: 'gwc' };
const key = (i: { code: string; path: string }) => `${i.code} ${i.path}`;

/** A reader of the fixture company with every item mapped and the PO field configured: as ready as the source allows. */
async function preparedReader(provider: 'gwa' | 'gwb' | 'gwc'): Promise<Reader> {
  const reader = await invoiceReader(app, provider);
  const company = app.sandbox.companies.get(reader.connectionId)!;
  for (const item of company.Item) await confirmItem(app, reader.connectionRowId, item.Id);
  expect((await app.admin('connections.configure', { id: reader.connectionRowId, purchaseOrderField: 'Purchase Order' })).status).toBe(200);
  return reader;
}

async function everyInvoice(reader: Reader): Promise<Summary[]> {
  const all: Summary[] = [];
  let cursor: string | null = null;
  do {
    const res: any = await app.request(`/api/v1/invoices?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
      key: reader.key,
    });
    expect(res.status).toBe(200);
    all.push(...res.body.data.invoices);
    cursor = res.body.data.nextCursor;
  } while (cursor !== null);
  return all;
}

describe('one readiness answer per invoice and provider (endpoints 8, 9, 1, 6, 11, 12)', () => {
  for (const provider of ['gwa', 'gwb', 'gwc'] as const) {
    it(`${provider}: when every invoice of the fixture company is listed, read, listed by number and prepared for its full total, then all four agree`, async () => {
      const reader = await preparedReader(provider);
      const invoices = await everyInvoice(reader);
      expect(invoices.length).toBe(app.sandbox.companies.get(reader.connectionId)!.Invoice.length);
      for (const summary of invoices) {
        const where = `${summary.invoiceNumber} (${summary.id})`;
        const detail = (await app.request(`/api/v1/invoices/${summary.id}`, { key: reader.key })).body.data;
        expect({ where, ready: detail.ready, issues: detail.issues }).toEqual({ where, ready: summary.ready, issues: summary.issues });
        if (summary.invoiceNumber !== null) {
          const byNumber = await app.request(`/api/v1/invoices?invoiceNumber=${encodeURIComponent(summary.invoiceNumber)}`, {
            key: reader.key,
          });
          const same = byNumber.body.data.invoices.find((i: Summary) => i.id === summary.id);
          expect({ where, ready: same.ready, issues: same.issues }).toEqual({ where, ready: summary.ready, issues: summary.issues });
        }

        const amountMinor = summary.totalAmountMinor || 1;
        const currency = provider === 'gwa' ? 'usd' : (summary.currency ?? 'usd');
        const body = { invoiceId: summary.id, amountMinor, currency, idempotencyKey: newKey() };
        const res = await post(reader.key, ENDPOINT[provider], body);
        expect({ where, status: res.status }).toEqual({ where, status: summary.ready ? 200 : expect.toBeOneOf([409, 422]) });
        if (!summary.ready) {
          // Every readiness issue is a reason of the refusal (the request may add its own, e.g. a currency mismatch).
          const reasons = new Set(res.body.error.issues.map(key));
          expect({ where, missing: summary.issues.map(key).filter((k) => !reasons.has(k)) }).toEqual({ where, missing: [] });
        }

        if (provider === 'gwc') {
          const twelve = await post(reader.key, 'gwcPreparation', { ...body, idempotencyKey: newKey() });
          const invoice = detail.invoice;
          const paymentKnown =
            invoice !== null && invoice.totalAmountMinor !== null && invoice.balanceAmountMinor !== null && invoice.currency !== null;
          const fieldGapsOnly = summary.issues.every((i) => i.category === 'mapping' || i.category === 'validation');
          if (summary.ready) {
            expect({ where, status: twelve.status, mode: twelve.body.data.mode }).toEqual({ where, status: 200, mode: 'enhanced' });
          } else if (paymentKnown && fieldGapsOnly) {
            expect({ where, status: twelve.status, mode: twelve.body.data.mode }).toEqual({ where, status: 200, mode: 'ordinary' });
            expect(twelve.body.data.optimizationIssues).toEqual(summary.issues);
            expect(twelve.body.preparation.amountMinor).toBe(invoice.totalAmountMinor);
          } else {
            expect({ where, status: twelve.status }).toEqual({ where, status: res.status });
            expect(twelve.body.error.issues).toEqual(res.body.error.issues);
          }
        }
      }
      // The walk is not vacuous: both answers occur, and the shared number INV-000001 is ready on both invoices for gwb.
      expect(invoices.some((i) => i.ready)).toBe(true);
      expect(invoices.some((i) => !i.ready)).toBe(true);
      const shared = invoices.filter((i) => i.invoiceNumber === 'INV-000001');
      expect(shared).toHaveLength(2);
      if (provider === 'gwb') expect(shared.map((i) => i.ready)).toEqual([true, true]);
    });
  }

  it('when two invoices share a number, then selecting by that number is 409 ambiguous_invoice_number and nothing is saved; by id each is prepared', async () => {
    const reader = await preparedReader('gwb');
    const shared = (await everyInvoice(reader)).filter((i) => i.invoiceNumber === 'INV-000001');
    expect(shared.map((i) => i.ready)).toEqual([true, true]);
    for (const endpoint of ['gwb'] as const) {
      const res = await post(reader.key, endpoint, {
        invoiceNumber: 'INV-000001',
        amountMinor: shared[0]!.totalAmountMinor,
        currency: 'usd',
        idempotencyKey: newKey(),
      });
      expect(res.status).toBe(409);
      expect(res.body.error.issues).toEqual([
        {
          code: 'ambiguous_invoice_number',
          path: 'invoiceNumber',
          category: 'source',
          message: expect.stringContaining('"INV-000001" names several invoices.'),
        },
      ]);
    }
    expect(await sql(`select count(*)::int as n from preparations where integration_id = ?`, [reader.integrationId])).toEqual([{ n: 0 }]);
    for (const invoice of shared) {
      const res = await post(reader.key, 'gwb', {
        invoiceId: invoice.id,
        amountMinor: invoice.totalAmountMinor,
        currency: 'usd',
        idempotencyKey: newKey(),
      });
      expect(res.status).toBe(200);
    }
  });
});
