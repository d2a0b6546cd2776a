import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { cachedKeyDirectory } from '../../../server/domain/auth/key-directory.js';
import { poolDatabase } from '../../../server/persistence/kysely.js';
import { sql } from 'kysely';
import { recordingDatabase, unitOfWorkOn } from '../../support/recording-database.js';
import { TEST_ADMIN_TOKEN, useTestApp } from '../../support/harness.js';
import { parseExposition, sampleValue } from '../../support/metrics.js';
import { gwcReport } from '../../support/reports.js';
import { createTenant } from '../../support/tenants.js';
import { until } from '../../support/until.js';

const randomKey = () => `svck_sandbox_${randomBytes(8).toString('hex')}_${randomBytes(32).toString('hex')}`;

describe('unknown API keys cost nothing', () => {
  const app = useTestApp({ SVC_AUTH_FAILURE_BURST: '3', SVC_AUTH_FAILURES_PER_SECOND: '1' });
  const report = (key: string) => app.request('/api/v1/gwc/payment-reports', { method: 'POST', json: gwcReport(), key });

  it('when the same unknown key comes again, then it is refused from the negative cache, without a key lookup; a key issued later is found', async () => {
    const pool = poolDatabase(app.orm);
    // The real pool, with every statement noted (the directory's only way to the database).
    const { db: counting, sent: statements } = recordingDatabase(pool);
    const epoch = async () =>
      (await sql<{ value: string }>`select value::text as value from auth_epoch where id`.execute(pool)).rows[0]!.value;
    const keys = cachedKeyDirectory(unitOfWorkOn(counting), epoch);
    const prefix = randomBytes(8).toString('hex');
    expect(await keys.find(prefix)).toBeUndefined();
    expect(await keys.find(prefix)).toBeUndefined();
    expect(await keys.find(prefix)).toBeUndefined();
    // One key lookup (the statement that joins the key by prefix; the directory also lists the key prefixes once).
    expect(statements.filter((q) => /on k.prefix = \$1/.test(q))).toHaveLength(1);
    // A key issued later with that very prefix moves the auth epoch: once a lookup reads the new epoch, the negative entries are gone.
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const id = crypto.randomUUID();
    await sql`insert into api_keys (id, integration_id, prefix, secret_hash, scopes, created_at)
       select ${id}, integration_id, ${prefix}, secret_hash, scopes, now() from api_keys where id = ${tenant.keyId}`.execute(pool);
    const issued = /^svck_sandbox_([0-9a-f]{16})_/.exec(tenant.key)![1]!;
    expect((await keys.find(issued))?.id).toBe(tenant.keyId);
    expect((await keys.find(prefix))?.id).toBe(id);
  });

  it('when one client fails authentication more than the burst allows, then 429 with Retry-After before any lookup, held before it is sent, while a cached valid key of that client is served at once', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    expect((await report(tenant.key)).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await report(randomKey())).status);
    expect(statuses).toEqual([401, 401, 401]);
    // The refusal is held before it is sent (a flood waits on it), while the client's cached valid key is served meanwhile.
    const finished: string[] = [];
    const [limited, served] = await Promise.all([
      report(randomKey()).then((r) => (finished.push('refused'), r)),
      report(tenant.key).then((r) => (finished.push('valid'), r)),
    ]);
    expect(served.status).toBe(200);
    expect(finished).toEqual(['valid', 'refused']);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.body).toEqual({
      error: {
        type: 'rate_limited',
        message: 'Too many failed authentications from this client (at most 1 per second, bursts up to 3); retry after 1 s',
        issues: [],
      },
    });
    expect((await report(tenant.key)).status).toBe(200);
  });

  it('when a client is blocked, then its API requests are refused at the front of the app: before routing, counted, logged once, with a request id; the OpenAPI document and health stay open', async () => {
    // A client address of its own (any 127/8 address reaches the loopback listener), so the test above cannot have blocked it.
    const client = '127.0.0.2';
    const call = (path: string, key?: string) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: unknown }>((resolve, reject) => {
        const body = JSON.stringify(gwcReport());
        const url = new URL(path, app.url);
        const req = http.request(url, {
          method: path.startsWith('/api/v1/gwc/') ? 'POST' : 'GET',
          localAddress: client,
          headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
        });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: text.startsWith('{') ? JSON.parse(text) : text }),
          );
        });
        req.on('error', reject);
        req.end(path.startsWith('/api/v1/gwc/') ? body : undefined);
      });
    const refusals = async () =>
      sampleValue(
        parseExposition(await (await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).text()),
        'svc_auth_failure_refusals_total',
      )!;
    const firstLine = app.logs.lines.length;
    const failed = [];
    for (let i = 0; i < 3; i++) failed.push((await call('/api/v1/gwc/payment-reports', randomKey())).status);
    expect(failed).toEqual([401, 401, 401]);
    const before = await refusals();
    // Sent together: each refusal is held a second before it is answered (the limit refills one failure a second here).
    const refused = await Promise.all([
      call('/api/v1/gwc/payment-reports', randomKey()),
      call('/api/v1/gwc/payment-reports'),
      call('/api/v1/no-such-route', randomKey()),
    ]);
    expect(refused.map((r) => r.status)).toEqual([429, 429, 429]);
    // Refused before routing: an unknown API path gets the same 429, not a 404.
    for (const r of refused) {
      expect(r.body).toEqual({
        error: {
          type: 'rate_limited',
          message: 'Too many failed authentications from this client (at most 1 per second, bursts up to 3); retry after 1 s',
          issues: [],
        },
      });
      expect(r.headers['retry-after']).toBe('1');
      expect(r.headers['x-svc-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
    }
    expect((await call('/api/v1/openapi.json')).status).toBe(200);
    expect((await call('/healthz')).status).toBe(200);
    // (Provider deliveries from a blocked client: test/integration/webhooks/webhook-abuse.test.ts.)
    expect((await refusals()) - before).toBe(3);
    const lines = app.logs.lines.slice(firstLine).map((l) => JSON.parse(l) as { msg: string; status?: number; client?: string });
    expect(lines.filter((l) => l.msg === 'client blocked after repeated authentication failures').map((l) => l.client)).toEqual([client]);
    expect(lines.filter((l) => l.msg === 'request completed' && l.status === 429)).toEqual([]);
    expect(lines.filter((l) => l.msg === 'request completed' && l.status === 401)).toHaveLength(3);
  });
});

