import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { contract } from '../../../contract/index.js';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader } from '../../support/ledger-flow.js';
import { bodyFor, preparationFlow } from '../../support/preparation-flow.js';
import { gwaReport, gwbReport, gwcReport } from '../../support/reports.js';
import { createTenant } from '../../support/tenants.js';
import { happyInvoice } from '../../unit/enrichment/support/invoices.js';

/**
 * Every other test runs with SVC_RESPONSE_VALIDATION on, which production leaves off (it costs CPU per request). Here
 * the hot paths run as production runs them, and each answer is checked against the contract by the test instead:
 * the status is one the route declares and the body parses with that status's schema, unchanged.
 */
const app = useLedgerApp({ sandbox: { invoices: 6, items: 6 }, config: { SVC_RESPONSE_VALIDATION: 'false' } });
const { post, invoiceOf } = preparationFlow(app);

const routes: AppRoute[] = [];
(function walk(router: AppRouter) {
  for (const value of Object.values(router)) {
    if (isAppRoute(value)) routes.push(value);
    else walk(value as AppRouter);
  }
})(contract);

/** The contract's route for a request, by method and path template. */
function routeOf(method: string, path: string): AppRoute {
  const found = routes.find((r) => r.method === method && new RegExp(`^${r.path.replace(/:[A-Za-z]+/g, '[^/]+')}$`).test(path));
  if (!found) throw new Error(`no route for ${method} ${path}`);
  return found;
}

async function expectContractAnswer(method: 'GET' | 'POST', path: string, res: { status: number; body: unknown }, status: number) {
  expect(res.status).toBe(status);
  const schema = routeOf(method, path.split('?')[0]!).responses[status] as z.ZodTypeAny | undefined;
  expect(schema, `${method} ${path} declares ${status}`).toBeDefined();
  const parsed = schema!.safeParse(res.body);
  expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
  // The contract's schemas add nothing and drop nothing: the answer is exactly what was sent.
  expect(parsed.success && parsed.data).toEqual(res.body);
}

describe('hot paths with response validation off, as production runs', () => {
  it('when each provider enriches inline and reports a payment twice, then every answer is a contract answer', async () => {
    for (const [provider, path, report] of [
      ['gwa', '/api/v1/gwa/transaction-enrichment', gwaReport],
      ['gwb', '/api/v1/gwb/order-enrichment', gwbReport],
      ['gwc', '/api/v1/gwc/payment-intent-enrichment', gwcReport],
    ] as const) {
      const t = await createTenant(app, { provider, scopes: ['enrichment:write', 'payments:write'] });
      const enriched = await app.request(path, { method: 'POST', key: t.key, json: { invoice: happyInvoice() } });
      await expectContractAnswer('POST', path, enriched, 200);
      const reportsPath = `/api/v1/${provider}/payment-reports`;
      const body = report();
      for (const duplicate of [false, true]) {
        const res = await app.request(reportsPath, { method: 'POST', key: t.key, json: body });
        await expectContractAnswer('POST', reportsPath, res, 200);
        expect((res.body as { data: { duplicate: boolean } }).data.duplicate).toBe(duplicate);
      }
      const refused = await app.request(reportsPath, { method: 'POST', key: t.key, json: { ...body, attemptId: 'att_changed' } });
      await expectContractAnswer('POST', reportsPath, refused, 409);
    }
  });

  it('when invoices are read and prepared (new, replay, refused), then every answer is a contract answer', async () => {
    const reader = await invoiceReader(app, 'gwb');
    const list = await app.request('/api/v1/invoices?limit=3', { key: reader.key });
    await expectContractAnswer('GET', '/api/v1/invoices', list, 200);
    const invoice = await invoiceOf(reader, '1002');
    const detail = await app.request(`/api/v1/invoices/${invoice.id}`, { key: reader.key });
    await expectContractAnswer('GET', `/api/v1/invoices/${invoice.id}`, detail, 200);
    const body = bodyFor(invoice);
    const path = '/api/v1/gwb/order-enrichment/from-invoice';
    await expectContractAnswer('POST', path, await post(reader.key, 'gwb', body), 200);
    await expectContractAnswer('POST', path, await post(reader.key, 'gwb', body), 200);
    await expectContractAnswer('POST', path, await post(reader.key, 'gwb', { ...bodyFor(invoice), amountMinor: 1 }), 409);
    const sync = await app.request(`/api/v1/integrations/ledger/${reader.connectionId}/sync`, { key: reader.ledger.key });
    await expectContractAnswer('GET', `/api/v1/integrations/ledger/${reader.connectionId}/sync`, sync, 200);
  });
});
