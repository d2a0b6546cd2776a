import { describe, expect, it } from 'vitest';
import { passesLuhn } from '../../../server/domain/guard/secrets-guard.js';
import { deliver, newKeys, sampleNotification } from '../../support/gwa-webhooks.js';
import { TEST_ADMIN_TOKEN } from '../../support/harness.js';
import { useLedgerApp } from '../../support/ledger-app.js';
import { connect, ledgerTenant, waitForRun } from '../../support/ledger-flow.js';
import { gwaReport, gwcReport } from '../../support/reports.js';
import { adminCall, createTenant, issueKey } from '../../support/tenants.js';
import { happyInvoice } from '../../unit/enrichment/support/invoices.js';

/*
 * Every log line written while representative flows run at LOG_LEVEL=trace is
 * scanned for every secret those flows handled: issued API keys, the admin
 * token, the accounting provider's OAuth tokens, gwa webhook private keys,
 * invitation secrets, the OAuth client secret and token key, and card-number-like
 * digit runs. None may appear.
 */

const app = useLedgerApp({ sandbox: { invoices: 4, items: 2 }, config: { LOG_LEVEL: 'trace' } });

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const REQUEST_ID = /req_[0-9a-f]{32}/g;
const CARD = '4111 1111 1111 1111';

/** Luhn-valid runs of 13-19 digits in a line, ignoring UUIDs and request ids (hex that may hold digit runs by chance). */
function cardLikeRuns(line: string): string[] {
  const text = line.replace(UUID, '').replace(REQUEST_ID, '');
  return [...text.matchAll(/(?<!\d)\d{13,19}(?!\d)/g)].map((m) => m[0]).filter(passesLuhn);
}

