import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader } from '../../support/ledger-flow.js';
import { bodyFor, newKey, preparationFlow, type Reader } from '../../support/preparation-flow.js';

/**
 * Key records are cached per auth epoch (server/domain/auth/key-directory.ts), and on the preparation routes the
 * epoch read is shared with the preparation context reads of the same batch. A key revoked after this process cached
 * it must get its 401 (a removed link its 403) on its very next request, before its body is read, whatever that body
 * is, and nothing may be saved for it.
 */
const app = useLedgerApp({ sandbox: { invoices: 6, items: 6 } });
const { sql, post, invoiceOf } = preparationFlow(app);

const REVOKED = { error: { type: 'authentication_error', message: 'This API key has been revoked', issues: [] } };

/**
 * A new key of the reader's integration whose first request (`first`, a valid body) succeeds, so this process caches
 * it and records its last use, then revoked behind the cache's back.
 */
async function cachedThenRevoked(reader: Reader, first: string) {
  const issued = (
    await app.admin<{ id: string; key: string }>('apiKeys.issue', {
      integrationId: reader.integrationId,
      scopes: ['invoices:read', 'enrichment:write'],
    })
  ).body;
  const res = await raw(issued.key, first);
  expect(res.status).toBe(200);
  await sql('update api_keys set revoked_at = now() where id = ?', [issued.id]);
  return { ...issued, first: res.body };
}

const savedCount = async (integrationId: string) =>
  (await sql('select count(*)::int as n from preparations where integration_id = ?', [integrationId]))[0].n as number;

const raw = (key: string, body: string) =>
  app.request('/api/v1/gwc/payment-preparations/from-invoice', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body,
  });

describe('a key changed after it was cached is refused before its body is read', () => {
  it('when a cached key is revoked, then every request of it is 401, whatever its body, and nothing is saved', async () => {
    const reader = await invoiceReader(app, 'gwc');
    const invoice = await invoiceOf(reader, '1002');
    const valid = () => JSON.stringify(bodyFor(invoice));
    const cases: Record<string, (replayOf: { body: string }) => string> = {
      'a valid new request': () => valid(),
      'an identical retry of its saved preparation': (replayOf) => replayOf.body,
      'invalid JSON (else 400)': () => '{"invoiceId": ',
      'a body over the limit (else 413)': () => JSON.stringify({ ...bodyFor(invoice), padding: 'x'.repeat(1_100_000) }),
      'a card number (else 400)': () => JSON.stringify({ ...bodyFor(invoice), note: '4111 1111 1111 1111' }),
      'no invoice selector (else 400)': () => JSON.stringify({ amountMinor: 1, currency: 'usd', idempotencyKey: newKey() }),
      'a key used for another request (else 409)': (replayOf) => JSON.stringify({ ...JSON.parse(replayOf.body), amountMinor: 1 }),
    };
    for (const [name, body] of Object.entries(cases)) {
      const first = valid();
      const revoked = await cachedThenRevoked(reader, first);
      const before = await savedCount(reader.integrationId);

      const res = await raw(revoked.key, body({ body: first }));
      expect({ name, status: res.status, body: res.body }).toEqual({ name, status: 401, body: REVOKED });
      expect(await savedCount(reader.integrationId), name).toBe(before);
    }
    // The reader's own key, cached all along, is unaffected.
    expect((await post(reader.key, 'gwcPreparation', bodyFor(invoice))).status).toBe(200);
  });

  it('when the link to the accounting source is removed after the key was cached, then 403 and nothing is saved', async () => {
    const reader = await invoiceReader(app, 'gwc');
    const invoice = await invoiceOf(reader, '1003');
    expect((await post(reader.key, 'gwcPreparation', bodyFor(invoice))).status).toBe(200);
    expect((await app.admin('links.delete', { id: reader.linkId })).status).toBe(200);
    const before = await savedCount(reader.integrationId);

    const res = await post(reader.key, 'gwcPreparation', bodyFor(invoice));
    expect({ status: res.status, body: res.body }).toEqual({
      status: 403,
      body: { error: { type: 'permission_error', message: 'This integration is not linked to an accounting source', issues: [] } },
    });
    expect(await savedCount(reader.integrationId)).toBe(before);
  });

  it('when the epoch moved for another key, then the cached key is checked again and its request succeeds', async () => {
    const reader = await invoiceReader(app, 'gwc');
    const invoice = await invoiceOf(reader, '1004');
    const revoked = await cachedThenRevoked(reader, JSON.stringify(bodyFor(invoice)));
    expect(revoked.first.preparation.invoiceId).toBe(invoice.id);
    const before = await savedCount(reader.integrationId);

    // The revocation moved the epoch; the reader's key was cached at the old one.
    const res = await post(reader.key, 'gwcPreparation', bodyFor(invoice));
    expect(res.status).toBe(200);
    expect(res.body.preparation).toMatchObject({ invoiceId: invoice.id, snapshotId: invoice.snapshotId });
    expect(await savedCount(reader.integrationId)).toBe(before + 1);
  });
});
