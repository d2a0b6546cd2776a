import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { deleteEntity } from '../../../server/ledger-sandbox/company.js';
import { connect, insertRunRow, invoiceReader, waitForRun } from '../../support/ledger-flow.js';
import { bodyFor, preparationFlow, type PreparationEndpoint, type Reader } from '../../support/preparation-flow.js';

// Replays of a saved preparation after the source changed (spec endpoint 11, Idempotency: "an accepted identical retry
// reuses the saved preparation.id and snapshot while current source checks still pass; a changed source, link,
// connection, mapping revision or pending refresh can block replay"; docs/decisions.md, "Invoice-backed preparation").
const app = useLedgerApp({ sandbox: { invoices: 12, items: 6 } });
const { sql, post, invoiceOf, confirmMappings, savedPreparations } = preparationFlow(app);

const BLOCKED = 'The saved preparation no longer passes its checks';

/** A first preparation of a ready invoice on one endpoint, with the rows saved and the response as sent. */
async function preparedOnce(endpoint: PreparationEndpoint, ledgerInvoiceId: string) {
  const provider = endpoint === 'gwcPreparation' ? 'gwc' : endpoint;
  const reader = await invoiceReader(app, provider);
  if (provider === 'gwa') {
    const configured = await app.admin('connections.configure', { id: reader.connectionRowId, purchaseOrderField: 'Purchase Order' });
    expect(configured.status).toBe(200);
  }
  // Endpoint 12 is prepared unmapped (`ordinary`): a replay must keep the mode it was saved with.
  const invoice =
    endpoint === 'gwb' || endpoint === 'gwcPreparation'
      ? await invoiceOf(reader, ledgerInvoiceId)
      : await confirmMappings(reader, ledgerInvoiceId);
  const body = bodyFor(invoice);
  const first = await post(reader.key, endpoint, body);
  expect(first.status, first.text).toBe(200);
  const saved = await savedPreparations(reader.integrationId);
  expect(saved).toHaveLength(1);
  return { reader, invoice, body, first, saved };
}

/** The replay answers exactly what the first request answered, and the saved row is untouched and alone. */
async function expectOriginal(
  reader: Reader,
  endpoint: PreparationEndpoint,
  body: Record<string, unknown>,
  prepared: Awaited<ReturnType<typeof preparedOnce>>,
) {
  const replay = await post(reader.key, endpoint, body);
  expect(replay.status, replay.text).toBe(200);
  expect(replay.body).toEqual(prepared.first.body);
  expect(await savedPreparations(reader.integrationId)).toEqual(prepared.saved);
}

/** A blocked replay: 409 with exactly these issues, nothing saved, the saved row untouched. */
async function expectBlocked(
  prepared: Awaited<ReturnType<typeof preparedOnce>>,
  endpoint: PreparationEndpoint,
  issues: { code: string; path: string; category: string }[],
) {
  const replay = await post(prepared.reader.key, endpoint, prepared.body);
  expect(replay.status, replay.text).toBe(409);
  expect(replay.body).toEqual({
    error: { type: 'conflict', message: BLOCKED, issues: issues.map((i) => ({ ...i, message: expect.any(String) })) },
  });
  expect(await savedPreparations(prepared.reader.integrationId)).toEqual(prepared.saved);
}

