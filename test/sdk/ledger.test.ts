import { describe, expect, expectTypeOf, it } from 'vitest';
import { createClient } from '../../sdk/src/index.js';
import { caught } from './support/caught.js';
import { useLedgerApp } from '../support/ledger-app.js';
import { followConsent, ledgerTenant, uniqueEmail } from '../support/ledger-flow.js';
import { waitForRun } from '../support/wait-for-run.js';

/** The SDK's ledger namespace against the real app, a real SMTP server and the ledger sandbox. */
const app = useLedgerApp({ sandbox: { invoices: 4, items: 2 } });

describe('SDK ledger namespace against a running server', () => {
  it('when inviting, consenting, queueing and polling through the SDK, then each call is typed and succeeds', async () => {
    const tenant = await ledgerTenant(app);
    const svc = createClient({ baseUrl: app.url, apiKey: tenant.key });
    const email = uniqueEmail();

    const invited = await svc.ledger.createInvitation({ body: { recipientEmail: email, expiresInHours: 2 } });
    expect(invited.status).toBe(201);
    expectTypeOf(invited.body.invitation.connectUrl).toEqualTypeOf<string>();
    expect(invited.body).toMatchObject({ object: 'ledger.connection_invitation', invitation: { recipientEmail: email } });
    expect((await followConsent(invited.body.invitation.connectUrl)).status).toBe(200);
    const connectionId = [...app.sandbox.companies.keys()][0]!;

    const before = await svc.ledger.getSync({ params: { connectionId } });
    expect(before.body).toEqual({ object: 'ledger.sync_run', data: null });

    const queued = await svc.ledger.queueSync({ params: { connectionId }, body: { fullReconciliation: false } });
    expect(queued.status).toBe(202);
    expect(queued.body.data.created).toBe(true);
    const run = await waitForRun(async () => (await svc.ledger.getSync({ params: { connectionId } })).body.data!);
    expect(run).toMatchObject({ id: queued.body.data.syncRunId, state: 'succeeded' });

    const again = await svc.ledger.queueSync({ params: { connectionId } });
    expect(again.status).toBe(202);

    const cooldown = await caught(svc.ledger.createInvitation({ body: { recipientEmail: email } }));
    expect(cooldown).toMatchObject({ status: 429, attempts: 1 });
    expect(cooldown.requestId).toMatch(/^req_/);
  });

  it("when the connection is not in the key's scope, then SvcError 404 (not retried)", async () => {
    const svc = createClient({ baseUrl: app.url, apiKey: (await ledgerTenant(app)).key });
    const error = await caught(svc.ledger.getSync({ params: { connectionId: 'no-such-connection' } }));
    expect(error).toMatchObject({ status: 404, type: 'not_found', attempts: 1 });
    expect(await caught(svc.ledger.queueSync({ params: { connectionId: 'no-such-connection' }, body: {} }))).toMatchObject({ status: 404 });
  });
});
