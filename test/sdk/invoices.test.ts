import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  createClient,
  SvcError,
  type FetchLike,
  type InvoiceDetail,
  type InvoiceListItem,
  type InvoiceSummary,
} from '../../sdk/src/index.js';
import { caught } from './support/caught.js';
import { useLedgerApp } from '../support/ledger-app.js';
import { invoiceReader } from '../support/ledger-flow.js';

/**
 * The SDK's invoices namespace (endpoints 8 and 9) against the real app, with a
 * sandbox company of 12 invoices synced by the service and a gwc key linked to it
 * the way an operator links one.
 */
const app = useLedgerApp({ sandbox: { invoices: 12, items: 6 } });
const ALL_IDS = Array.from({ length: 12 }, (_, i) => String(1001 + i));

let key: string;
beforeAll(async () => {
  key = (await invoiceReader(app, 'gwc')).key;
}, 60_000);

/** A client whose requests are recorded, to see which pages the iterator asked for. */
function recordingClient(apiKey = key) {
  const urls: URL[] = [];
  const fetchAndRecord: FetchLike = (input, init) => {
    urls.push(new URL(input));
    return fetch(input, init);
  };
  return { svc: createClient({ baseUrl: app.url, apiKey, fetch: fetchAndRecord, retry: { baseDelayMs: 5, maxDelayMs: 20 } }), urls };
}

describe('SDK invoices namespace against a running server', () => {
  it('when listing one page and reading one invoice, then both bodies are typed from the contract', async () => {
    const { svc } = recordingClient();
    const page = await svc.invoices.list({ query: { limit: 5 } });
    expect(page.status).toBe(200);
    expect(page.body.object).toBe('invoice.list');
    expectTypeOf(page.body.data.invoices).toEqualTypeOf<InvoiceSummary[]>();
    expectTypeOf(page.body.data.nextCursor).toEqualTypeOf<string | null>();
    expect(page.body.data.invoices).toHaveLength(5);
    expect(page.body.data.nextCursor).toEqual(expect.any(String));
    expect(page.requestId).toMatch(/^req_/);

    const filtered = await svc.invoices.list({ query: { ledgerInvoiceId: '1003' } });
    expect(filtered.body.data).toMatchObject({ invoices: [{ ledgerInvoiceId: '1003', invoiceNumber: 'INV-000003' }], nextCursor: null });

    const summary = filtered.body.data.invoices[0]!;
    const detail = await svc.invoices.get({ params: { invoiceId: summary.id } });
    expect(detail.body.object).toBe('invoice');
    expectTypeOf(detail.body.data).toEqualTypeOf<InvoiceDetail>();
    expect(detail.body.data).toMatchObject({ ...summary, checkedThrough: expect.any(String) });
    expect(detail.body.data.invoice?.lineItems).toHaveLength(2);
    expect(detail.body.data.provenance.sourceConnectionId).toEqual(expect.any(String));
  });

  it('when iterating with listAll (limit 5 over 12), then every invoice comes once over 3 pages with the same filters', async () => {
    const { svc, urls } = recordingClient();
    const seen: InvoiceListItem[] = [];
    for await (const invoice of svc.invoices.listAll({ query: { limit: 5 } })) seen.push(invoice);
    expectTypeOf<InvoiceListItem>().toEqualTypeOf<InvoiceSummary>();

    expect(seen.map((i) => i.ledgerInvoiceId).sort()).toEqual(ALL_IDS);
    expect(new Set(seen.map((i) => i.id)).size).toBe(12);
    expect(urls.map((u) => u.pathname)).toEqual(Array(3).fill('/api/v1/invoices'));
    expect(urls.map((u) => u.searchParams.get('limit'))).toEqual(['5', '5', '5']);
    expect(urls[0]!.searchParams.has('cursor')).toBe(false);
    expect(urls.slice(1).every((u) => u.searchParams.get('cursor'))).toBe(true);

    // A filter is repeated on every page; a match on the first page ends the walk.
    const { svc: filteredSvc, urls: filteredUrls } = recordingClient();
    const byNumber: InvoiceListItem[] = [];
    for await (const invoice of filteredSvc.invoices.listAll({ query: { invoiceNumber: 'INV-000007', limit: 5 } })) byNumber.push(invoice);
    expect(byNumber.map((i) => i.ledgerInvoiceId)).toEqual(['1007']);
    expect(filteredUrls).toHaveLength(1);

    // Breaking out of the loop stops asking for pages.
    const { svc: earlySvc, urls: earlyUrls } = recordingClient();
    for await (const invoice of earlySvc.invoices.listAll({ query: { limit: 5 } })) if (invoice) break;
    expect(earlyUrls).toHaveLength(1);
  });

  it('when an invoice id is unknown or malformed, then get throws SvcError 404 not_found, tried once', async () => {
    const { svc, urls } = recordingClient();
    for (const invoiceId of [randomUUID(), 'not-a-uuid']) {
      const error = await caught(svc.invoices.get({ params: { invoiceId } }));
      expect(error).toMatchObject({ status: 404, type: 'not_found', attempts: 1 });
      expect(error.requestId).toMatch(/^req_/);
    }
    expect(urls).toHaveLength(2);
  });

  it('when a page fails during iteration, then the loop throws SvcError', async () => {
    const { svc } = recordingClient('sk_test_no_such_key');
    const error = await (async () => {
      try {
        for await (const _invoice of svc.invoices.listAll()) throw new Error('no invoice expected');
      } catch (err) {
        return err;
      }
      throw new Error('expected the iteration to fail');
    })();
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toMatchObject({ status: 401, attempts: 1 });
  });
});
