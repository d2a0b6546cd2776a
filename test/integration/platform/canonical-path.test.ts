import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN, useTestApp } from '../../support/harness.js';
import { gwcReport } from '../../support/reports.js';
import { createTenant } from '../../support/tenants.js';

const randomKey = () => `svck_sandbox_${randomBytes(8).toString('hex')}_${randomBytes(32).toString('hex')}`;

/** A request with its target sent byte for byte (fetch would normalize dot segments and never send an absolute form). */
function raw(
  base: string,
  target: string,
  options: { method?: string; key?: string; token?: string; from?: string; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: target,
      method: options.method ?? 'GET',
      agent: false,
      ...(options.from ? { localAddress: options.from } : {}),
      headers: {
        ...(options.body ? { 'content-type': 'application/json' } : {}),
        ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text.startsWith('{') ? JSON.parse(text) : text }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const refusal = (message: string) => ({
  error: { type: 'validation_error', message, issues: [{ code: 'non_canonical_path', path: '', message }] },
});
const CASE = refusal('The path must be spelled in lowercase as documented');
const ABSOLUTE = refusal('The request target must be a path (origin form), not an absolute URL');
const SEGMENTS = refusal('The path must not contain empty or dot segments');
const ENCODED = refusal('The path must not percent-encode letters, digits or - . _ ~');

describe('one canonical path for every gate', () => {
  const app = useTestApp({ SVC_AUTH_FAILURE_BURST: '3', SVC_AUTH_FAILURES_PER_SECOND: '1', SVC_AUTH_REFUSAL_HOLD_MS: '0' });

  it('when a blocked client spells an API path another way, then it is refused with 400 before routing or any key lookup, never served past the gate', async () => {
    const from = '127.0.0.21';
    const post = (target: string, key = randomKey()) =>
      raw(app.url, target, { method: 'POST', key, from, body: JSON.stringify(gwcReport()) });
    const failed = [];
    for (let i = 0; i < 3; i++) failed.push((await post('/api/v1/gwc/payment-reports')).status);
    expect(failed).toEqual([401, 401, 401]);
    expect((await post('/api/v1/gwc/payment-reports')).status).toBe(429);
    const spellings: [string, unknown][] = [
      ['/API/V1/gwc/payment-reports', CASE],
      ['/Api/v1/gwc/payment-reports', CASE],
      ['/api/v1/GWC/payment-reports', CASE],
      ['http://x/api/v1/gwc/payment-reports', ABSOLUTE],
      ['/api//v1/gwc/payment-reports', SEGMENTS],
      ['/api/v1/gwc//payment-reports', SEGMENTS],
      ['/api/v1/./gwc/payment-reports', SEGMENTS],
      ['/x/../api/v1/gwc/payment-reports', SEGMENTS],
      ['/api/v1/gwc/%70ayment-reports', ENCODED],
      ['/%61pi/v1/gwc/payment-reports', ENCODED],
    ];
    for (const [target, body] of spellings) {
      const res = await post(target);
      expect({ target, status: res.status, body: res.body }).toEqual({ target, status: 400, body });
      expect(res.headers['x-svc-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
    }
  });

  it('when a path holds capitals, encoded reserved characters or query text only where parameters are, then it is routed and gated as usual', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    // The canonical spelling is served.
    const served = await raw(app.url, '/api/v1/gwc/payment-reports', {
      method: 'POST',
      key: tenant.key,
      body: JSON.stringify(gwcReport()),
    });
    expect(served.status).toBe(200);
    // A parameter may hold capitals and encoded reserved characters: routed, and refused by the route's own rules.
    const invoice = await raw(app.url, '/api/v1/invoices/INV%2F7?cursor=%41', { key: tenant.key });
    expect(invoice.status).toBe(403);
    expect(invoice.body.error.type).toBe('permission_error');
    // A trailing slash is the same route.
    expect((await raw(app.url, '/healthz/')).status).toBe(200);
  });

  it('when the webhook, admin, health or consent paths are spelled another way, then 400 too; unknown paths that match no route stay 404', async () => {
    const endpoint = crypto.randomUUID();
    expect((await raw(app.url, `/API/integrations/gwc/webhooks/${endpoint}`, { method: 'POST' })).body).toEqual(CASE);
    expect((await raw(app.url, `/api/integrations/GWA/webhooks/${endpoint}`, { method: 'POST' })).body).toEqual(CASE);
    expect((await raw(app.url, `/api/integrations/gwc/webhooks//${endpoint}`, { method: 'POST' })).body).toEqual(SEGMENTS);
    expect((await raw(app.url, '/admin/TRPC/organizations.list', { token: TEST_ADMIN_TOKEN })).body).toEqual(CASE);
    expect((await raw(app.url, 'http://x/admin/trpc/organizations.list', { token: TEST_ADMIN_TOKEN })).body).toEqual(ABSOLUTE);
    expect((await raw(app.url, '/HEALTHZ')).body).toEqual(CASE);
    expect((await raw(app.url, '/ledger/OAUTH/callback')).body).toEqual(CASE);
    // The canonical ones as before.
    expect((await raw(app.url, `/api/integrations/gwc/webhooks/${endpoint}`, { method: 'POST' })).status).toBe(404);
    expect((await raw(app.url, '/admin/trpc/organizations.list', { token: TEST_ADMIN_TOKEN })).status).toBe(200);
    expect((await raw(app.url, '/no/such/Path')).status).toBe(404);
  });
});
