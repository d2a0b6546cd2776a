import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/harness.js';
import { createTenant } from '../../support/tenants.js';
import { gwcReport } from '../../support/reports.js';

const REQUEST_ID = /^req_[0-9a-f]{32}$/;

describe('cross-cutting HTTP behaviour', () => {
  const app = useTestApp({ SVC_BODY_LIMIT_BYTES: '2048' });

  it('when any route answers, then it carries a fresh x-svc-request-id', async () => {
    const a = await app.request('/healthz');
    const b = await app.request('/healthz');
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ status: 'ok' });
    expect(a.headers.get('x-svc-request-id')).toMatch(REQUEST_ID);
    expect(b.headers.get('x-svc-request-id')).toMatch(REQUEST_ID);
    expect(a.headers.get('x-svc-request-id')).not.toBe(b.headers.get('x-svc-request-id'));
  });

  it('when an API route or the OpenAPI document answers, then it carries no ETag and a conditional request gets the full answer', async () => {
    const first = await app.request('/api/v1/openapi.json');
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toBeNull();
    const again = await app.request('/api/v1/openapi.json', { headers: { 'if-none-match': 'W/"anything"' } });
    expect(again.status).toBe(200);
    const refused = await app.request('/api/v1/gwc/payment-reports', { method: 'POST', json: {} });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('etag')).toBeNull();
  });

  it('when the route is unknown, then 404 in the error envelope with a request id', async () => {
    const res = await app.request('/api/v1/nothing-here', { method: 'POST', json: {} });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { type: 'not_found', message: 'No route for POST /api/v1/nothing-here', issues: [] } });
    expect(res.headers.get('x-svc-request-id')).toMatch(REQUEST_ID);
  });

  it('when the body is not valid JSON, then 400 validation_error invalid_json', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const res = await app.request('/api/v1/gwc/payment-reports', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"eventId": ',
      key: tenant.key,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: {
        type: 'validation_error',
        message: 'The request body is not valid JSON',
        issues: [{ code: 'invalid_json', path: '', message: 'The request body is not valid JSON' }],
      },
    });
    expect(res.headers.get('x-svc-request-id')).toMatch(REQUEST_ID);
  });

  it('when the body is not declared as JSON, then 415 and nothing is parsed', async () => {
    const res = await app.request('/api/v1/gwc/payment-reports', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify(gwcReport()),
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      error: { type: 'unsupported_media_type', message: 'Request bodies must be sent as Content-Type: application/json', issues: [] },
    });
    expect(res.headers.get('x-svc-request-id')).toMatch(REQUEST_ID);
  });

  it('when the body exceeds the configured limit, then 413 with the envelope', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const res = await app.request('/api/v1/gwc/payment-reports', { method: 'POST', json: { padding: 'x'.repeat(4096) }, key: tenant.key });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      error: { type: 'payload_too_large', message: 'The request body exceeds the limit of 2048 bytes', issues: [] },
    });
    expect(res.headers.get('x-svc-request-id')).toMatch(REQUEST_ID);
  });

  it('when a body is sent without a key, then 401 before it is parsed: invalid, oversized or deep JSON alike', async () => {
    const bodies = ['{"eventId": ', JSON.stringify({ padding: 'x'.repeat(4096) }), '['.repeat(10_000) + ']'.repeat(10_000)];
    for (const body of bodies) {
      const res = await app.request('/api/v1/gwc/payment-reports', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        error: {
          type: 'authentication_error',
          message: 'Missing Authorization header; send "Authorization: Bearer <API key>"',
          issues: [],
        },
      });
      expect(res.headers.get('x-svc-request-id')).toMatch(REQUEST_ID);
    }
  });

  it('when the body violates the contract, then 400 with one issue per problem and dotted paths', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const body = gwcReport({ amountMinor: -1, currency: 'USD', extra: true });
    delete body.attemptId;
    const res = await app.request('/api/v1/gwc/payment-reports', { method: 'POST', json: body, key: tenant.key });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('validation_error');
    expect(res.body.error.issues.map((i: { code: string; path: string }) => [i.code, i.path]).sort()).toEqual(
      [
        ['required', 'attemptId'],
        ['invalid_string', 'currency'],
        ['too_small', 'amountMinor'],
        ['unknown_property', 'extra'],
      ].sort(),
    );
    expect(res.headers.get('x-svc-request-id')).toMatch(REQUEST_ID);
  });

  it('when the openapi document is requested, then it is served from the contract', async () => {
    const res = await app.request('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.0.2');
    expect(Object.keys(res.body.paths)).toContain('/api/v1/gwc/payment-reports');
  });
});

describe('unexpected failures', () => {
  const app = useTestApp();

  it('when the database fails under a request, then 500 names nothing internal', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    // A real database failure: the table the request needs is gone.
    await app.orm.em.getConnection().execute('alter table api_keys rename to api_keys_moved');
    try {
      const res = await app.request('/api/v1/gwc/payment-reports', { method: 'POST', json: gwcReport(), key: tenant.key });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        error: { type: 'internal_error', message: 'An unexpected error occurred. It has been logged; retry with back-off.', issues: [] },
      });
      expect(res.headers.get('x-svc-request-id')).toMatch(REQUEST_ID);
      expect(res.text).not.toMatch(/api_keys|select|relation|stack|at \w+ \(|mikro|postgres/i);
      const logged = app.logs.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'unhandled error');
      // The database error is logged by SQLSTATE (undefined table), never with its SQL text or the parameter values.
      expect(logged.err).toEqual({ type: 'DatabaseError', code: '42P01' });
      const prefix = tenant.key.split('_')[2]!;
      expect(app.logs.text).not.toContain(prefix);
      expect(app.logs.text).not.toMatch(/select|api_keys_moved/i);
    } finally {
      await app.orm.em.getConnection().execute('alter table api_keys_moved rename to api_keys');
    }
  });
});
