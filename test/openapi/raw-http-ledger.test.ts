import createClient from 'openapi-fetch';
import { randomUUID } from 'node:crypto';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { useLedgerApp } from '../support/ledger-app.js';
import { followConsent, invoiceReader, ledgerTenant, uniqueEmail } from '../support/ledger-flow.js';
import type { components, paths } from './generated/openapi.js';

/**
 * The ledger and invoice endpoints over raw HTTP with types generated from
 * openapi.json alone (no import of the contract, server or SDK for the calls);
 * the harness starts the service, the ledger sandbox and SMTP, issues keys and,
 * for the invoice reads, connects and syncs the source and links a provider
 * integration to it as an operator does.
 */
const app = useLedgerApp({ sandbox: { invoices: 3, items: 2 } });

type InvoiceSummary = paths['/api/v1/invoices']['get']['responses'][200]['content']['application/json']['data']['invoices'][number];
type InvoiceDetail = paths['/api/v1/invoices/{invoiceId}']['get']['responses'][200]['content']['application/json']['data'];
type ErrorEnvelope = components['schemas']['ErrorEnvelope'];

describe('raw HTTP from openapi.json: ledger', () => {
  it('when inviting, consenting, queueing and reading the sync, then the typed bodies and a typed 404 come back', async () => {
    const tenant = await ledgerTenant(app);
    const api = createClient<paths>({ baseUrl: app.url, headers: { authorization: `Bearer ${tenant.key}` } });

    const invited = await api.POST('/api/v1/integrations/ledger/invitations', { body: { recipientEmail: uniqueEmail() } });
    expect(invited.response.status).toBe(201);
    expect((await followConsent(invited.data!.invitation.connectUrl)).status).toBe(200);
    const connectionId = [...app.sandbox.companies.keys()][0]!;

    const queued = await api.POST('/api/v1/integrations/ledger/{connectionId}/sync', {
      params: { path: { connectionId } },
      body: { fullReconciliation: false },
    });
    expect(queued.response.status).toBe(202);
    expect(queued.data!.data.created).toBe(true);

    const status = await api.GET('/api/v1/integrations/ledger/{connectionId}/sync', { params: { path: { connectionId } } });
    expect(status.data!.object).toBe('ledger.sync_run');
    expect(status.data!.data?.id).toBe(queued.data!.data.syncRunId);

    const missing = await api.GET('/api/v1/integrations/ledger/{connectionId}/sync', { params: { path: { connectionId: 'nope' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error!.error.type).toBe('not_found');
  });

  it('when a linked gwc key lists, pages and reads invoices, then typed pages, a typed detail and a typed 404 come back', async () => {
    const reader = await invoiceReader(app, 'gwc');
    const api = createClient<paths>({ baseUrl: app.url, headers: { authorization: `Bearer ${reader.key}` } });

    const first = await api.GET('/api/v1/invoices', { params: { query: { limit: 2 } } });
    expect(first.response.status).toBe(200);
    expect(first.data!.object).toBe('invoice.list');
    expectTypeOf(first.data!.data.invoices).toEqualTypeOf<InvoiceSummary[]>();
    expectTypeOf(first.data!.data.nextCursor).toEqualTypeOf<string | null>();
    expect(first.data!.data.invoices).toHaveLength(2);
    const cursor = first.data!.data.nextCursor;
    expect(cursor).toEqual(expect.any(String));

    const second = await api.GET('/api/v1/invoices', { params: { query: { limit: 2, cursor: cursor! } } });
    expect(second.data!.data.nextCursor).toBeNull();
    const invoices = [...first.data!.data.invoices, ...second.data!.data.invoices];
    expect(invoices.map((i) => i.ledgerInvoiceId).sort()).toEqual(['1001', '1002', '1003']);

    const summary = invoices.find((i) => i.ledgerInvoiceId === '1002')!;
    const filtered = await api.GET('/api/v1/invoices', { params: { query: { ledgerInvoiceId: '1002' } } });
    expect(filtered.data!.data).toEqual({ invoices: [summary], nextCursor: null });

    const detail = await api.GET('/api/v1/invoices/{invoiceId}', { params: { path: { invoiceId: summary.id } } });
    expect(detail.response.status).toBe(200);
    expect(detail.data!.object).toBe('invoice');
    expectTypeOf(detail.data!.data).toEqualTypeOf<InvoiceDetail>();
    expect(detail.data!.data).toMatchObject({ id: summary.id, ledgerInvoiceId: '1002', invoiceNumber: summary.invoiceNumber });
    expect(detail.data!.data.invoice!.lineItems.length).toBeGreaterThan(0);
    expect(detail.data!.data.provenance).toMatchObject({ sourceConnectionId: reader.connectionId, mappings: [] });

    const missing = await api.GET('/api/v1/invoices/{invoiceId}', { params: { path: { invoiceId: randomUUID() } } });
    expect(missing.response.status).toBe(404);
    expect(missing.data).toBeUndefined();
    expectTypeOf(missing.error!).toEqualTypeOf<ErrorEnvelope>();
    expect(missing.error!.error.type).toBe('not_found');
    expect(missing.response.headers.get('x-svc-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
  });
});
