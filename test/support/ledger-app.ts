import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { ConfigSchema, type Config } from '../../server/config.js';
import { createMailer } from '../../server/integrations/mail/mailer.js';
import { createLedgerRuntime, type LedgerRuntime } from '../../server/integrations/ledger/runtime.js';
import { apiKeyMac } from '../../server/crypto/api-key-mac.js';
import { createTokenCipher } from '../../server/crypto/token-cipher.js';
import { createApp } from '../../server/http/app.js';
import { listen } from '../../server/http/lifecycle.js';
import { createLogger } from '../../server/logger.js';
import { startSyncQueue, type SyncQueue } from '../../server/jobs/sync-queue.js';
import { generateCompany } from '../../server/ledger-sandbox/demo-company.js';
import { startLedgerSandbox, type LedgerSandbox, type SandboxOptions } from '../../server/ledger-sandbox/sandbox.js';
import { openOrm } from '../../server/persistence/orm.js';
import { createTestDatabase } from './database.js';
import { httpClient, LogCapture, TEST_ADMIN_TOKEN, TEST_CONFIG_DEFAULTS, type TestApp } from './harness.js';
import { startTestSmtp, type TestSmtp } from './smtp.js';

export interface LedgerTestApp extends TestApp {
  sandbox: LedgerSandbox;
  smtp: TestSmtp;
  runtime: LedgerRuntime;
  queue: SyncQueue;
  tokenKey: string;
  clientSecret: string;
}

/**
 * Like `useTestApp`, plus the accounting-source machinery: a ledger sandbox
 * (auto-approve), a real local SMTP server, the pg-boss queue with its worker,
 * and short back-offs so fault tests stay fast.
 */
export function useLedgerApp(
  options: {
    sandbox?: Partial<SandboxOptions> & { invoices?: number; items?: number };
    config?: Partial<Record<keyof Config, string>>;
    /** Run the importer in this process (default); false leaves jobs to workers the test starts. */
    worker?: boolean;
  } = {},
): LedgerTestApp {
  const app = {} as LedgerTestApp;
  let drop: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const smtp = await startTestSmtp();
    const { invoices = 30, items = 6, ...sandboxOptions } = options.sandbox ?? {};
    const clientSecret = `test-client-secret-${randomBytes(8).toString('hex')}`;
    const sandbox = await startLedgerSandbox({
      companies: [generateCompany({ invoices, items, linesPerInvoice: 2 })],
      autoApprove: true,
      clientId: 'test-client',
      clientSecret,
      ...sandboxOptions,
    });
    const db = await createTestDatabase();
    drop = db.drop;
    const tokenKey = randomBytes(32).toString('base64');
    const config = ConfigSchema.parse({
      ...TEST_CONFIG_DEFAULTS,
      SMTP_URL: smtp.url,
      SVC_TOKEN_KEY: tokenKey,
      LEDGER_BASE_URL: sandbox.urls.api,
      LEDGER_AUTH_URL: sandbox.urls.authorize,
      LEDGER_TOKEN_URL: sandbox.urls.token,
      LEDGER_CLIENT_ID: 'test-client',
      LEDGER_CLIENT_SECRET: clientSecret,
      LEDGER_PAGE_SIZE: '10',
      LEDGER_BACKOFF_BASE_MS: '20',
      LEDGER_BACKOFF_MAX_MS: '200',
      LEDGER_MAX_RETRIES: '3',
      LEDGER_JOB_RETRY_DELAY_SECONDS: '1',
      ...options.config,
      DATABASE_URL: db.url,
      PORT: '0',
    });
    const logs = new LogCapture();
    const logger = createLogger(config.LOG_LEVEL, logs);
    const orm = await openOrm(db.url);
    const runtime = createLedgerRuntime({
      config,
      provider: {
        authorizeUrl: sandbox.urls.authorize,
        tokenUrl: sandbox.urls.token,
        apiBaseUrl: sandbox.urls.api,
        clientId: 'test-client',
        clientSecret,
      },
      cipher: createTokenCipher(Buffer.from(tokenKey, 'base64')),
      mailer: createMailer({ smtpUrl: config.SMTP_URL, from: 'svc <no-reply@example.test>', outboxDir: '/nonexistent', timeoutMs: 3000 }),
    });
    const queue = await startSyncQueue({ databaseUrl: db.url, orm, runtime, logger, work: options.worker ?? true });
    runtime.queue = queue;
    // The gwa webhook runtime too, as `npm start` has it (the operator console shows both).
    const webhooks = { cipher: createTokenCipher(randomBytes(32)), publicUrl: () => url, environment: config.SVC_ENVIRONMENT };
    const keyMac = apiKeyMac(Buffer.from(tokenKey, 'base64'));
    const express = createApp({ orm, config, logger, adminToken: TEST_ADMIN_TOKEN, keyMac, ledger: runtime, webhooks });
    const server = await listen(express, 0, '127.0.0.1');
    const url = `http://127.0.0.1:${server.port}`;
    runtime.setPublicUrl(url);
    Object.assign(app, {
      url,
      orm,
      logs,
      config,
      server,
      sandbox,
      smtp,
      runtime,
      queue,
      tokenKey,
      clientSecret,
      ...httpClient(() => url),
    });
  });
  // A test that injects provider faults or answer hooks never leaks them into the next test, whether it passed or not.
  afterEach(() => {
    app.sandbox?.clearFaults();
    app.sandbox?.beforeAnswer(undefined);
  });
  afterAll(async () => {
    await app.queue?.stop();
    await app.server?.close(1000);
    await app.orm?.close(true);
    await app.sandbox?.close();
    await app.smtp?.close();
    app.runtime?.mailer.close();
    await drop();
  });
  return app;
}
