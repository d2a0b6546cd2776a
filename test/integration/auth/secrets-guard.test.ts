import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/harness.js';
import { createTenant, issueKey } from '../../support/tenants.js';
import { gwcReport } from '../../support/reports.js';
import { ledgerTenant, linkedProvider, type LedgerFlowApp } from '../../support/ledger-flow.js';

describe('card-data and credential guard over HTTP', () => {
  const app = useTestApp();

  it('when a report carries a PAN in a nested string, then 400 names the path, nothing is stored and the PAN is not logged', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const report = gwcReport({ invoiceReference: 'card 4111-1111-1111-1111' });
    const res = await app.request('/api/v1/gwc/payment-reports', { method: 'POST', json: report, key: tenant.key });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: {
        type: 'validation_error',
        message: 'The request contains card data or credentials, which this service never accepts',
        issues: [{ code: 'card_data_not_allowed', path: 'invoiceReference', message: 'Card numbers must never be sent to this service' }],
      },
    });
    expect(res.text).not.toContain('4111');
    const stored = await app.orm.em.getConnection().execute('select count(*)::int as n from payment_observations');
    expect(stored).toEqual([{ n: 0 }]);
    expect(app.logs.text).not.toContain('4111');
  });

  const CARD_REFUSAL = 'The request contains card data or credentials, which this service never accepts';
  const cardIssue = (path: string) => ({ code: 'card_data_not_allowed', path, message: 'Card numbers must never be sent to this service' });

  it('when a query string or a path parameter carries a PAN or a key, then the same 400 names the parameter, and the log holds neither the value nor the query', async () => {
    // No accounting source is needed: the guard refuses before any lookup (the flows only use request and admin).
    const flows = app as unknown as LedgerFlowApp;
    const ledger = await ledgerTenant(flows);
    const reader = await linkedProvider(flows, ledger, 'gwa');
    const pan = '4111 1111 1111 1111';
    // A key sent as a value: one whose hex holds a run of 13 digits (a few keys in a thousand) may pass the card-number
    // check too, which the guard names first; this case is about a credential alone.
    let credential = ledger.key;
    while (/\d{13}/.test(credential)) credential = (await issueKey(app, ledger.integrationId, ['integrations:read'])).key;
    const cases = [
      [`/api/v1/invoices?ledgerInvoiceId=${encodeURIComponent(pan)}`, reader.key, 'GET', cardIssue('ledgerInvoiceId')],
      [`/api/v1/invoices?limit=5&invoiceNumber=4111-1111-1111-1111`, reader.key, 'GET', cardIssue('invoiceNumber')],
      [`/api/v1/invoices/4111111111111111`, reader.key, 'GET', cardIssue('invoiceId')],
      [`/api/v1/integrations/ledger/4111111111111111/sync`, ledger.key, 'GET', cardIssue('connectionId')],
      [
        `/api/v1/invoices?invoiceNumber=${credential}`,
        reader.key,
        'GET',
        {
          code: 'credential_not_allowed',
          path: 'invoiceNumber',
          message: 'Credentials, payment-method nonces and card security data must never be sent to this service',
        },
      ],
    ] as const;
    for (const [url, key, method, issue] of cases) {
      const res = await app.request(url, { method, key });
      expect([url, method, res.status]).toEqual([url, method, 400]);
      expect(res.body).toEqual({ error: { type: 'validation_error', message: CARD_REFUSAL, issues: [issue] } });
      expect(res.text).not.toContain('4111');
    }
    expect(await app.orm.em.getConnection().execute('select count(*)::int as n from ledger_sync_runs')).toEqual([{ n: 0 }]);
    expect(app.logs.text).not.toMatch(/4111|invoiceNumber=|ledgerInvoiceId=/);
    expect(app.logs.text).not.toContain(credential.split('_').at(-1));
    // The refused requests are still logged, by route template.
    expect(app.logs.text).toContain('"path":"/api/v1/invoices/:invoiceId"');
    expect(app.logs.text).toContain('"path":"/api/v1/integrations/ledger/:connectionId/sync"');
  });

  it('when a body carries a secret-named property, then 400 before schema validation, naming its path', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const res = await app.request('/api/v1/gwc/payment-reports', {
      method: 'POST',
      json: { ...gwcReport(), raw: { payment_method: { card: { cvc: '123' } }, paymentMethodNonce: 'fake-valid-nonce' } },
      key: tenant.key,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.issues).toEqual([
      {
        code: 'credential_not_allowed',
        path: 'raw.payment_method.card.cvc',
        message: 'Credentials, payment-method nonces and card security data must never be sent to this service',
      },
      {
        code: 'credential_not_allowed',
        path: 'raw.paymentMethodNonce',
        message: 'Credentials, payment-method nonces and card security data must never be sent to this service',
      },
    ]);
    expect(res.text).not.toContain('fake-valid-nonce');
    expect(app.logs.text).not.toContain('fake-valid-nonce');
  });

  it('when a report holds look-alikes (12-digit references, non-Luhn runs), then it is accepted', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const res = await app.request('/api/v1/gwc/payment-reports', {
      method: 'POST',
      json: gwcReport({ invoiceReference: '123456789012', providerEventId: '4111111111111112' }),
      key: tenant.key,
    });
    expect(res.status).toBe(200);
  });
});

