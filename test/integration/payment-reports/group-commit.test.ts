import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/harness.js';
import { gwcReport } from '../../support/reports.js';
import { createTenant } from '../../support/tenants.js';
import { happyInvoice } from '../../unit/enrichment/support/invoices.js';
import { groupCommittedFirstReports } from '../../../server/persistence/report-group-commit.js';
import { recordPaymentReport } from '../../../server/domain/payment-reports/record-payment-report.js';
import { poolDatabase } from '../../../server/persistence/kysely.js';
import { poolUnitOfWork } from '../../../server/persistence/unit-of-work.js';
import { recordingDatabase } from '../../support/recording-database.js';
import type { PaymentReport } from '../../../contract/payment-reports.js';

/**
 * Concurrent requests share multi-row statements (group commit); each must
 * still get its own answer and its own stored row, and a statement refused
 * for one request must not cost the others theirs.
 */
describe('group-committed writes', () => {
  const app = useTestApp();
  const rows = (query: string, params: unknown[]) => app.orm.em.getConnection().execute(query, params);

  it('when 40 new reports, their retries and two reports claiming one payment intent arrive together, then each gets its own answer and row', async () => {
    const t = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const post = (body: unknown) => app.request('/api/v1/gwc/payment-reports', { method: 'POST', json: body, key: t.key });
    const fresh = Array.from({ length: 40 }, (_, i) => gwcReport({ amountMinor: 1000 + i, capturedAmountMinor: 1000 + i }));
    const claimed = `pi_claimed${randomUUID().replace(/[^a-z]/g, '')}`;
    const rivals = [gwcReport({ paymentIntentId: claimed }), gwcReport({ paymentIntentId: claimed })];

    const [first, retries, rivalAnswers] = await Promise.all([
      Promise.all(fresh.map(post)),
      Promise.all(fresh.map(post)),
      Promise.all(rivals.map(post)),
    ]);

    // Every report is stored once, under the id its first answer named, with its own amount; its retry names the same id.
    const stored = await rows(
      `select id, event_id, amount_minor::int as amount from payment_observations where integration_id = ? and payload->>'paymentIntentId' is null`,
      [t.integrationId],
    );
    expect(stored).toHaveLength(40);
    fresh.forEach((report, i) => {
      const row = stored.find((r: any) => r.event_id === report.eventId)!;
      expect(row).toEqual({ id: row.id, event_id: report.eventId, amount: 1000 + i });
      const answers = [first[i]!, retries[i]!].map((r) => ({ status: r.status, id: r.body.data.id }));
      expect(answers).toEqual([
        { status: 200, id: row.id },
        { status: 200, id: row.id },
      ]);
      expect([first[i]!.body.data.duplicate, retries[i]!.body.data.duplicate].sort()).toEqual([false, true]);
    });

    // One rival wins the payment intent; the other is refused as alone, and stores nothing.
    expect(rivalAnswers.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = rivalAnswers.find((r) => r.status === 409)!;
    expect(refused.body).toEqual({
      error: {
        type: 'conflict',
        message: 'The report conflicts with what is recorded for this payment',
        issues: [
          {
            code: 'identity_conflict',
            path: 'providerPaymentId',
            message: 'This provider payment is already reported under another attemptId',
          },
        ],
      },
    });
    expect(await rows(`select count(*)::int as n from payment_observations where payload->>'paymentIntentId' = ?`, [claimed])).toEqual([
      { n: 1 },
    ]);
  });

  it('when 40 new reports arrive together, then they share a few statements (batching is on), and each is stored once', async () => {
    const t = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    // Every statement the group commit sends is noted (a pass-through: each still runs).
    const { db: counting, sent } = recordingDatabase(poolDatabase(app.orm));
    const firstWrite = groupCommittedFirstReports(counting);
    const ctx = {
      apiKeyId: t.keyId,
      organizationId: t.organizationId,
      integrationId: t.integrationId,
      provider: 'gwc',
      environment: 'sandbox',
      scopes: ['payments:write'],
    } as const;
    const reports = Array.from({ length: 40 }, (_, i) => gwcReport({ amountMinor: 2000 + i, capturedAmountMinor: 2000 + i }));
    const acks = await Promise.all(
      reports.map((report, i) =>
        recordPaymentReport(poolUnitOfWork(app.orm), {
          ctx,
          provider: 'gwc',
          report: report as PaymentReport,
          requestId: `req_gc${i}`,
          firstWrite,
        }),
      ),
    );
    expect(acks.map((a) => a.duplicate)).toEqual(Array(40).fill(false));
    // The first request goes alone; the others queue behind it and go together: never one statement per report.
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.length).toBeLessThanOrEqual(4);
    const stored = await rows(`select event_id from payment_observations where integration_id = ?`, [t.integrationId]);
    expect(stored.map((r: any) => r.event_id).sort()).toEqual(reports.map((r) => r.eventId).sort());
  });

  it('when 30 inline enrichments arrive together, then each has its own enrichment record under its request id', async () => {
    const t = await createTenant(app, { provider: 'gwc', scopes: ['enrichment:write'] });
    const invoices = Array.from({ length: 30 }, (_, i) => ({ ...happyInvoice(), invoiceNumber: `INV-GC-${i}` }));
    const answers = await Promise.all(
      invoices.map((invoice) => app.request('/api/v1/gwc/payment-intent-enrichment', { method: 'POST', json: { invoice }, key: t.key })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(30).fill(200));
    const records = await rows(
      `select request_id, invoice_number from enrichment_records where integration_id = ? order by invoice_number`,
      [t.integrationId],
    );
    const expected = answers
      .map((r, i) => ({ request_id: r.headers.get('x-svc-request-id'), invoice_number: `INV-GC-${i}` }))
      .sort((a, b) => a.invoice_number.localeCompare(b.invoice_number));
    expect(records).toEqual(expected);
  });
});
