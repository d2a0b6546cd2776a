import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../../server/crypto/secrets.js';
import { sql } from 'kysely';
import { poolDatabase } from '../../../server/persistence/kysely.js';
import { FORWARD_FOR, startForwardingProxy, type ForwardingProxy } from '../../support/forwarding-proxy.js';
import { useTestApp, type TestApp } from '../../support/harness.js';
import { gwcReport } from '../../support/reports.js';
import { createTenant, issueKey } from '../../support/tenants.js';
import { until } from '../../support/until.js';

const randomKey = () => `svck_sandbox_${randomBytes(8).toString('hex')}_${randomBytes(32).toString('hex')}`;
const LIMIT_MESSAGE = 'Too many failed authentications from this client (at most 1 per second, bursts up to 3); retry after 1 s';
// Refusals answered at once (the hold has its own tests): the tests here are about who is refused.
const SETTINGS = { SVC_AUTH_FAILURE_BURST: '3', SVC_AUTH_FAILURES_PER_SECOND: '1', SVC_AUTH_REFUSAL_HOLD_MS: '0' } as const;

interface Answer {
  status: number;
  body: any;
}

/** A payment report sent to `base` from the local address `from`, with any extra headers (a proxy hop, a spoofed forward). */
function report(base: string, options: { key?: string; from?: string; headers?: Record<string, string> }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL('/api/v1/gwc/payment-reports', base), {
      method: 'POST',
      agent: false,
      ...(options.from ? { localAddress: options.from } : {}),
      headers: {
        'content-type': 'application/json',
        ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
        ...options.headers,
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(gwcReport()));
  });
}

async function flood(send: (key: string) => Promise<Answer>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push((await send(randomKey())).status);
  return statuses;
}

function useProxy(app: TestApp): { url: string } {
  const proxy = {} as { url: string; hop: ForwardingProxy };
  beforeAll(async () => {
    proxy.hop = await startForwardingProxy(app.url);
    proxy.url = proxy.hop.url;
  });
  afterAll(() => proxy.hop?.close());
  return proxy;
}

describe('client identity behind a trusted proxy (SVC_TRUST_PROXY=loopback)', () => {
  const app = useTestApp({ ...SETTINGS, SVC_TRUST_PROXY: 'loopback' });
  const proxy = useProxy(app);

  it('when one client behind the proxy floods made-up keys, then that client alone is refused: another client behind the same proxy is not', async () => {
    const via = (client: string) => (key: string) => report(proxy.url, { key, headers: { [FORWARD_FOR]: client } });
    expect(await flood(via('203.0.113.7'))).toEqual([401, 401, 401, 429, 429]);
    const refused = await via('203.0.113.7')(randomKey());
    expect(refused).toEqual({ status: 429, body: { error: { type: 'rate_limited', message: LIMIT_MESSAGE, issues: [] } } });
    // Another client of the same balancer has its own budget.
    expect((await via('203.0.113.8')(randomKey())).status).toBe(401);
    // The proxy's own address is not the client either.
    expect((await report(app.url, { key: randomKey(), from: '127.0.0.1' })).status).toBe(401);
  });
});

describe('a forwarded-for header from a peer that is not trusted (SVC_TRUST_PROXY=10.0.0.1)', () => {
  const app = useTestApp({ ...SETTINGS, SVC_TRUST_PROXY: '10.0.0.1' });

  it('when a client names itself another address in X-Forwarded-For, then the header is ignored and its failures stay its own', async () => {
    const from = '127.0.0.11';
    // Each request claims a new address: were the header believed, none would ever be blocked.
    let n = 0;
    const spoofed = (key: string) => report(app.url, { key, from, headers: { 'x-forwarded-for': `198.51.100.${++n}` } });
    expect(await flood(spoofed)).toEqual([401, 401, 401, 429, 429]);
    // Another peer is still served its 401.
    expect((await report(app.url, { key: randomKey(), from: '127.0.0.12', headers: { 'x-forwarded-for': '198.51.100.1' } })).status).toBe(
      401,
    );
  });
});

describe('no proxy setting behind a proxy: every client shares the balancer address', () => {
  const app = useTestApp(SETTINGS);
  const proxy = useProxy(app);

  it('when made-up keys from the balancer address put it over its burst, then every valid key is still served (cached, uncached, issued before or during the flood, issued before this release); made-up keys are refused without a lookup', async () => {
    const viaProxy = (key: string) => report(proxy.url, { key });
    const cached = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    expect((await viaProxy(cached.key)).status).toBe(200);
    const unused = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    // A key issued before this release: 64 random digits, no issued tag (inserted as that version wrote it).
    const legacySecret = randomBytes(32).toString('hex');
    const legacyPrefix = randomBytes(8).toString('hex');
    await sql`insert into api_keys (id, integration_id, prefix, secret_hash, scopes, created_at)
       select ${crypto.randomUUID()}, integration_id, ${legacyPrefix}, ${hashSecret(legacySecret)}, scopes, now() from api_keys where id = ${unused.keyId}`.execute(
      poolDatabase(app.orm),
    );
    const legacyKey = `svck_sandbox_${legacyPrefix}_${legacySecret}`;
    expect(await flood(viaProxy)).toEqual([401, 401, 401, 429, 429]);

    // A key issued during the flood moves the auth epoch: no record cached before is current any more.
    const during = await issueKey(app, cached.integrationId, ['payments:write']);
    for (const key of [cached.key, unused.key, during.key]) expect((await viaProxy(key)).status).toBe(200);
    // The key from before this release is known once the process has listed the key prefixes at the new epoch.
    await until(
      'legacy key served through the blocked address',
      () => viaProxy(legacyKey),
      (r) => r.status === 200,
    );
    // A spoofed forwarded-for from the untrusted peer changes nothing: still the one blocked client.
    expect((await report(proxy.url, { key: randomKey(), headers: { 'x-forwarded-for': '198.51.100.9' } })).body).toEqual({
      error: { type: 'rate_limited', message: LIMIT_MESSAGE, issues: [] },
    });
    // A made-up key that copies a valid key's prefix is refused by the lookup (401), not let through.
    const copied = `${cached.key.slice(0, cached.key.lastIndexOf('_') + 1)}${randomBytes(32).toString('hex')}`;
    expect((await viaProxy(copied)).status).toBe(401);
    // Revoking a tagged key: refused as revoked, and not counted as a made-up key.
    expect((await app.admin('apiKeys.revoke', { id: during.id })).status).toBe(200);
    expect((await viaProxy(during.key)).body.error.message).toBe('This API key has been revoked');
  });
});