describe('log redaction at trace level', () => {
  it('when a line holds a card-like run, then the scan finds it (UUIDs and request ids aside)', () => {
    expect(cardLikeRuns('{"path":"/x/4111111111111111","id":"0a1b2c3d-1111-2222-3333-444455556666"}')).toEqual(['4111111111111111']);
    expect(cardLikeRuns('{"reqId":"req_41111111111111110000000000000000","n":4111111111111112}')).toEqual([]);
  });

  it('when keys, consent, sync, invoices, preparations, reports, webhooks and operator calls run, then no log line holds a secret', async () => {
    const secrets = new Map<string, string>();
    const keep = (label: string, value: string) => secrets.set(value, label);

    // OAuth tokens the accounting provider issues, recorded where they leave the fake provider.
    const issueTokens = app.sandbox.tokens.issueTokens.bind(app.sandbox.tokens);
    app.sandbox.tokens.issueTokens = (grant, previous) => {
      const tokens = issueTokens(grant, previous);
      keep('OAuth access token', tokens.access_token);
      keep('OAuth refresh token', tokens.refresh_token!);
      return tokens;
    };
    keep('admin token', TEST_ADMIN_TOKEN);
    keep('OAuth client secret', app.clientSecret);
    keep('token key', app.tokenKey);

    // Consent: invitation, connect URL with its secret, provider consent, token exchange; then a sync that refreshes the expired token.
    const ledger = await ledgerTenant(app);
    keep('ledger API key', ledger.key);
    const invitation = await app.request('/api/v1/integrations/ledger/invitations', {
      method: 'POST',
      key: ledger.key,
      json: { recipientEmail: 'unused@example.test' },
    });
    expect(invitation.status).toBe(201);
    keep('invitation secret', invitation.body.invitation.connectUrl.split('/').at(-1));
    const connectionId = await connect(app, ledger);
    const invitations = await adminCall<{ id: string }[]>(app, 'invitations.list', { integrationId: ledger.integrationId });
    expect(invitations.length).toBe(2);
    // The provider ends the access token while the service still holds it as valid for an hour, so the sync's first
    // call gets a 401 and the service sends its refresh token: the refresh path runs under the scan, exactly once.
    const refreshes = () => app.sandbox.tokenRequests.filter((r) => r.grantType === 'refresh_token' && r.status === 200).length;
    const refreshesBefore = refreshes();
    app.sandbox.tokens.expireAccessTokens();
    expect(
      (await app.request(`/api/v1/integrations/ledger/${connectionId}/sync`, { method: 'POST', key: ledger.key, json: {} })).status,
    ).toBe(202);
    expect(await waitForRun(app, ledger, connectionId)).toMatchObject({ state: 'succeeded' });
    expect(refreshes()).toBe(refreshesBefore + 1);

    // Invoices and an invoice-backed preparation with a linked gwc key.
    const gwc = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'], organizationId: ledger.organizationId });
    await adminCall(app, 'links.create', { ledgerIntegrationId: ledger.integrationId, providerIntegrationId: gwc.integrationId });
    const reader = await issueKey(app, gwc.integrationId, ['invoices:read', 'enrichment:write', 'payments:write']);
    keep('gwc API key', gwc.key);
    keep('gwc reader API key', reader.key);
    const list = await app.request('/api/v1/invoices', { key: reader.key });
    expect(list.status).toBe(200);
    const invoice = list.body.data.invoices[0];
    expect((await app.request(`/api/v1/invoices/${invoice.id}`, { key: reader.key })).status).toBe(200);
    const prepared = await app.request('/api/v1/gwc/payment-preparations/from-invoice', {
      method: 'POST',
      key: reader.key,
      json: { invoiceId: invoice.id, amountMinor: invoice.totalAmountMinor, currency: invoice.currency, idempotencyKey: 'log-sweep-1' },
    });
    expect([200, 409]).toContain(prepared.status);
    const enrichmentRequestId = prepared.body?.preparation?.id;
    const report = gwcReport(enrichmentRequestId ? { enrichmentRequestId } : {});
    expect((await app.request('/api/v1/gwc/payment-reports', { method: 'POST', key: reader.key, json: report })).status).toBe(200);

    // Card data and a forged key are refused; neither may be echoed into the log.
    const refused = await app.request('/api/v1/gwc/payment-reports', {
      method: 'POST',
      key: gwc.key,
      json: gwcReport({ invoiceReference: CARD }),
    });
    expect(refused.status).toBe(400);
    const forged = gwc.key.replace(/_[0-9a-f]{64}$/, `_${'c'.repeat(64)}`);
    keep('forged API key', forged);
    expect((await app.request('/api/v1/gwc/payment-reports', { method: 'POST', key: forged, json: gwcReport() })).status).toBe(401);

    // gwa: inline enrichment, a report, a webhook endpoint with its key pair, a signed delivery and a key rotation.
    const gwa = await createTenant(app, { provider: 'gwa', scopes: ['payments:write', 'enrichment:write'] });
    keep('gwa API key', gwa.key);
    expect(
      (await app.request('/api/v1/gwa/transaction-enrichment', { method: 'POST', key: gwa.key, json: { invoice: happyInvoice() } })).status,
    ).toBe(200);
    const transactionId = 'txnlogsweep1';
    const authorized = gwaReport({ status: 'authorized', amountMinor: 10000, capturedAmountMinor: 0, transactionId });
    expect((await app.request('/api/v1/gwa/payment-reports', { method: 'POST', key: gwa.key, json: authorized })).status).toBe(200);
    const keys = newKeys();
    keep('webhook private key', keys.privateKey);
    const endpoint = await adminCall<{ id: string }>(app, 'webhookEndpoints.create', { integrationId: gwa.integrationId, ...keys });
    const delivery = sampleNotification(keys, 'transaction_settled', transactionId);
    keep('webhook signature', delivery.gwa_signature.split('|')[1]!);
    expect((await deliver(app, `/api/integrations/gwa/webhooks/${endpoint.id}`, delivery)).status).toBe(200);
    const rotated = newKeys();
    keep('rotated webhook private key', rotated.privateKey);
    await adminCall(app, 'webhookEndpoints.setCredentials', { id: endpoint.id, ...rotated });

    // A failing operator call (logged with its error) and a disconnect that revokes the tokens at the provider.
    expect((await app.admin('syncRuns.get', { id: crypto.randomUUID() })).status).toBe(404);
    const [connection] = await adminCall<{ id: string }[]>(app, 'connections.list', { integrationId: ledger.integrationId });
    await adminCall(app, 'connections.disconnect', { id: connection!.id });

    expect([...secrets.values()].filter((label) => label.startsWith('OAuth access')).length).toBeGreaterThanOrEqual(2);
    expect(app.logs.lines.length).toBeGreaterThan(25);
    expect(secrets.size).toBeGreaterThanOrEqual(14);
    const leaks = app.logs.lines.flatMap((line, index) => [
      ...[...secrets.entries()].filter(([value]) => line.includes(value)).map(([, label]) => `line ${index}: ${label}`),
      ...cardLikeRuns(line).map((run) => `line ${index}: card-like digits ${run}`),
      ...(line.replace(/[\s.-]/g, '').includes(CARD.replace(/ /g, '')) ? [`line ${index}: the refused card number`] : []),
    ]);
    expect(leaks).toEqual([]);
  });
});
