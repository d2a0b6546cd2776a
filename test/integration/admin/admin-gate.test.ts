import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN, useTestApp } from '../../support/harness.js';
import { rowCounts } from '../reliability/support/row-counts.js';

/** A GET from the local address `from` (its own client identity), answered as status and text. */
function get(base: string, target: string, options: { token?: string; from?: string } = {}): Promise<{ status: number; text: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: target,
      agent: false,
      ...(options.from ? { localAddress: options.from } : {}),
      headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const UNAUTHORIZED = {
  error: { message: 'Send Authorization: Bearer <SVC_ADMIN_TOKEN>', code: -32001, data: { code: 'UNAUTHORIZED', httpStatus: 401 } },
};
const batchOf = (procedure: string, n: number, withInput = true) =>
  `/admin/trpc/${Array.from({ length: n }, () => procedure).join(',')}?batch=1${
    withInput ? `&input=${encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [i, {}]))))}` : ''
  }`;

describe('the operator surface refuses before it parses', () => {
  const app = useTestApp({ SVC_AUTH_FAILURE_BURST: '3', SVC_AUTH_FAILURES_PER_SECOND: '1', SVC_AUTH_REFUSAL_HOLD_MS: '0' });

  it('when an unauthenticated batch names a procedure 1,100 times, then one small 401 before tRPC reads it', async () => {
    const res = await get(app.url, batchOf('evidence.list', 1_100, false), { from: '127.0.0.31' });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toEqual(UNAUTHORIZED);
    expect(res.text.length).toBeLessThan(200);
  });

  it('when an operator batch names more procedures than the cap, then 400 batch_too_large; within the cap it is answered', async () => {
    const over = await get(app.url, batchOf('organizations.list', 11), { token: TEST_ADMIN_TOKEN });
    expect(over.status).toBe(400);
    const message = 'A batch may name at most 10 procedures; this one names 11';
    expect(JSON.parse(over.text)).toEqual({
      error: { type: 'validation_error', message, issues: [{ code: 'batch_too_large', path: 'batch', message }] },
    });
    const within = await get(app.url, batchOf('organizations.list', 10), { token: TEST_ADMIN_TOKEN });
    expect(within.status).toBe(200);
    expect(JSON.parse(within.text)).toHaveLength(10);
  });

  it('when a client keeps failing the operator token, then it meets the failed-authentication gate (429), while the operator token from the same address is still served', async () => {
    const from = '127.0.0.32';
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await get(app.url, '/admin/trpc/organizations.list', { token: 'x'.repeat(40), from })).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const refused = await get(app.url, '/admin/trpc/organizations.list', { from });
    expect(JSON.parse(refused.text)).toEqual({
      error: {
        type: 'rate_limited',
        message: 'Too many failed authentications from this client (at most 1 per second, bursts up to 3); retry after 1 s',
        issues: [],
      },
    });
    expect((await get(app.url, '/admin/trpc/organizations.list', { token: TEST_ADMIN_TOKEN, from })).status).toBe(200);
  });

  it('when an input has a thousand problems, then the error names at most 20 of them and nothing is stored', async () => {
    const before = await rowCounts(app.orm);
    const res = await app.admin('apiKeys.issue', {
      integrationId: crypto.randomUUID(),
      scopes: Array.from({ length: 1_000 }, () => 'nope'),
    });
    expect(res.status).toBe(400);
    const error = (res.body as { error: { message: string; data: { code: string; issues: unknown[] } } }).error;
    expect(error.message).toBe('Invalid input');
    expect(error.data.code).toBe('BAD_REQUEST');
    expect(error.data.issues).toHaveLength(20);
    expect(await rowCounts(app.orm)).toEqual(before);
  });
});
