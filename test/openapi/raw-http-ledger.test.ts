import createClient from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../support/ledger-app.js';
import { followConsent, ledgerTenant, uniqueEmail } from '../support/ledger-flow.js';
import type { paths } from './generated/openapi.js';

/**
 * The ledger endpoints over raw HTTP with types generated from openapi.json
 * alone (no import of the contract, server or SDK for the calls); the harness
 * starts the service, the ledger sandbox and SMTP, and issues the key.
 */
const app = useLedgerApp({ sandbox: { invoices: 3, items: 2 } });

describe('raw HTTP from openapi.json: ledger', () => {
  it('when inviting, consenting, queueing and reading the sync, then the typed bodies and a typed 404 come back', async () => {
    const tenant = await ledgerTenant(app);
    const api = createClient<paths>({ baseUrl: app.url, headers: { authorization: `Bearer ${tenant.key}` } });

    const invited = await api.POST('/api/v1/integrations/ledger/invitations', { body: { recipientEmail: uniqueEmail() } });
    expect(invited.response.status).toBe(201);
    expect((await followConsent(invited.data!.invitation.connectUrl)).status).toBe(200);
    const connectionId = [...app.sandbox.companies.keys()][0]!;

    const queued = await api.POST('/api/v1/integrations/ledger/{connectionId}/sync', {
      params: { path: { connectionId } },
      body: { fullReconciliation: false },
    });
    expect(queued.response.status).toBe(202);
    expect(queued.data!.data.created).toBe(true);

    const status = await api.GET('/api/v1/integrations/ledger/{connectionId}/sync', { params: { path: { connectionId } } });
    expect(status.data!.object).toBe('ledger.sync_run');
    expect(status.data!.data?.id).toBe(queued.data!.data.syncRunId);

    const missing = await api.GET('/api/v1/integrations/ledger/{connectionId}/sync', { params: { path: { connectionId: 'nope' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error!.error.type).toBe('not_found');
  });
});
