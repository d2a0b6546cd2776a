/**
 * The operator console in a real browser (the Chromium `npm ci` brings, or CHROMIUM_PATH's,
 * through playwright-core; test/support/chromium.ts) against the service, a real PostgreSQL
 * and the ledger sandbox: the walkthrough an operator does without the CLI. Screenshots of
 * each view go to test-artifacts/console/.
 */
import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TEST_ADMIN_TOKEN } from '../support/harness.js';
import { useLedgerApp } from '../support/ledger-app.js';
import { gwcReport } from '../support/reports.js';
import { deliver, newKeys, sampleNotification } from '../support/gwa-webhooks.js';

const ARTIFACTS = 'test-artifacts/console';
const launch = inject('browser');

const app = useLedgerApp({ sandbox: { invoices: 12, items: 6 } });
let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  // Playwright's own arguments only (it adds --no-sandbox, which root needs): the package's
  // recommended set is for AWS Lambda (--single-process, and a --disable-features that would
  // replace Playwright's).
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  browser = await chromium.launch({ executablePath: launch.executablePath, env: { ...env, ...launch.env } }).catch((err: Error) => {
    throw new Error(`${launch.describe} did not start: ${err.message}`);
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', timezoneId: 'Europe/Berlin' });
  page = await context.newPage();
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('request', (req) => {
    if (req.url().includes(TEST_ADMIN_TOKEN)) problems.push(`token in a URL: ${req.method()} ${req.url()}`);
  });
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(`CSP: ${m.text()}`);
  });
});

afterAll(async () => {
  await browser?.close();
});

