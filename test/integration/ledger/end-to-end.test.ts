import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../../server/config.js';
import { startService, type RunningService } from '../../../server/service.js';
import { createTestDatabase } from '../../support/database.js';
import { LogCapture, TEST_ADMIN_TOKEN } from '../../support/harness.js';
import { approveOnSandboxPage, connectUrlFromMail, waitForRun } from '../../support/ledger-flow.js';
import { scratchDir } from '../../support/scratch.js';

let service: RunningService;
let dataDir: string;
let drop: () => Promise<void>;
const logs = new LogCapture();

beforeAll(async () => {
  const db = await createTestDatabase();
  drop = db.drop;
  dataDir = scratchDir('svc-e2e-');
  // No LEDGER_* and no SMTP: the embedded default (in-process sandbox, outbox folder, generated token key).
  const config = ConfigSchema.parse({
    DATABASE_URL: db.url,
    PORT: '0',
    HOST: '127.0.0.1',
    SVC_DATA_DIR: dataDir,
    SVC_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    LOG_LEVEL: 'info',
  });
  service = await startService(config, { quiet: true, logDestination: logs });
});
afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  await drop();
});

const admin = async (procedure: string, input: unknown, query = false) => {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
  const res = query
    ? await fetch(`${service.url}/admin/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers })
    : await fetch(`${service.url}/admin/trpc/${procedure}`, { method: 'POST', headers, body: JSON.stringify(input) });
  return ((await res.json()) as any).result.data;
};

describe('accounting source end to end on the embedded default', () => {
  it('when an operator invites, the recipient approves on the sandbox page and a sync is queued, then it completes with entity counts', async () => {
    const org = await admin('organizations.create', { name: 'Acme' });
    const integration = await admin('integrations.create', { organizationId: org.id, provider: 'ledger', environment: 'sandbox' });
    const { key } = await admin('apiKeys.issue', { integrationId: integration.id, scopes: ['integrations:write', 'integrations:read'] });
    const auth = { authorization: `Bearer ${key}` };

    const invited = await fetch(`${service.url}/api/v1/integrations/ledger/invitations`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ recipientEmail: 'books@acme.test' }),
    });
    expect(invited.status).toBe(201);
    const { invitation } = (await invited.json()) as any;
    const [eml] = readdirSync(path.join(dataDir, 'outbox'));
    expect(connectUrlFromMail(readFileSync(path.join(dataDir, 'outbox', eml!), 'utf8'))).toBe(invitation.connectUrl);
    expect(readFileSync(path.join(dataDir, 'token-key'), 'utf8').trim()).toMatch(/^[A-Za-z0-9+/]{43}=$/);

    // The recipient opens the link, sees the sandbox consent page and presses Approve.
    const { html, callback } = await approveOnSandboxPage(invitation.connectUrl);
    expect(html).toContain('Approve');
    expect(callback.status).toBe(200);

    const [connection] = await admin('connections.list', {}, true);
    const syncUrl = `${service.url}/api/v1/integrations/ledger/${connection.connectionId}/sync`;
    expect((await fetch(syncUrl, { method: 'POST', headers: auth })).status).toBe(202);
    const run = await waitForRun(async () => ((await (await fetch(syncUrl, { headers: auth })).json()) as any).data);
    expect(run).toMatchObject({ state: 'succeeded', mode: 'historical', progress: { entitiesDone: 3, entitiesTotal: 3 } });
    expect(run.entities.Preferences.created).toBe(1);
    expect(run.entities.Item.created).toBe(12);
    // 24 generated invoices and one per mapping rule (server/ledger-sandbox/demo-company.ts).
    expect(run.entities.Invoice.created).toBe(32);
    expect(logs.lines.length).toBeGreaterThan(5);
    expect(logs.text).not.toContain(invitation.connectUrl.split('/').at(-1));
  });
});