describe('the key directory when the database fails under it', () => {
  const app = useTestApp();

  it('when listing the key prefixes fails, then it is not retried in a loop: a lookup lists again once a second has passed', async () => {
    const pool = poolDatabase(app.orm);
    const { db: counting, sent } = recordingDatabase(pool);
    const listings = () => sent.filter((q) => q.includes('array_agg(k.prefix)')).length;
    const epoch = async () =>
      (await sql<{ value: string }>`select value::text as value from auth_epoch where id`.execute(pool)).rows[0]!.value;
    let clock = 1_000_000;
    // A key issued before the directory: the creation listing holds its prefix once that listing has been answered.
    const earlier = /^svck_sandbox_([0-9a-f]{16})_/.exec(
      (await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] })).key,
    )![1]!;
    const keys = cachedKeyDirectory(unitOfWorkOn(counting), epoch, () => clock);
    expect(await keys.find(randomBytes(8).toString('hex'))).toBeUndefined();
    // Answered, not only sent: a listing still in flight when the next key is issued could read that key's epoch.
    await until(
      'the listing at creation, answered',
      async () => keys.holds!(earlier),
      (held) => held,
    );
    expect(listings()).toBe(1);
    // A real failure under every listing: the table it reads is gone. A key issued just before moves the epoch.
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const issued = /^svck_sandbox_([0-9a-f]{16})_/.exec(tenant.key)![1]!;
    await sql`alter table api_keys rename to api_keys_moved`.execute(pool);
    try {
      // The lookup sees the newer epoch and lists again; that listing fails (as does the lookup itself).
      await expect(keys.find(issued)).rejects.toThrow(/api_keys/);
      await new Promise((r) => setTimeout(r, 300));
      // One listing for the newer epoch, not a loop of them (before the fix: hundreds in these 300 ms, and once the
      // pool was closed, a loop of rejections that never left the microtask queue).
      expect(listings()).toBe(2);
      // Lookups within a second of the failure do not list again.
      clock += 999;
      await expect(keys.find(issued)).rejects.toThrow(/api_keys/);
      expect(listings()).toBe(2);
      // A lookup that sees a newer epoch lists at once, even within that second (and fails again, once).
      await sql`update auth_epoch set value = value + 1 where id`.execute(pool);
      await expect(keys.find(issued)).rejects.toThrow(/api_keys/);
      await new Promise((r) => setTimeout(r, 300));
      expect(listings()).toBe(3);
    } finally {
      await sql`alter table api_keys_moved rename to api_keys`.execute(pool);
    }
    // Neither listed nor cached yet (its lookup failed).
    expect(keys.holds!(issued)).toBe(false);
    // A second after the last failure, a lookup at the same epoch lists again, and the list knows the new key.
    clock += 1_000;
    const other = randomBytes(8).toString('hex');
    expect(await keys.find(other)).toBeUndefined();
    await until(
      'the listing a second after the failure',
      async () => listings(),
      (n) => n === 4,
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(listings()).toBe(4);
    expect(keys.holds!(issued)).toBe(true);
  });
});