describe('card numbers in other shapes, credentials by value, deep bodies', () => {
  const app = useTestApp();
  const storedObservations = async () => app.orm.em.getConnection().execute('select count(*)::int as n from payment_observations');

  it.each([
    ['invoiceReference', '4111 1111 1111 1111 123'],
    ['invoiceReference', '2025 4111 1111 1111 1111'],
    ['providerEventId', '4111-1111-1111-1111-1225'],
    ['invoiceReference', 'card 4111.1111.1111.1111'],
    ['invoiceReference', '4111\u00a01111\u00a01111\u00a01111'],
    ['invoiceReference', '４１１１１１１１１１１１１１１１'],
  ])('when a report carries a card number in %s as %s, then 400 and no row is stored', async (field, text) => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const res = await app.request('/api/v1/gwc/payment-reports', { method: 'POST', json: gwcReport({ [field]: text }), key: tenant.key });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: {
        type: 'validation_error',
        message: 'The request contains card data or credentials, which this service never accepts',
        issues: [{ code: 'card_data_not_allowed', path: field, message: 'Card numbers must never be sent to this service' }],
      },
    });
    expect(await storedObservations()).toEqual([{ n: 0 }]);
  });

  it('when a report carries a secret-shaped value or a credential-named property, then 400 names both and no row is stored', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const res = await app.request('/api/v1/gwc/payment-reports', {
      method: 'POST',
      json: { ...gwcReport({ invoiceReference: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc' }), sessionToken: 'abc' },
      key: tenant.key,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.issues.map((i: { code: string; path: string }) => `${i.code}@${i.path}`)).toEqual([
      'credential_not_allowed@invoiceReference',
      'credential_not_allowed@sessionToken',
    ]);
    expect(res.text).not.toContain('sk_live');
    expect(await storedObservations()).toEqual([{ n: 0 }]);
  });

  it('when a report holds dates and amounts, then it is accepted', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const res = await app.request('/api/v1/gwc/payment-reports', {
      method: 'POST',
      json: gwcReport({ invoiceReference: 'INV 2025-01-10 1 234.56', providerEventId: '2025.01.10-0001' }),
      key: tenant.key,
    });
    expect(res.status).toBe(200);
  });

  it('when a body nests 10,000 levels deep, then 400 names where the limit was hit and only the access line is logged', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['enrichment:write'] });
    const before = app.logs.lines.length;
    const res = await app.request('/api/v1/gwc/payment-intent-enrichment', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"raw":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
      key: tenant.key,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: {
        type: 'validation_error',
        message: 'The request body nests objects and arrays too deeply',
        issues: [
          { code: 'nesting_too_deep', path: `raw${'[0]'.repeat(63)}`, message: 'Objects and arrays may be nested at most 64 levels deep' },
        ],
      },
    });
    const logged = app.logs.lines.slice(before);
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0]!)).toMatchObject({ status: 400 });
    expect(logged[0]).not.toMatch(/RangeError|stack/i);
  });
});

describe('tenant isolation', () => {
  const app = useTestApp();

  it('when two organizations report the same eventId and attemptId, then each has its own observation and payment', async () => {
    const a = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const b = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const report = gwcReport({ eventId: 'evt_shared', attemptId: 'att_shared' });
    const ra = await app.request('/api/v1/gwc/payment-reports', { method: 'POST', json: report, key: a.key });
    const rb = await app.request('/api/v1/gwc/payment-reports', {
      method: 'POST',
      json: { ...report, amountMinor: 2000, capturedAmountMinor: 2000 },
      key: b.key,
    });
    expect(ra.status).toBe(200);
    expect(rb.status).toBe(200);
    expect(ra.body.data.duplicate).toBe(false);
    expect(rb.body.data.duplicate).toBe(false);
    expect(ra.body.data.id).not.toBe(rb.body.data.id);
    const rows = await app.orm.em
      .getConnection()
      .execute(`select organization_id, amount_minor from tracked_payments where attempt_id = 'att_shared' order by amount_minor`);
    expect(rows).toEqual([
      { organization_id: a.organizationId, amount_minor: '1000' },
      { organization_id: b.organizationId, amount_minor: '2000' },
    ]);
  });

  it('when a report names an inline enrichment of another organization, then 400 and nothing is stored', async () => {
    const a = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const b = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    await app.orm.em.getConnection().execute(
      `insert into enrichment_records (id, request_id, organization_id, integration_id, environment, provider, amount_minor, currency, invoice_number, created_at)
       values (gen_random_uuid(), 'req_${'a'.repeat(32)}', '${a.organizationId}', '${a.integrationId}', 'sandbox', 'gwc', 1000, 'usd', 'INV-1', now())`,
    );
    const res = await app.request('/api/v1/gwc/payment-reports', {
      method: 'POST',
      json: gwcReport({ enrichmentRequestId: `req_${'a'.repeat(32)}` }),
      key: b.key,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.issues[0].code).toBe('enrichment_reference_not_found');
    const count = await app.orm.em
      .getConnection()
      .execute(`select count(*)::int as n from payment_observations where organization_id = '${b.organizationId}'`);
    expect(count).toEqual([{ n: 0 }]);
  });
});
