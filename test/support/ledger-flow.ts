import { expect } from 'vitest';
import type { LedgerTestApp } from './ledger-app.js';
import { mailText } from './smtp.js';
import { createTenant, type Tenant } from './tenants.js';
import { emptyProgress, SYNC_ENTITIES } from '../../server/domain/ledger/sync-rules.js';
import { waitForRun } from './wait-for-run.js';

/** What the flows need of a running service: the in-process harness app or a spawned service with its sandbox. */
export type LedgerFlowApp = Pick<LedgerTestApp, 'request' | 'admin' | 'sandbox'>;

export const ledgerTenant = (app: LedgerFlowApp) =>
  createTenant(app, { provider: 'ledger', scopes: ['integrations:write', 'integrations:read'] });

let n = 0;
export const uniqueEmail = () => `admin${++n}-${Math.random().toString(36).slice(2, 10).replace(/[0-9]/g, 'x')}@example.test`;

/** POST an invitation and return the response. */
export const invite = (app: Pick<LedgerFlowApp, 'request'>, tenant: Tenant, json: Record<string, unknown>) =>
  app.request('/api/v1/integrations/ledger/invitations', { method: 'POST', key: tenant.key, json });

/** Invitation → email → connect URL → sandbox consent (auto-approve) → callback; returns the connection id. */
export async function connect(app: LedgerFlowApp, tenant: Tenant): Promise<string> {
  const res = await invite(app, tenant, { recipientEmail: uniqueEmail() });
  expect(res.status).toBe(201);
  const done = await followConsent(res.body.invitation.connectUrl);
  expect(done.status).toBe(200);
  return [...app.sandbox.companies.keys()][0]!;
}

/** Follow the redirects of the consent flow by hand; the last response (the service's page), or stop before a path (`stopAt`). */
export async function followConsent(
  connectUrl: string,
  options: { stopAt?: string } = {},
): Promise<{ status: number; text: string; hops: string[] }> {
  const hops: string[] = [];
  let url = connectUrl;
  for (let i = 0; i < 5; i++) {
    if (options.stopAt && new URL(url).pathname === options.stopAt) return { status: 0, text: '', hops };
    const res = await fetch(url, { redirect: 'manual' });
    if (res.status !== 302) return { status: res.status, text: await res.text(), hops };
    url = new URL(res.headers.get('location')!, url).toString();
    hops.push(url);
  }
  throw new Error('too many redirects');
}

/**
 * The recipient opens the invitation link, sees the sandbox's consent page (no
 * auto-approve, as in the embedded default) and presses Approve; the service's callback page.
 */
export async function approveOnSandboxPage(connectUrl: string): Promise<{ html: string; callback: Response }> {
  const toProvider = await fetch(connectUrl, { redirect: 'manual' });
  const consent = await fetch(toProvider.headers.get('location')!);
  const html = await consent.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!.replace(/&#38;/g, '&');
  const approved = await fetch(new URL('/connect/oauth2/approve', consent.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      redirect_uri: field('redirect_uri'),
      state: field('state'),
      realmId: field('realmId'),
      decision: 'approve',
    }).toString(),
  });
  return { html, callback: await fetch(approved.headers.get('location')!) };
}

export const connectUrlFromMail = (raw: string) => /https?:\/\/\S+\/ledger\/connect\/[A-Za-z0-9_-]{43}/.exec(mailText(raw))?.[0];

export { waitForRun };

/**
 * A run row as queueSync writes it, without sending its job (a crash between the
 * commit and the send, or a job lost later); tenant columns come from the connection.
 */
export async function insertRunRow(
  app: LedgerTestApp,
  connId: string,
  state: 'queued' | 'running',
  workflowRunId: string = crypto.randomUUID(),
) {
  const id = crypto.randomUUID();
  const entities = JSON.stringify(Object.fromEntries(SYNC_ENTITIES.map((e) => [e, emptyProgress()])));
  await app.orm.em.getConnection().execute(
    `insert into ledger_sync_runs (id, organization_id, integration_id, environment, connection_id, workflow_run_id, state, mode, full_reconciliation,
       period_start, period_end, entities, attempts, created_at, started_at)
     select ?, c.organization_id, c.integration_id, c.environment, c.id, ?, ?, 'historical', false, now() - interval '30 days', now(), ?::jsonb, ?, now(), ?
       from ledger_connections c where c.id = ?`,
    [id, workflowRunId, state, entities, state === 'running' ? 1 : 0, state === 'running' ? new Date() : null, connId],
  );
  return { id, workflowRunId };
}

/**
 * A synced accounting source and a payment-provider key that may read its
 * invoices: ledger integration connected to the sandbox company and synced, a
 * `provider` integration of the same organization linked to it, and a key with
 * `invoices:read` and `enrichment:write`.
 */
export async function invoiceReader(app: LedgerFlowApp, provider: 'gwa' | 'gwb' | 'gwc') {
  const ledger = await ledgerTenant(app);
  const connectionId = await connect(app, ledger);
  const res = await app.request(`/api/v1/integrations/ledger/${connectionId}/sync`, { method: 'POST', key: ledger.key });
  expect(res.status).toBe(202);
  expect(await waitForRun(app, ledger, connectionId)).toMatchObject({ state: 'succeeded' });
  const [connection] = (await app.admin<{ id: string }[]>('connections.list', { integrationId: ledger.integrationId })).body;
  return { ledger, connectionId, connectionRowId: connection!.id, ...(await linkedProvider(app, ledger, provider)) };
}

/** Another payment-provider integration of the ledger tenant's organization, linked to its ledger integration, with a reading key. */
export async function linkedProvider(app: LedgerFlowApp, ledger: Tenant, provider: 'gwa' | 'gwb' | 'gwc') {
  const integration = (
    await app.admin<{ id: string }>('integrations.create', { organizationId: ledger.organizationId, provider, environment: 'sandbox' })
  ).body;
  const link = (
    await app.admin<{ id: string }>('links.create', { ledgerIntegrationId: ledger.integrationId, providerIntegrationId: integration.id })
  ).body;
  const key = (
    await app.admin<{ key: string }>('apiKeys.issue', { integrationId: integration.id, scopes: ['invoices:read', 'enrichment:write'] })
  ).body.key;
  return { integrationId: integration.id, linkId: link.id, key };
}
