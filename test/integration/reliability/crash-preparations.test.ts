import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../sdk/src/index.js';
import { generateCompany } from '../../../server/ledger-sandbox/demo-company.js';
import { startLedgerSandbox, type LedgerSandbox } from '../../../server/ledger-sandbox/sandbox.js';
import { createTestDatabase } from '../../support/database.js';
import { invoiceReader } from '../../support/ledger-flow.js';
import { spawnService, type ServiceProcess } from '../../support/service-process.js';
import { startTestSmtp, type TestSmtp } from '../../support/smtp.js';
import { CRASH_RETRY_POLICY, untilAcknowledged } from './crash-support.js';

/**
 * Crash without loss during invoice-backed preparation (docs/reliability.md):
 * clients prepare payments from stored invoices (gwc endpoint 12) through the
 * SDK while the service is killed with SIGKILL and started again. Each
 * idempotency key ends with exactly one preparation row, and every identical
 * retry, across the crash or after it, answers the same body.
 */
// 12 invoices: 1007 is partly paid, so not preparable (docs/invoices.md).
const INVOICES = ['1001', '1002', '1003', '1004', '1005', '1006', '1008', '1009', '1010', '1011', '1012'];
const KEYS_PER_INVOICE = 4;
const CLIENTS = 4;
const N = INVOICES.length * KEYS_PER_INVOICE;

describe('invoice-backed preparations across SIGKILL of the service', () => {
  let sandbox: LedgerSandbox;
  let smtp: TestSmtp;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let svc: ServiceProcess;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    sandbox = await startLedgerSandbox({
      companies: [generateCompany({ invoices: 12, items: 6, linesPerInvoice: 2 })],
      autoApprove: true,
      clientId: 'crash-client',
      clientSecret: 'crash-client-secret-0123456789',
    });
    db = await createTestDatabase();
    svc = await spawnService({
      DATABASE_URL: db.url,
      SMTP_URL: smtp.url,
      LEDGER_BASE_URL: sandbox.urls.api,
      LEDGER_AUTH_URL: sandbox.urls.authorize,
      LEDGER_TOKEN_URL: sandbox.urls.token,
      LEDGER_CLIENT_ID: 'crash-client',
      LEDGER_CLIENT_SECRET: 'crash-client-secret-0123456789',
      LEDGER_PAGE_SIZE: '10',
      LEDGER_BACKOFF_BASE_MS: '20',
      LEDGER_BACKOFF_MAX_MS: '200',
    });
  });
  afterAll(async () => {
    await svc?.close();
    await db?.drop();
    await sandbox?.close();
    await smtp?.close();
  });

  it('keeps one preparation per idempotency key and answers every identical retry with the same body', async () => {
    const reader = await invoiceReader({ ...svc, sandbox }, 'gwc');
    const amounts = new Map<string, number>();
    for (const ledgerInvoiceId of INVOICES) {
      const res = await svc.request(`/api/v1/invoices?ledgerInvoiceId=${ledgerInvoiceId}`, { key: reader.key });
      expect(res.status).toBe(200);
      amounts.set(ledgerInvoiceId, res.body.data.invoices[0].totalAmountMinor);
    }
    // Letters only: a long digit run in a key would look like a card number to the request guard.
    const letters = (s: string) => s.replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]!);
    const requests = INVOICES.flatMap((ledgerInvoiceId) =>
      Array.from({ length: KEYS_PER_INVOICE }, (_, k) => ({
        ledgerInvoiceId,
        amountMinor: amounts.get(ledgerInvoiceId)!,
        currency: 'usd',
        idempotencyKey: `crash-${letters(ledgerInvoiceId)}-${'abcd'[k]}-${letters(crypto.randomUUID())}`,
      })),
    );

    const client = createClient({ baseUrl: svc.url, apiKey: reader.key, retry: CRASH_RETRY_POLICY, timeoutMs: 10_000 });
    const first = new Map<string, unknown>();
    let acknowledged = 0;
    let crashedAt = 0;
    const pidBefore = svc.pid;
    const chaos = (async () => {
      await untilAcknowledged(() => acknowledged, N / 3);
      crashedAt = acknowledged;
      await svc.kill9();
      await svc.start();
    })();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        for (let i = c; i < requests.length; i += CLIENTS) {
          const res = await client.gwc.preparePaymentFromInvoice({ body: requests[i]! });
          expect(res.status).toBe(200);
          first.set(requests[i]!.idempotencyKey, res.body);
          acknowledged++;
        }
      }),
    );
    await chaos;
    expect(crashedAt).toBeLessThan(N);
    expect(svc.pid).not.toBe(pidBefore);
    expect(first.size).toBe(N);

    // Every key again, after the crash: the same body, byte for byte (the preparation id and createdAt included).
    for (const body of requests) {
      const again = await client.gwc.preparePaymentFromInvoice({ body });
      expect(again.body).toEqual(first.get(body.idempotencyKey));
    }

    const client2 = new pg.Client({ connectionString: db.url });
    await client2.connect();
    try {
      const rows = await client2.query<{ id: string; idempotency_key: string }>(
        'select id, idempotency_key from preparations where integration_id = $1',
        [reader.integrationId],
      );
      expect(rows.rowCount).toBe(N);
      for (const row of rows.rows) {
        expect((first.get(row.idempotency_key) as { preparation: { id: string } }).preparation.id).toBe(row.id);
      }
    } finally {
      await client2.end();
    }
  }, 120_000);
});
