import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/harness.js';
import { createTenant } from '../../support/tenants.js';
import { gwcReport } from '../../support/reports.js';
import { happyInvoice } from '../../unit/enrichment/support/invoices.js';

const REPORT_LIMIT = {
  error: { type: 'payload_too_large', message: 'The request body exceeds the limit of 16384 bytes for this endpoint', issues: [] },
};

describe('request bodies are read after authentication, within the route limit', () => {
  const app = useTestApp();

  it('when invalid JSON arrives without a key, then 401: the body is never parsed', async () => {
    const res = await app.request('/api/v1/gwc/payment-reports', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"eventId": ',
    });
    expect(res.status).toBe(401);
    expect(res.body.error.type).toBe('authentication_error');
  });

  it('when a report body over 16 KiB is not even JSON, then 413: the limit applies while reading, before parsing', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const res = await app.request('/api/v1/gwc/payment-reports', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"eventId": ${'x'.repeat(20 * 1024)}`,
      key: tenant.key,
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(REPORT_LIMIT);
  });

  it('when a report body exceeds even the deployment limit, then 413 names the report limit', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const json = gwcReport({ padding: 'z'.repeat(2 * 1024 * 1024) });
    const res = await app.request('/api/v1/gwc/payment-reports', { method: 'POST', json, key: tenant.key });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(REPORT_LIMIT);
    const stored = await app.orm.em.getConnection().execute('select count(*)::int as n from payment_observations');
    expect(stored).toEqual([{ n: 0 }]);
  });

  it.each([
    ['application/json', 200],
    ['application/json; charset=utf-8', 200],
    ['application/json;charset=utf-8', 200],
    ['application/json; charset=UTF-8', 200],
    ['application/json;charset=UTF-8', 200],
    // Spellings past the common ones are parsed as media types: the same rules, no shortcut.
    ['Application/JSON; Charset="utf8"', 200],
    ['application/json ; charset=latin1', 415],
    ['application/json; charset=utf-16', 415],
    ['application/jsonx', 415],
    ['text/plain', 415],
  ])('when a report is sent as %s, then %i', async (contentType, status) => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const res = await app.request('/api/v1/gwc/payment-reports', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: JSON.stringify(gwcReport()),
      key: tenant.key,
    });
    expect(res.status).toBe(status);
    if (status === 415) expect(res.body.error.type).toBe('unsupported_media_type');
  });

  it.each([
    ['one write', 1],
    ['three writes, a character split between two', 3],
  ])('when a body of declared length arrives in %s, then it is read whole', async (_, writes) => {
    // One chunk is decoded where it lies; several are copied into one buffer first (json-body.ts): both read the same text.
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['enrichment:write'] });
    const invoice = { ...happyInvoice(), lineItems: happyInvoice().lineItems.map((l) => ({ ...l, productName: 'Größe ✓ Ärger' })) };
    const bytes = Buffer.from(JSON.stringify({ invoice }));
    const split = bytes.indexOf(Buffer.from('✓')) + 1;
    const parts = writes === 1 ? [bytes] : [bytes.subarray(0, split), bytes.subarray(split, split + 10), bytes.subarray(split + 10)];
    const answer = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const url = new URL('/api/v1/gwc/payment-intent-enrichment', app.url);
      const req = httpRequest(
        url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': String(bytes.length), authorization: `Bearer ${tenant.key}` },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }));
        },
      );
      req.on('error', reject);
      req.flushHeaders();
      let i = 0;
      const next = () => {
        if (i === parts.length) return req.end();
        req.write(parts[i++]);
        setTimeout(next, 20);
      };
      next();
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.amount_details.line_items.map((l: any) => l.product_name)).toEqual(
      invoice.lineItems.map(() => 'Größe ✓ Ärger'),
    );
  });

  it('when a body of exactly 16 KiB is sent, then it is read and validated', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const base = JSON.stringify({ ...gwcReport(), padding: '' });
    const body = base.replace('"padding":""', `"padding":"${'z'.repeat(16 * 1024 - base.length)}"`);
    expect(Buffer.byteLength(body)).toBe(16 * 1024);
    const res = await app.request('/api/v1/gwc/payment-reports', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      key: tenant.key,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.issues).toEqual([expect.objectContaining({ code: 'unknown_property', path: 'padding' })]);
  });

  describe('how a body may be framed and encoded', () => {
    const send = async (body: string | Uint8Array | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) => {
      const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
      // A stream is sent chunked, without a declared length (fetch requires half-duplex for it).
      const init = { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, key: tenant.key, duplex: 'half' };
      const res = await app.request('/api/v1/gwc/payment-reports', init as RequestInit & { key: string });
      const stored = await app.orm.em
        .getConnection()
        .execute<{ n: number }[]>('select count(*)::int as n from payment_observations where integration_id = ?', [tenant.integrationId]);
      return { res, stored: stored[0]!.n };
    };
    const json = () => JSON.stringify(gwcReport());

    it('when the body starts with a UTF-8 byte-order mark and whitespace, then it is read as JSON', async () => {
      const { res, stored } = await send(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(` \n\t${json()}`)]));
      expect(res.status).toBe(200);
      expect(stored).toBe(1);
    });

    it('when the body is gzip-compressed, then it is inflated and read', async () => {
      const { res, stored } = await send(gzipSync(json()), { 'content-encoding': 'gzip' });
      expect(res.status).toBe(200);
      expect(stored).toBe(1);
    });

    it('when the body is sent in chunks without a declared length, then it is read whole', async () => {
      const text = json();
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(Buffer.from(text.slice(0, 40)));
          controller.enqueue(Buffer.from(text.slice(40)));
          controller.close();
        },
      });
      const { res, stored } = await send(stream);
      expect(res.status).toBe(200);
      expect(stored).toBe(1);
    });

    it.each([['"a JSON string"'], ['12500'], ['null'], ['  true']])(
      'when the body is the JSON scalar %s, then 400 invalid_json',
      async (body) => {
        const { res, stored } = await send(body);
        expect(res.status).toBe(400);
        expect(res.body.error.issues).toEqual([{ code: 'invalid_json', path: '', message: 'The request body is not valid JSON' }]);
        expect(stored).toBe(0);
      },
    );

    it('when the body breaks off inside a string, then 400 invalid_json and nothing is stored', async () => {
      const { res, stored } = await send(json().slice(0, 60));
      expect(res.status).toBe(400);
      expect(res.body.error.issues).toEqual([{ code: 'invalid_json', path: '', message: 'The request body is not valid JSON' }]);
      expect(stored).toBe(0);
    });
  });
});
