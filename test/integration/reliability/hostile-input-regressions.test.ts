import { describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN, useTestApp } from '../../support/harness.js';
import { gwcReport } from '../../support/reports.js';
import { createTenant } from '../../support/tenants.js';
import { rowCounts } from './support/row-counts.js';
import { happyInvoice } from '../../unit/enrichment/support/invoices.js';

/** Requests the contract fuzzer found answered with a 500; each now gets its documented 4xx and stores nothing. */
describe('hostile input found by fuzzing', () => {
  const app = useTestApp();
  const admin = (procedure: string, body: string, contentType = 'application/json') =>
    fetch(`${app.url}/admin/trpc/${procedure}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': contentType },
      body,
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));

  it('when a path parameter is not percent-decodable, then 400 invalid_url_encoding', async () => {
    const tenant = await createTenant(app, { provider: 'ledger', scopes: ['integrations:read'] });
    const res = await app.request('/api/v1/integrations/ledger/%ED%A0%80/sync', { key: tenant.key });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: {
        type: 'validation_error',
        message: 'The URL is not valid percent-encoded UTF-8',
        issues: [{ code: 'invalid_url_encoding', path: '', message: 'The URL is not valid percent-encoded UTF-8' }],
      },
    });
  });

  it('when a body declares a charset other than UTF-8, then 415 on API routes and operator procedures alike', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const before = await rowCounts(app.orm);
    const api = await app.request('/api/v1/gwc/payment-reports', {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-16' },
      body: JSON.stringify(gwcReport()),
      key: tenant.key,
    });
    const operator = await admin('organizations.create', JSON.stringify({ name: 'Charset' }), 'application/json; charset=UTF-16LE');
    for (const res of [api, operator]) {
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ error: { type: 'unsupported_media_type', message: 'The request body must be UTF-8 JSON', issues: [] } });
    }
    expect(await rowCounts(app.orm)).toEqual(before);
  });

  it('when an operator body nests thousands of levels, then 400 nesting_too_deep instead of a stack overflow', async () => {
    const res = await admin('connections.pause', `{"id":${'['.repeat(5_000)}${']'.repeat(5_000)}}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'validation_error', message: 'The request body nests objects and arrays too deeply' });
    expect(res.body.error.issues[0]).toMatchObject({ code: 'nesting_too_deep' });
  });

  it.each([
    ['a NUL character', 'Acme\u0000'],
    ['an unpaired surrogate', 'Acme\ud800'],
  ])('when text holds %s, then 400 invalid_text naming the field and nothing is stored', async (_, text) => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const ledger = await createTenant(app, { provider: 'ledger', scopes: ['integrations:read'] });
    const before = await rowCounts(app.orm);
    const message = 'The request contains text that is not well-formed Unicode or contains NUL characters';
    const issue = (path: string) => ({
      code: 'invalid_text',
      path,
      message: 'Text must be well-formed Unicode (no unpaired surrogate) without NUL characters',
    });

    const report = await app.request('/api/v1/gwc/payment-reports', {
      method: 'POST',
      json: gwcReport({ invoiceReference: text }),
      key: tenant.key,
    });
    expect(report.status).toBe(400);
    expect(report.body).toEqual({ error: { type: 'validation_error', message, issues: [issue('invoiceReference')] } });

    if (!text.includes('\ud800')) {
      // A URL cannot carry an unpaired surrogate (its UTF-8 bytes do not decode), but it can carry NUL.
      const sync = await app.request(`/api/v1/integrations/ledger/${encodeURIComponent(text)}/sync`, { key: ledger.key });
      expect(sync.status).toBe(400);
      expect(sync.body).toEqual({ error: { type: 'validation_error', message, issues: [issue('connectionId')] } });
    }

    const created = await admin('organizations.create', JSON.stringify({ name: text }));
    expect(created.status).toBe(400);
    expect(created.body.error).toEqual({ type: 'validation_error', message, issues: [issue('name')] });

    const query = await fetch(`${app.url}/admin/trpc/invoices.list?input=${encodeURIComponent(JSON.stringify({ cursor: text }))}`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(query.status).toBe(400);
    expect(((await query.json()) as any).error.data.issues).toEqual([issue('cursor')]);

    expect(await rowCounts(app.orm)).toEqual(before);
  });

  it("when a body has no \\u escape, then its bytes alone decide the text: a surrogate's UTF-8 bytes decode as U+FFFD, the same name as an escape is refused", async () => {
    // The guard skips its well-formed-text check for a body parsed without a \u escape (json-body.ts): what makes that
    // sound is that decoding UTF-8 never yields an unpaired surrogate or a NUL outside an escape.
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['enrichment:write'] });
    const before = await rowCounts(app.orm);
    const text = JSON.stringify({
      invoice: {
        ...happyInvoice(),
        lineItems: happyInvoice().lineItems.map((l, i) => (i === 0 ? { ...l, productName: 'Acme SURROGATE' } : l)),
      },
    });
    const post = (body: Buffer) =>
      fetch(`${app.url}/api/v1/gwc/payment-intent-enrichment`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tenant.key}` },
        body,
      });
    const [head, tail] = text.split('SURROGATE') as [string, string];
    // U+D800 encoded as if it were a character (CESU-8 / WTF-8): not UTF-8; each of its bytes decodes as U+FFFD.
    const bytes = await post(Buffer.concat([Buffer.from(head), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(tail)]));
    const enriched = (await bytes.json()) as any;
    expect(bytes.status).toBe(200);
    expect(enriched.data.amount_details.line_items.map((l: any) => l.product_name)).toContain('Acme \ufffd\ufffd\ufffd');

    const escaped = await post(Buffer.from(text.replace('SURROGATE', '\\ud800')));
    expect(escaped.status).toBe(400);
    expect(((await escaped.json()) as any).error.issues).toEqual([
      {
        code: 'invalid_text',
        path: 'invoice.lineItems[0].productName',
        message: 'Text must be well-formed Unicode (no unpaired surrogate) without NUL characters',
      },
    ]);
    // The success left its enrichment record; the refusal nothing.
    const after = await rowCounts(app.orm);
    expect(after).toEqual({ ...before, enrichment_records: before.enrichment_records! + 1 });
  });

  it.each([
    ['year 0000', '0000-01-01T00:00:00.000Z'],
    ['an impossible day that rolls over', '2026-02-30T00:00:00.000Z'],
    ['an hour past the day', '2026-01-01T24:00:00.000Z'],
  ])('when an operator cursor is edited to a date with %s, then 400 invalid_cursor on every list that takes one', async (_, date) => {
    const cursor = Buffer.from(`${date}|${crypto.randomUUID()}`, 'utf8').toString('base64url');
    for (const procedure of ['payments.list', 'correlationExceptions.list', 'webhookEvents.list', 'syncRuns.list']) {
      const res = await fetch(`${app.url}/admin/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ cursor }))}`, {
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      });
      const body = (await res.json()) as any;
      expect([procedure, res.status]).toEqual([procedure, 400]);
      expect(body.error.data.issues).toEqual([
        { code: 'invalid_cursor', path: 'cursor', message: 'Use the nextCursor of the previous page unchanged' },
      ]);
    }
  });
});