describe('replaying a saved preparation after the source changed', () => {
  it('when the connection was disconnected, then the replay is 409 connection_disconnected and the saved preparation stays as it was', async () => {
    const prepared = await preparedOnce('gwb', '1002');
    const disconnected = await app.admin<{ status: string }>('connections.disconnect', { id: prepared.reader.connectionRowId });
    expect(disconnected.body).toMatchObject({ status: 'disconnected' });
    await expectBlocked(prepared, 'gwb', [{ code: 'connection_disconnected', path: 'source.connection', category: 'access' }]);
  });

  it('when a sync is queued, then the replay is 409 sync_in_progress; once the run ends the original answer comes back', async () => {
    const prepared = await preparedOnce('gwc', '1003');
    const run = await insertRunRow(app, prepared.reader.connectionRowId, 'queued');
    await expectBlocked(prepared, 'gwc', [{ code: 'sync_in_progress', path: 'source.sync', category: 'freshness' }]);
    expect((await app.admin('syncRuns.fail', { id: run.id })).status).toBe(200);
    await expectOriginal(prepared.reader, 'gwc', prepared.body, prepared);
  });

  it('when the link to the accounting source was removed, then the replay is 403; linked again, the original answer comes back', async () => {
    const prepared = await preparedOnce('gwa', '1005');
    const { reader } = prepared;
    expect((await app.admin('links.delete', { id: reader.linkId })).status).toBe(200);
    const replay = await post(reader.key, 'gwa', prepared.body);
    expect(replay.status, replay.text).toBe(403);
    expect(replay.body).toEqual({
      error: { type: 'permission_error', message: 'This integration is not linked to an accounting source', issues: [] },
    });
    expect(await savedPreparations(reader.integrationId)).toEqual(prepared.saved);

    // Linked to another accounting source only: the invoice is out of the key's sight, like any unlinked invoice.
    const other = await app.admin<{ id: string }>('integrations.create', {
      organizationId: reader.ledger.organizationId,
      provider: 'ledger',
      environment: 'sandbox',
    });
    const otherLink = await app.admin<{ id: string }>('links.create', {
      ledgerIntegrationId: other.body.id,
      providerIntegrationId: reader.integrationId,
    });
    expect(otherLink.status).toBe(200);
    const unseen = await post(reader.key, 'gwa', prepared.body);
    expect(unseen.status, unseen.text).toBe(404);
    expect(unseen.body).toEqual({ error: { type: 'not_found', message: 'No such invoice', issues: [] } });
    expect(await savedPreparations(reader.integrationId)).toEqual(prepared.saved);

    const relinked = await app.admin('links.create', {
      ledgerIntegrationId: reader.ledger.integrationId,
      providerIntegrationId: reader.integrationId,
    });
    expect(relinked.status).toBe(200);
    await expectOriginal(reader, 'gwa', prepared.body, prepared);
  });

  it('when the invoice was deleted at the source and synced, then the replay is 409 invoice_deleted_at_source', async () => {
    const prepared = await preparedOnce('gwb', '1012');
    const { reader } = prepared;
    const company = [...app.sandbox.companies.values()][0]!;
    const removed = company.Invoice.find((i) => i.Id === '1012')!;
    deleteEntity(company, 'Invoice', '1012');
    try {
      const queued = await app.request(`/api/v1/integrations/ledger/${reader.connectionId}/sync`, {
        method: 'POST',
        key: reader.ledger.key,
      });
      expect(queued.status).toBe(202);
      expect(await waitForRun(app, reader.ledger, reader.connectionId)).toMatchObject({ state: 'succeeded' });
      // The same snapshot, now marked deleted: the replay's source-state check alone refuses it.
      await expectBlocked(prepared, 'gwb', [{ code: 'invoice_deleted_at_source', path: 'source', category: 'source' }]);
    } finally {
      // Other tests of this file read the same sandbox company.
      company.Invoice.push(removed);
      company.deleted = company.deleted.filter((d) => d.Id !== '1012');
    }
  });

  it('when the same key comes with another body, then 409 idempotency_key_conflict whatever changed, and nothing is saved', async () => {
    const prepared = await preparedOnce('gwc', '1006');
    const { reader, invoice, body } = prepared;
    const another = await confirmMappings(reader, '1009');
    const conflict = {
      error: {
        type: 'conflict',
        message: 'The idempotency key was used for a different preparation request',
        issues: [
          {
            code: 'idempotency_key_conflict',
            path: 'idempotencyKey',
            message: 'This key already prepared another request; use a new key for a new request',
          },
        ],
      },
    };
    const variants: [PreparationEndpoint, Record<string, unknown>][] = [
      ['gwc', { ...body, amountMinor: body.amountMinor + 1 }],
      ['gwc', { ...body, currency: 'eur' }],
      ['gwc', { ...body, expectedRevision: invoice.revision }],
      ['gwc', { ...body, invoiceId: another.id, amountMinor: another.totalAmountMinor }],
      ['gwc', { ...body, invoiceId: undefined, ledgerInvoiceId: '1006' }],
      ['gwc', { ...body, invoiceId: undefined, invoiceNumber: invoice.invoiceNumber }],
      // The same body on endpoint 12 (same provider, same key space) is another request.
      ['gwcPreparation', body],
    ];
    for (const [endpoint, json] of variants) {
      const res = await post(reader.key, endpoint, json);
      expect(res.status, JSON.stringify(json)).toBe(409);
      expect(res.body).toEqual(conflict);
    }
    // The request conflict is answered before any state check: a stale source does not change it.
    await sql(`update ledger_connections set checked_through = now() - interval '5 hours' where id = ?`, [reader.connectionRowId]);
    expect((await post(reader.key, 'gwc', { ...body, amountMinor: 1 })).body).toEqual(conflict);
    expect(await savedPreparations(reader.integrationId)).toEqual(prepared.saved);
  });

  // Last: it revokes every refresh token of the sandbox.
  it('when the connection needs reauthorization, then the replay is 409 reauthorization_required; reauthorized, the original comes back', async () => {
    const prepared = await preparedOnce('gwcPreparation', '1010');
    const { reader } = prepared;
    expect(prepared.first.body.data.mode).toBe('ordinary');
    app.sandbox.tokens.expireAccessTokens();
    app.sandbox.tokens.revokeRefreshTokens();
    const queued = await app.request(`/api/v1/integrations/ledger/${reader.connectionId}/sync`, { method: 'POST', key: reader.ledger.key });
    expect(queued.status).toBe(202);
    expect(await waitForRun(app, reader.ledger, reader.connectionId)).toMatchObject({
      state: 'failed',
      error: { code: 'reauthorization_required' },
    });
    await expectBlocked(prepared, 'gwcPreparation', [{ code: 'reauthorization_required', path: 'source.connection', category: 'access' }]);

    // A new consent makes the same connection active again; its last checkpoint is still fresh.
    expect(await connect(app, reader.ledger)).toBe(reader.connectionId);
    await expectOriginal(reader, 'gwcPreparation', prepared.body, prepared);
  });
});
