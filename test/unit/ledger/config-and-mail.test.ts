import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ledgerSettings, loadConfig } from '../../../server/config.js';
import { createMailer } from '../../../server/integrations/mail/mailer.js';
import { loadCompanyFile } from '../../../server/ledger-sandbox/company.js';

describe('ledger configuration', () => {
  it('when nothing is set, then the embedded sandbox and the documented defaults apply', () => {
    expect(ledgerSettings(loadConfig({}))).toEqual({
      publicUrl: 'http://localhost:3000',
      embeddedSandbox: true,
      sandboxPort: 0,
      smtpFrom: 'svc <no-reply@localhost>',
      historyDays: 365,
      reconcileAfterDays: 30,
      pageSize: 500,
      httpTimeoutMs: 30_000,
      maxRetries: 5,
      backoffBaseMs: 1_000,
      backoffMaxMs: 60_000,
      jobRetryDelaySeconds: 30,
      jobPollMs: 500,
      reapIntervalMs: 30_000,
      leaseGraceMs: 60_000,
      worker: 'in-process',
      invitationsPerKeyPerHour: 20,
    });
  });

  it('when only part of the provider settings is set, or values are bad, then each variable is named (never its value)', () => {
    let error: unknown;
    try {
      loadConfig({
        LEDGER_BASE_URL: 'https://api.example.test',
        LEDGER_CLIENT_SECRET: 'shh-secret',
        LEDGER_PAGE_SIZE: '5000',
        LEDGER_JOB_POLL_MS: '100',
        SVC_TOKEN_KEY: 'short',
        SMTP_URL: 'http://mail',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        'SVC_TOKEN_KEY: must be 32 bytes in base64',
        'SMTP_URL: must be an smtp:// or smtps:// URL',
        'LEDGER_PAGE_SIZE: must be at most 1000',
        'LEDGER_JOB_POLL_MS: must be at least 500',
      ]),
    );
    expect(problems.join('\n')).not.toContain('shh-secret');
  });

  it('when provider settings are complete, then no sandbox is embedded', () => {
    const c = loadConfig({
      LEDGER_BASE_URL: 'https://a.test',
      LEDGER_AUTH_URL: 'https://a.test/auth',
      LEDGER_TOKEN_URL: 'https://a.test/token',
      LEDGER_CLIENT_ID: 'id',
      LEDGER_CLIENT_SECRET: 's',
      SVC_PUBLIC_URL: 'https://svc.test/',
    });
    expect(ledgerSettings(c)).toMatchObject({ embeddedSandbox: false, publicUrl: 'https://svc.test' });
  });
});

describe('outbox mailer and fixtures', () => {
  it('when no SMTP is configured, then each message is written as an .eml file a person can open', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-outbox-'));
    try {
      const mailer = createMailer({ smtpUrl: undefined, from: 'svc <no-reply@localhost>', outboxDir: path.join(dir, 'outbox') });
      await mailer.send({ to: 'books@acme.test', subject: 'Connect', text: 'Open https://svc.test/ledger/connect/abc', html: '<p>x</p>' });
      const files = readdirSync(path.join(dir, 'outbox'));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/books@acme\.test\.eml$/);
      const raw = readFileSync(path.join(dir, 'outbox', files[0]!), 'utf8');
      expect(raw).toContain('To: books@acme.test');
      expect(raw).toContain('Subject: Connect');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when the committed fixture is loaded, then it is a company in the provider shapes', () => {
    const company = loadCompanyFile(new URL('../../../server/ledger-sandbox/fixtures/small-company.json', import.meta.url).pathname);
    expect(company).toMatchObject({ realmId: '9130350000000001', companyName: 'Small Fixture Co', deleted: [] });
    expect(company.Invoice).toHaveLength(4);
    expect(company.Invoice[0]).toMatchObject({
      Id: '1001',
      SyncToken: '0',
      Line: expect.any(Array),
      TotalAmt: expect.any(Number),
      MetaData: { LastUpdatedTime: expect.any(String) },
    });
    expect(company.Preferences).toMatchObject({ CurrencyPrefs: { HomeCurrency: { value: 'USD' } } });
  });
});
