import { describe, expect, it, vi } from 'vitest';
import type { RouteAccess } from '../../../contract/common/index.js';
import { contract } from '../../../contract/index.js';
import { authenticate, provisionalAuthentication } from '../../../server/domain/auth/authenticate.js';
import { cachedKeyDirectory } from '../../../server/domain/auth/key-directory.js';
import { sharedReads } from '../../../server/domain/shared-reads.js';
import { poolSql, type Sql } from '../../../server/persistence/sql/sql.js';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader } from '../../support/ledger-flow.js';
import { bodyFor, newKey, preparationFlow, type Reader } from '../../support/preparation-flow.js';

/**
 * The preparation routes let a key through on the record this process cached
 * and confirm it with the auth epoch their context read returns
 * (server/http/pending-authentication.ts; docs/decisions.md, "Authentication
 * confirmed by the preparation read"). A key revoked since it was cached must
 * still get its 401 (a link removed its 403) whatever its body, and nothing
 * may be saved for it.
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

describe('authentication confirmed by the preparation read', () => {
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

describe('provisional authentication (server/domain/auth/authenticate.ts)', () => {
  const access = (contract.gwc.preparePaymentFromInvoice.metadata as { access: RouteAccess }).access;

  it('when the key is cached at the newest epoch, then its verdict is given with no statement; uncached, refused or due for a last use, none', async () => {
    const reader = await invoiceReader(app, 'gwc');
    const pool = poolSql(app.orm);
    const sent: string[] = [];
    const recording: Sql = (query, params, name) => {
      sent.push(query);
      return pool(query, params, name);
    };
    const keys = cachedKeyDirectory(recording, sharedReads(recording).authEpoch);
    const options = { authorization: `Bearer ${reader.key}`, access, environment: 'sandbox' as const };

    // Not cached yet: no verdict, so the caller authenticates strictly (which reads the epoch and the key).
    expect(provisionalAuthentication(keys, options)).toBeUndefined();
    const strict = await authenticate(keys, options);
    expect(sent.length).toBeGreaterThan(0);

    sent.length = 0;
    const [{ value: epoch }] = await sql('select value::text as value from auth_epoch');
    expect(provisionalAuthentication(keys, options)).toEqual({ auth: strict, epoch });
    expect(sent).toEqual([]);

    // A refusal is never given from the cache: another provider's route, a wrong secret, another environment.
    expect(provisionalAuthentication(keys, { ...options, access: { ...access, provider: 'gwa' } })).toBeUndefined();
    expect(provisionalAuthentication(keys, { ...options, authorization: `Bearer ${reader.key.slice(0, -4)}AAAA` })).toBeUndefined();
    expect(provisionalAuthentication(keys, { ...options, environment: 'production' })).toBeUndefined();
    expect(provisionalAuthentication(keys, { ...options, authorization: undefined })).toBeUndefined();

    // Once its last use is older than the resolution (a minute), strict authentication must write it: no verdict.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      expect(provisionalAuthentication(keys, options)).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
    expect(sent).toEqual([]);
  });
});