const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}/${name}.png`, fullPage: true });
const view = async (title: string) => {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: title }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
};
const choose = (label: string, optionText: RegExp) =>
  page
    .getByLabel(label, { exact: true })
    .locator('option', { hasText: optionText })
    .first()
    .getAttribute('value')
    .then((value) => page.getByLabel(label, { exact: true }).selectOption(value!));
async function issueKey(scopes: string[]): Promise<string> {
  for (const scope of scopes) await page.getByRole('checkbox', { name: scope }).check();
  await page.getByRole('button', { name: 'Issue key' }).click();
  const key = (await page.getByTestId('issued-key').innerText()).trim();
  await page.getByRole('button', { name: 'Done, hide it' }).click();
  for (const scope of scopes) await page.getByRole('checkbox', { name: scope }).uncheck();
  return key;
}

describe('operator console (browser)', () => {
  it('is served with a strict CSP and cacheable hashed bundles, and nothing else under /admin/assets', async () => {
    const res = await fetch(`${app.url}/admin/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    expect(html).not.toMatch(/<script>|<style|style=/);
    const script = /src="(\/admin\/assets\/console-[A-Z0-9]+\.js)"/.exec(html)![1]!;
    const asset = await fetch(`${app.url}${script}`);
    expect([asset.status, asset.headers.get('cache-control'), asset.headers.get('content-type')]).toEqual([
      200,
      'public, max-age=31536000, immutable',
      'text/javascript; charset=utf-8',
    ]);
    expect((await fetch(`${app.url}/admin/assets/console-NOPE.js`)).status).toBe(404);
    expect((await fetch(`${app.url}/admin`, { redirect: 'manual' })).headers.get('location')).toBe('/admin/');
  });

  it('walks from sign-in to a ready invoice and a correlation exception', { timeout: 90_000 }, async () => {
    // Sign in: a wrong token is refused and not kept; the right one is kept in sessionStorage only.
    await page.goto(`${app.url}/admin/`);
    await page.getByLabel('Admin token').fill('not-the-admin-token-0000000000000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The admin token was refused');
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    await shot('01-sign-in-refused');
    await page.getByLabel('Admin token').fill(TEST_ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Organizations' }).waitFor();
    expect(await page.evaluate("sessionStorage.getItem('svc.adminToken')")).toBe(TEST_ADMIN_TOKEN);

    // Organization, ledger and gwc integrations, and the link between them.
    await page.getByLabel('Name', { exact: true }).fill('Acme Browser Ltd');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('cell', { name: 'Acme Browser Ltd', exact: true }).waitFor();
    await shot('02-organizations');
    await view('Integrations and links');
    await page.getByRole('button', { name: 'Create integration' }).click(); // ledger, sandbox
    await page.getByRole('cell', { name: 'ledger', exact: true }).waitFor();
    await page.getByLabel('Provider', { exact: true }).selectOption('gwc');
    await page.getByRole('button', { name: 'Create integration' }).click();
    await page.getByRole('cell', { name: 'gwc', exact: true }).waitFor();
    await choose('Ledger integration', /^ledger/);
    await choose('Provider integration', /^gwc/);
    await page.getByRole('button', { name: 'Link', exact: true }).click();
    await page.getByRole('button', { name: 'Unlink' }).waitFor();
    await shot('03-integrations-and-links');

    // Keys: one that may invite, one for the gwc backend; a third is revoked after confirmation.
    await view('API keys');
    await choose('Integration', /^ledger/);
    await issueKey(['integrations:write', 'integrations:read']);
    const spare = await issueKey(['integrations:read']);
    await page.getByRole('button', { name: 'Revoke', exact: true }).nth(1).click();
    await page.getByRole('button', { name: 'Yes, revoke' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Revoke', exact: true }).count()).toBe(1);
    await shot('04-api-keys');
    expect((await app.request('/api/v1/invoices', { key: spare })).status).toBe(401);
    await choose('Integration', /^gwc/);
    const gwcKey = await issueKey(['invoices:read', 'enrichment:write', 'payments:write']);

    // Invite on behalf of the ledger key, approve in the sandbox (auto-approve), then queue a sync.
    await view('Connections and invitations');
    await choose('Integration', /^ledger/);
    await choose('On behalf of key', /^(?!Choose)./);
    await page.getByLabel('Administrator email').fill('books@acme.example');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    const connectUrl = (await page.getByTestId('connect-url').getAttribute('href'))!;
    expect(app.smtp.messages.some((m: { raw: string }) => m.raw.includes('books@acme.example'))).toBe(true);
    const consent = await page.context().newPage();
    await consent.goto(connectUrl);
    await consent.getByRole('heading', { name: 'Connected' }).waitFor();
    await consent.close();
    await page.getByRole('button', { name: 'Refresh connections' }).click();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.getByText(/Sync queued for/).waitFor();
    await shot('05-connections-and-invitations');

    // The run list refreshes itself until the run is done.
    await view('Sync runs');
    await page.getByTestId('run-state').filter({ hasText: 'succeeded' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: /Details of run/ }).click();
    await page.getByTestId('detail-state').filter({ hasText: 'succeeded' }).waitFor();
    await page.getByRole('rowheader', { name: 'Invoice', exact: true }).waitFor();
    await shot('06-sync-run');

    // Invoice INV-000001 is not ready for gwc until its items are mapped; confirm them from its mapping issues.
    await view('Invoices');
    await choose('Connection', /active/);
    await page.getByLabel('Provider', { exact: true }).selectOption('gwc');
    await page.getByRole('button', { name: 'Details of invoice INV-000001' }).click();
    const detail = page.getByRole('region', { name: 'Invoice detail' });
    await expect.poll(() => detail.getByTestId('invoice-ready').textContent()).toBe('not ready');
    await detail.getByRole('heading', { name: /^mapping/i }).waitFor();
    await shot('07-invoice-not-ready');
    const forms = detail.getByRole('form', { name: /Confirm mapping of item/ });
    // A value the strictest provider refuses: the tRPC error names the field, and nothing changes.
    await forms.first().getByLabel('Product code').fill('P 1 ');
    await forms.first().getByLabel('Unit of measure').fill('Stück');
    await forms.first().getByLabel('Evidence').fill('Price list 2026');
    await forms.first().getByLabel('Approved by').fill('ops@acme.example');
    await forms.first().getByRole('button', { name: 'Confirm mapping' }).click();
    const refusal = forms.first().getByRole('alert');
    await expect.poll(() => refusal.textContent()).toMatch(/^Invalid input \(BAD_REQUEST\)/);
    expect(await refusal.locator('li code').allTextContents()).toEqual(['productCode', 'unitOfMeasure']);
    await shot('07b-invalid-mapping');
    while ((await forms.count()) > 0) {
      const form = forms.first();
      const item = (await form.getAttribute('aria-label'))!.replace('Confirm mapping of item ', '');
      await form.getByLabel('Product code').fill(`P-${item}`);
      await form.getByLabel('Unit of measure').fill('EA');
      await form.getByLabel('Evidence').fill('Price list 2026');
      await form.getByLabel('Approved by').fill('ops@acme.example');
      await form.getByRole('button', { name: 'Confirm mapping' }).click();
      await detail.getByRole('form', { name: `Confirm mapping of item ${item}` }).waitFor({ state: 'detached' });
    }
    await expect.poll(() => detail.getByTestId('invoice-ready').textContent()).toBe('ready');
    await detail.getByRole('heading', { name: 'Confirmed mappings used' }).scrollIntoViewIfNeeded();
    await shot('08-invoice-ready');
    // Its qualification: mapped without commodity codes, gwc sends enhanced data short of Product 3, and says where to fix it.
    const qualification = detail.getByRole('region', { name: 'Qualification' });
    await expect.poll(() => qualification.locator('[data-provider="gwc"] .badge').textContent()).toBe('partial');
    expect(await qualification.locator('[data-provider="gwc"] li').first().textContent()).toMatch(
      /^Fix ItemMapping \S+ · commodityCode — missing commodity_code \(not_in_source\)/,
    );
    await qualification.scrollIntoViewIfNeeded();
    await shot('08b-invoice-qualification');

    // A gwc backend prepares the payment from that invoice and reports a different amount: a correlation exception.
    const invoiceId = (await app.admin<any>('invoices.list', { provider: 'gwc', ready: true })).body.invoices[0].id as string;
    const total = (await app.admin<any>('invoices.get', { id: invoiceId })).body.totalAmountMinor as number;
    const prepared = await app.request('/api/v1/gwc/payment-intent-enrichment/from-invoice', {
      method: 'POST',
      key: gwcKey,
      json: { invoiceId, amountMinor: total, currency: 'usd', idempotencyKey: 'console-walkthrough-a' },
    });
    expect(prepared.status).toBe(200);
    const reported = await app.request('/api/v1/gwc/payment-reports', {
      method: 'POST',
      key: gwcKey,
      json: gwcReport({ enrichmentRequestId: prepared.body.preparation.id, amountMinor: total + 100, capturedAmountMinor: total + 100 }),
    });
    expect(reported.status).toBe(200);
    await view('Payments');
    await page.getByRole('button', { name: /Details of payment/ }).click();
    await page.getByRole('heading', { name: 'Observation history' }).waitFor();
    await shot('09-payments');
    await view('Correlation exceptions');
    await page.getByRole('cell', { name: 'amount_mismatch', exact: true }).waitFor();
    expect(await page.getByRole('cell', { name: `${total} minor units`, exact: true }).count()).toBe(1);
    await shot('10-correlation-exceptions');

    // Evidence: that preparation is an exception this month, drawn as a bar segment; its chain names the mismatch; the CSV downloads.
    await view('Evidence');
    // The selection still names the ledger integration; the preparation belongs to the gwc one.
    await page.getByLabel('Integration', { exact: true }).selectOption('');
    await page.getByRole('img', { name: /per month by evidence state/ }).waitFor();
    expect(await page.locator('svg rect[data-state]').evaluateAll((rects) => rects.map((r) => r.getAttribute('data-state')))).toEqual([
      'exception',
    ]);
    await page.getByLabel('State', { exact: true }).selectOption('exception');
    await page.getByRole('button', { name: /Chain of preparation/ }).click();
    await page
      .getByRole('region', { name: 'Evidence chain' })
      .getByText(/amount_mismatch: expected/)
      .waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^evidence-\d{4}-\d{2}-01-\d{4}-\d{2}-01\.csv$/);
    await shot('10b-evidence');
    // Beside it, the month's preparations by the level each recorded, and the fix that holds that volume back.
    await page.getByRole('img', { name: 'Preparations per month by qualification level' }).waitFor();
    expect(await page.locator('svg rect[data-level]').evaluateAll((rects) => rects.map((r) => r.getAttribute('data-level')))).toEqual([
      'partial',
    ]);
    const fixes = page.getByRole('region', { name: 'Fixes at the source' });
    expect(await fixes.getByRole('rowheader').first().textContent()).toMatch(/^ItemMapping \S+ · commodityCode$/);
    await fixes.scrollIntoViewIfNeeded();
    await shot('10c-qualification');
    // The preparations behind a level's figures: the list filtered by the level each recorded (the one here is partial).
    const noneListed = page.getByText('No preparations match these filters.');
    await page.getByLabel('Qualification level', { exact: true }).selectOption('product_3');
    await noneListed.waitFor();
    await page.getByLabel('Qualification level', { exact: true }).selectOption('partial');
    await page.getByRole('button', { name: /Chain of preparation/ }).waitFor();
    expect(await noneListed.count()).toBe(0);
    await page.getByLabel('Qualification level', { exact: true }).selectOption('');

    // Pause and resume ask first; the list follows.
    await view('Connections and invitations');
    const status = page.getByRole('region', { name: 'Connections' }).locator('.badge');
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await status.textContent()).toBe('active');
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, pause' }).click();
    await expect.poll(() => status.textContent()).toBe('paused');
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, resume' }).click();
    await expect.poll(() => status.textContent()).toBe('active');

    // A gwa integration's webhook endpoint, and a signed delivery seen among the events.
    await view('Integrations and links');
    await page.getByLabel('Provider', { exact: true }).selectOption('gwa');
    await page.getByRole('button', { name: 'Create integration' }).click();
    await page.getByRole('cell', { name: 'gwa', exact: true }).waitFor();
    await view('Webhooks');
    await choose('Integration', /^gwa/);
    const keys = newKeys();
    await page.getByLabel('gwa public key').fill(keys.publicKey);
    await page.getByLabel('gwa private key').fill(keys.privateKey);
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    const url = (await page.getByTestId('endpoint-url').first().textContent())!;
    expect(url).toMatch(new RegExp(`^${app.url}/api/integrations/gwa/webhooks/[0-9a-f-]{36}$`));
    const delivered = await deliver(app, new URL(url).pathname, sampleNotification(keys, 'transaction_settled', 'tconsole01'));
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
    await page.getByRole('button', { name: 'Show events' }).click();
    await page.getByRole('cell', { name: 'transaction_settled', exact: true }).waitFor();
    const next = newKeys();
    await page.getByRole('button', { name: 'Rotate keys' }).click();
    await page.getByLabel('New public key').fill(next.publicKey);
    await page.getByLabel('New private key').fill(next.privateKey);
    await page.getByRole('button', { name: 'Save key pair' }).click();
    await page.locator('code', { hasText: next.publicKey }).waitFor();
    await page.getByText('previous').locator('code', { hasText: keys.publicKey }).waitFor();
    await shot('11-webhooks');

    // Keyboard: the views are reachable by Tab and Enter, and focus lands on the heading.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Organizations' }).focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Integrations and links' }).waitFor();
    await expect.poll(() => page.evaluate('document.activeElement?.tagName')).toBe('H1');

    // Sign out forgets the token; it never reached a cookie or localStorage.
    expect(await page.evaluate('[document.cookie, localStorage.length]')).toEqual(['', 0]);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token').waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    expect(problems).toEqual([]);
  });
});
