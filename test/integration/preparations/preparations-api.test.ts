import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader } from '../../support/ledger-flow.js';
import {
  bodyFor,
  codes,
  expectedData,
  newKey,
  preparationFlow,
  type InvoiceDetailView,
  type Reader,
} from '../../support/preparation-flow.js';
import { gwbReport } from '../../support/reports.js';

// 12 invoices over 6 items: invoice 1007 is partly paid; 1004, 1008, 1012 have no PO field (docs/invoices.md).
const app = useLedgerApp({ sandbox: { invoices: 12, items: 6 } });
const { sql, post, invoiceOf, confirmMappings } = preparationFlow(app);

function expectRecord(preparation: any, reader: Reader, invoice: InvoiceDetailView) {
  expect(Object.keys(preparation).sort()).toEqual(
    [
      'amountMinor',
      'checkedThrough',
      'createdAt',
      'currency',
      'id',
      'invoiceId',
      'revision',
      'snapshotId',
      'sourceConnectionId',
      'sourceIntegrationId',
    ].sort(),
  );
  expect(preparation).toMatchObject({
    id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    invoiceId: invoice.id,
    snapshotId: invoice.snapshotId,
    revision: invoice.revision,
    sourceIntegrationId: reader.ledger.integrationId,
    sourceConnectionId: reader.connectionId,
    amountMinor: invoice.totalAmountMinor,
    currency: 'usd',
  });
}

describe('invoice-backed preparation over HTTP (endpoints 1, 6, 11, 12)', () => {
  it('gwb: when an open, fully unpaid invoice is prepared, then the enrichment and a saved preparation come back', async () => {
    const reader = await invoiceReader(app, 'gwb');
    const invoice = await invoiceOf(reader, '1002');
    const res = await post(reader.key, 'gwb', {
      ledgerInvoiceId: '1002',
      amountMinor: invoice.totalAmountMinor,
      currency: 'usd',
      idempotencyKey: newKey(),
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['api_version', 'data', 'object', 'preparation']);
    expect(res.body).toMatchObject({ object: 'gwb.order_enrichment', api_version: 'v1' });
    expect(res.body.data).toEqual(expectedData('gwb', invoice.invoice));
    expectRecord(res.body.preparation, reader, invoice);
    const [row] = await sql(`select data, mode, kind, integration_id from preparations where id = ?`, [res.body.preparation.id]);
    expect(row).toMatchObject({ data: res.body.data, mode: 'enhanced', kind: 'enrichment', integration_id: reader.integrationId });
  });

  it('gwa: when the invoice has confirmed mappings, then transaction fields by invoice number with a preparation', async () => {
    const reader = await invoiceReader(app, 'gwa');
    const withoutPo = await confirmMappings(reader, '1001');
    const refused = await post(reader.key, 'gwa', bodyFor(withoutPo));
    expect(refused.status).toBe(422);
    expect(refused.body.error.issues).toEqual([expect.objectContaining({ code: 'missing_purchase_order_number', category: 'mapping' })]);
    const configured = await app.admin('connections.configure', { id: reader.connectionRowId, purchaseOrderField: 'Purchase Order' });
    expect(configured.status).toBe(200);
    const invoice = await invoiceOf(reader, '1001');
    const res = await post(reader.key, 'gwa', {
      invoiceNumber: invoice.invoiceNumber,
      amountMinor: invoice.totalAmountMinor,
      currency: 'usd',
      idempotencyKey: newKey(),
      expectedRevision: invoice.revision,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      object: 'gwa.transaction_enrichment',
      api_version: 'v1',
      data: expectedData('gwa', invoice.invoice),
      preparation: expect.any(Object),
    });
    expect(res.body.data.orderId).toBe(invoice.invoiceNumber);
    expectRecord(res.body.preparation, reader, invoice);
  });

  it('gwc: when mapped, then endpoint 11 answers the enrichment with the invoice number as order reference; without units 422', async () => {
    const reader = await invoiceReader(app, 'gwc');
    const unmapped = await invoiceOf(reader, '1003');
    const refused = await post(reader.key, 'gwc', bodyFor(unmapped));
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(refused.body.error.type).toBe('validation_error');
    expect(codes(refused.body.error.issues)).toContain('missing_unit_of_measure');
    expect(refused.body.error.issues.every((i: any) => i.category === 'mapping')).toBe(true);
    expect((await sql(`select count(*)::int as n from preparations where integration_id = ?`, [reader.integrationId]))[0].n).toBe(0);

    const invoice = await confirmMappings(reader, '1001');
    const res = await post(reader.key, 'gwc', bodyFor(invoice));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'gwc.payment_intent_enrichment', api_version: 'v1' });
    expect(res.body.data).toEqual(expectedData('gwc', invoice.invoice));
    expect(res.body.data.payment_details.order_reference).toBe(invoice.invoiceNumber);
    expectRecord(res.body.preparation, reader, invoice);
  });

  it('gwc: endpoint 12 answers ordinary with the reasons when units are missing, enhanced once mapped; both save a preparation', async () => {
    const reader = await invoiceReader(app, 'gwc');
    const unmapped = await invoiceOf(reader, '1002');
    const ordinary = await post(reader.key, 'gwcPreparation', bodyFor(unmapped));
    expect(ordinary.status).toBe(200);
    expect(ordinary.body).toMatchObject({
      object: 'gwc.payment_preparation',
      api_version: 'v1',
      data: { mode: 'ordinary', enrichment: null },
    });
    // Item 5 of the demo has no SKU; no item has a unit until the merchant confirms one.
    expect(codes(ordinary.body.data.optimizationIssues)).toEqual(['missing_product_code', 'missing_unit_of_measure']);
    for (const issue of ordinary.body.data.optimizationIssues) {
      expect(issue).toEqual({ code: expect.any(String), path: expect.any(String), message: expect.any(String), category: 'mapping' });
    }
    expectRecord(ordinary.body.preparation, reader, unmapped);

    const invoice = await confirmMappings(reader, '1001');
    const enhanced = await post(reader.key, 'gwcPreparation', bodyFor(invoice));
    expect(enhanced.status).toBe(200);
    expect(enhanced.body.data).toEqual({ mode: 'enhanced', enrichment: expectedData('gwc', invoice.invoice), optimizationIssues: [] });
    // State problems stay errors on endpoint 12.
    const mismatch = await post(reader.key, 'gwcPreparation', bodyFor(invoice, { amountMinor: invoice.totalAmountMinor + 1 }));
    expect(mismatch.status).toBe(409);
    expect(codes(mismatch.body.error.issues)).toEqual(['payment_amount_mismatch']);
  });

  it('when the body breaks the contract, then 400 naming the field; an unknown invoice is 404', async () => {
    const reader = await invoiceReader(app, 'gwa');
    const base = { amountMinor: 100, currency: 'usd', idempotencyKey: newKey() };
    const cases: [Record<string, unknown>, string][] = [
      [base, ''],
      [{ ...base, invoiceId: crypto.randomUUID(), invoiceNumber: 'INV-000001' }, 'invoiceNumber'],
      [{ ...base, invoiceNumber: 'INV-000001', idempotencyKey: 'has space' }, 'idempotencyKey'],
      [{ ...base, invoiceNumber: 'INV-000001', idempotencyKey: 'k'.repeat(161) }, 'idempotencyKey'],
      [{ ...base, invoiceNumber: 'INV-000001', currency: 'eur' }, 'currency'],
      [{ ...base, invoiceNumber: 'INV-000001', amountMinor: 0 }, 'amountMinor'],
      [{ ...base, invoiceNumber: 'INV-000001', invoice: {} }, 'invoice'],
      [{ ...base, invoiceId: 'not-a-uuid' }, 'invoiceId'],
    ];
    for (const [json, path] of cases) {
      const res = await post(reader.key, 'gwa', json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.error.type).toBe('validation_error');
      expect(res.body.error.issues.map((i: any) => i.path)).toContain(path);
    }
    const gwb = await invoiceReader(app, 'gwb');
    expect((await post(gwb.key, 'gwb', { ...base, invoiceNumber: 'INV-000001', currency: 'USD' })).status).toBe(400);
    for (const selector of [{ invoiceId: crypto.randomUUID() }, { invoiceNumber: 'NOPE-1' }, { ledgerInvoiceId: '999999' }]) {
      const res = await post(gwb.key, 'gwb', { ...base, ...selector });
      expect(res.status).toBe(404);
      expect(res.body.error.type).toBe('not_found');
    }
  });

  it('when amount, payment state, freshness, connection, revision or number conflict, then 409 with every issue and nothing saved', async () => {
    const reader = await invoiceReader(app, 'gwb');
    const invoice = await invoiceOf(reader, '1005');
    const attempt = async (json: Record<string, unknown>) => {
      const res = await post(reader.key, 'gwb', json);
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body.error.type).toBe('conflict');
      return res.body.error.issues as { code: string; path: string; category?: string }[];
    };
    expect(await attempt(bodyFor(invoice, { amountMinor: invoice.totalAmountMinor - 1 }))).toEqual([
      expect.objectContaining({ code: 'payment_amount_mismatch', path: 'amountMinor', category: 'payment' }),
    ]);
    expect(codes(await attempt(bodyFor(invoice, { currency: 'eur' })))).toEqual(['currency_mismatch']);
    expect(codes(await attempt(bodyFor(invoice, { expectedRevision: 'r-old' })))).toEqual(['revision_mismatch']);
    // Every issue at once, not the first.
    expect(codes(await attempt(bodyFor(invoice, { amountMinor: 1, currency: 'eur', expectedRevision: 'x' })))).toEqual([
      'currency_mismatch',
      'payment_amount_mismatch',
      'revision_mismatch',
    ]);

    const partlyPaid = await invoiceOf(reader, '1007');
    expect(codes(await attempt(bodyFor(partlyPaid)))).toEqual(['invoice_balance_not_full', 'invoice_not_open', 'payment_amount_mismatch']);

    await sql(`update ledger_connections set checked_through = now() - interval '5 hours' where id = ?`, [reader.connectionRowId]);
    expect(await attempt(bodyFor(invoice))).toEqual([expect.objectContaining({ code: 'source_stale', category: 'freshness' })]);
    await sql(`update ledger_connections set checked_through = now(), status = 'paused' where id = ?`, [reader.connectionRowId]);
    expect(await attempt(bodyFor(invoice))).toEqual([expect.objectContaining({ code: 'connection_paused', category: 'access' })]);
    await sql(`update ledger_connections set status = 'active' where id = ?`, [reader.connectionRowId]);

    // Two visible invoices with one number: never one picked.
    await sql(`update stored_invoices set invoice_number = 'INV-000005' where connection_id = ? and ledger_invoice_id = '1009'`, [
      reader.connectionRowId,
    ]);
    const ambiguous = await attempt({ ...bodyFor(invoice), invoiceId: undefined, invoiceNumber: 'INV-000005' });
    expect(ambiguous).toEqual([expect.objectContaining({ code: 'ambiguous_invoice_number', path: 'invoiceNumber' })]);
    expect((await sql(`select count(*)::int as n from preparations where integration_id = ?`, [reader.integrationId]))[0].n).toBe(0);
    // By id the same invoice is prepared.
    expect((await post(reader.key, 'gwb', bodyFor(invoice))).status).toBe(200);
  });

  it('when the same key comes back, then the same body replays the preparation and another body is 409 idempotency_key_conflict', async () => {
    const reader = await invoiceReader(app, 'gwb');
    const invoice = await invoiceOf(reader, '1006');
    const body = bodyFor(invoice);
    const first = await post(reader.key, 'gwb', body);
    expect(first.status).toBe(200);
    const again = await post(reader.key, 'gwb', { ...body });
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    // The same request written with another selector is another request.
    const other = await post(reader.key, 'gwb', { ...body, invoiceId: undefined, ledgerInvoiceId: '1006' });
    expect(other.status).toBe(409);
    expect(other.body.error.issues).toEqual([{ code: 'idempotency_key_conflict', path: 'idempotencyKey', message: expect.any(String) }]);
    expect((await post(reader.key, 'gwb', { ...body, amountMinor: body.amountMinor + 1 })).status).toBe(409);
    expect((await sql(`select count(*)::int as n from preparations where integration_id = ?`, [reader.integrationId]))[0].n).toBe(1);

    // Operators read it back, by invoice or integration, in pages.
    const second = await post(reader.key, 'gwb', bodyFor(invoice));
    expect(second.status).toBe(200);
    const page1 = await app.admin<any>('preparations.list', { invoiceId: invoice.id, limit: 1 });
    expect(page1.status).toBe(200);
    expect(page1.body.preparations).toEqual([
      // gwb's output carries no Product 3 field: its level, recorded when saved, is `none`.
      expect.objectContaining({
        ...first.body.preparation,
        integrationId: reader.integrationId,
        provider: 'gwb',
        mode: 'enhanced',
        qualificationLevel: 'none',
      }),
    ]);
    const page2 = await app.admin<any>('preparations.list', { invoiceId: invoice.id, limit: 1, cursor: page1.body.nextCursor });
    expect(page2.body.preparations.map((p: any) => p.id)).toEqual([second.body.preparation.id]);
    expect(page2.body.nextCursor).toBeNull();
    const byIntegration = await app.admin<any>('preparations.list', { integrationId: reader.integrationId });
    expect(byIntegration.body.preparations).toHaveLength(2);
    const one = await app.admin<any>('preparations.get', { id: first.body.preparation.id });
    expect(one.body).toMatchObject({
      ...first.body.preparation,
      data: first.body.data,
      idempotencyKey: body.idempotencyKey,
      qualificationLevel: 'none',
    });
    expect((await app.admin('preparations.get', { id: crypto.randomUUID() })).status).toBe(404);
  });

  it('when the source changes after a preparation, then its replay is blocked with the issue and works again once checks pass', async () => {
    const reader = await invoiceReader(app, 'gwb');
    const invoice = await invoiceOf(reader, '1010');
    const body = bodyFor(invoice);
    const first = await post(reader.key, 'gwb', body);
    expect(first.status).toBe(200);

    await sql(`update ledger_connections set checked_through = now() - interval '5 hours' where id = ?`, [reader.connectionRowId]);
    const stale = await post(reader.key, 'gwb', body);
    expect(stale.status).toBe(409);
    expect(codes(stale.body.error.issues)).toEqual(['source_stale']);
    await sql(`update ledger_connections set checked_through = now() where id = ?`, [reader.connectionRowId]);
    expect((await post(reader.key, 'gwb', body)).body.preparation.id).toBe(first.body.preparation.id);

    // A confirmed mapping gives the invoice a new revision: the saved preparation no longer describes it.
    const changed = await confirmMappings(reader, '1010');
    expect(changed.revision).not.toBe(invoice.revision);
    const blocked = await post(reader.key, 'gwb', body);
    expect(blocked.status).toBe(409);
    expect(blocked.body.error.issues).toEqual([expect.objectContaining({ code: 'revision_mismatch', path: 'invoice.revision' })]);
  });

  it('when 50 identical requests race, then one preparation row and one answer', async () => {
    const reader = await invoiceReader(app, 'gwb');
    const invoice = await invoiceOf(reader, '1011');
    const body = bodyFor(invoice);
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(reader.key, 'gwb', body)));
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 50 }, () => 200));
    expect(new Set(answers.map((a) => a.body.preparation.id)).size).toBe(1);
    expect((await sql(`select count(*)::int as n from preparations where integration_id = ?`, [reader.integrationId]))[0].n).toBe(1);
  });

  it('when new keys, a shared key and different selectors arrive together, then each new key saves once and the shared key once', async () => {
    const reader = await invoiceReader(app, 'gwb');
    const invoice = await invoiceOf(reader, '1002');
    const byId = Array.from({ length: 10 }, () => bodyFor(invoice));
    const bySourceId = Array.from({ length: 10 }, () => {
      const { invoiceId: _, ...body } = bodyFor(invoice);
      return { ...body, ledgerInvoiceId: '1002' };
    });
    const shared = bodyFor(invoice);
    const bodies = [...byId, ...bySourceId, ...Array.from({ length: 10 }, () => shared)];
    const answers = await Promise.all(bodies.map((body) => post(reader.key, 'gwb', body)));
    expect(answers.map((a) => a.status)).toEqual(bodies.map(() => 200));
    const ids = answers.map((a) => a.body.preparation.id as string);
    expect(new Set(ids.slice(0, 20)).size).toBe(20);
    expect(new Set(ids.slice(20)).size).toBe(1);
    const saved = await sql(`select id, idempotency_key from preparations where integration_id = ?`, [reader.integrationId]);
    expect(saved.map((r: { idempotency_key: string }) => r.idempotency_key).sort()).toEqual(
      [...new Set(bodies.map((b) => b.idempotencyKey))].sort(),
    );
    expect(new Set(saved.map((r: { id: string }) => r.id))).toEqual(new Set(ids));
    // A later request for the same snapshot: the same fields.
    const later = await post(reader.key, 'gwb', bodyFor(invoice));
    expect(later.status).toBe(200);
    expect(later.body.data).toEqual(answers[0]!.body.data);
    expect(later.body.preparation).toMatchObject({ snapshotId: answers[0]!.body.preparation.snapshotId, revision: invoice.revision });
  });

  it('when a preparation is saved, then the database refuses to change or delete it', async () => {
    const reader = await invoiceReader(app, 'gwb');
    const invoice = await invoiceOf(reader, '1003');
    const res = await post(reader.key, 'gwb', bodyFor(invoice));
    expect(res.status).toBe(200);
    const id = res.body.preparation.id;
    await expect(sql(`update preparations set amount_minor = 1 where id = ?`, [id])).rejects.toThrow(/append-only/);
    await expect(sql(`delete from preparations where id = ?`, [id])).rejects.toThrow(/append-only/);
  });

  it('when a report names the preparation, then it correlates; a different amount is a correlation exception; elsewhere 400', async () => {
    const reader = await invoiceReader(app, 'gwb');
    const invoice = await invoiceOf(reader, '1009');
    const prepared = await post(reader.key, 'gwb', bodyFor(invoice));
    expect(prepared.status).toBe(200);
    const id = prepared.body.preparation.id as string;
    const payments = (
      await app.admin<{ key: string }>('apiKeys.issue', { integrationId: reader.integrationId, scopes: ['payments:write'] })
    ).body.key;
    const report = (overrides: Record<string, unknown>) =>
      app.request('/api/v1/gwb/payment-reports', {
        method: 'POST',
        key: payments,
        json: gwbReport({ enrichmentRequestId: id, ...overrides }),
      });
    const total = invoice.totalAmountMinor;
    const matching = await report({ amountMinor: total, capturedAmountMinor: total });
    expect(matching.status).toBe(200);
    const differing = await report({ amountMinor: total - 100, capturedAmountMinor: total - 100 });
    expect(differing.status).toBe(200);
    const exceptions = await sql(`select kind, expected, observed from correlation_exceptions where enrichment_request_id = ?`, [id]);
    expect(exceptions).toEqual([{ kind: 'amount_mismatch', expected: String(total), observed: String(total - 100) }]);

    // Another integration's key cannot name it.
    const stranger = await invoiceReader(app, 'gwb');
    const strangerKey = (
      await app.admin<{ key: string }>('apiKeys.issue', { integrationId: stranger.integrationId, scopes: ['payments:write'] })
    ).body.key;
    const outside = await app.request('/api/v1/gwb/payment-reports', {
      method: 'POST',
      key: strangerKey,
      json: gwbReport({ enrichmentRequestId: id }),
    });
    expect(outside.status).toBe(400);
    expect(outside.body.error.issues[0].code).toBe('enrichment_reference_not_found');
  });
});

describe('authentication of preparation requests under load (docs/decisions.md, "Hot paths")', () => {
  it('when a cached key is revoked while other keys prepare, then its very next request is refused and theirs still succeed', async () => {
    const reader = await invoiceReader(app, 'gwb');
    const invoice = await invoiceOf(reader, '1002');
    const body = () => bodyFor(invoice, { idempotencyKey: newKey() });
    for (let round = 0; round < 5; round++) {
      const issued = await app.admin<{ id: string; key: string }>('apiKeys.issue', {
        integrationId: reader.integrationId,
        scopes: ['invoices:read', 'enrichment:write'],
      });
      const revoking = issued.body;
      // The key is cached by a first request, then revoked behind the cache's back.
      expect((await post(revoking.key, 'gwb', body())).status).toBe(200);
      await sql('update api_keys set revoked_at = now() where id = ?', [revoking.id]);

      // Its request arrives among others whose reads carry the auth epoch it is checked against.
      const others = Array.from({ length: 12 }, () => post(reader.key, 'gwb', body()));
      const refused = post(revoking.key, 'gwb', body());
      const more = Array.from({ length: 12 }, () => post(reader.key, 'gwb', body()));
      expect((await Promise.all([...others, ...more])).map((r) => r.status)).toEqual(new Array(24).fill(200));
      const res = await refused;
      expect({ status: res.status, body: res.body }).toEqual({
        status: 401,
        body: { error: { type: 'authentication_error', message: 'This API key has been revoked', issues: [] } },
      });
    }
    const [{ n }] = await sql('select count(*)::int as n from preparations where integration_id = ?', [reader.integrationId]);
    expect(n).toBe(5 * 25);
  });
});

describe('snapshots already read are not sent again (server/domain/preparations/snapshot-cache.ts)', () => {
  it('when the invoice gets a new snapshot after a preparation, then the next preparation uses the new one, not the one held', async () => {
    const reader = await invoiceReader(app, 'gwc');
    // invoiceNumber is the selector here: the process remembers which snapshot it last read for it.
    const before = await invoiceOf(reader, '1003');
    const select = { invoiceNumber: before.invoiceNumber };
    const body = (invoice: InvoiceDetailView) => ({ ...bodyFor(invoice), invoiceId: undefined, ...select });
    for (let i = 0; i < 2; i++) {
      const ordinary = await post(reader.key, 'gwcPreparation', body(before));
      expect(ordinary.status).toBe(200);
      expect(ordinary.body.data.mode).toBe('ordinary');
      expect(ordinary.body.preparation.snapshotId).toBe(before.snapshotId);
    }

    const after = await confirmMappings(reader, '1003');
    expect(after.snapshotId).not.toBe(before.snapshotId);
    const enhanced = await post(reader.key, 'gwcPreparation', body(after));
    expect(enhanced.status).toBe(200);
    expect(enhanced.body.data).toEqual({ mode: 'enhanced', enrichment: expectedData('gwc', after.invoice), optimizationIssues: [] });
    expect(enhanced.body.preparation).toMatchObject({ snapshotId: after.snapshotId, revision: after.revision });
    // And again from the snapshot now held.
    const again = await post(reader.key, 'gwcPreparation', body(after));
    expect(again.body.data).toEqual(enhanced.body.data);
    expect(again.body.preparation.snapshotId).toBe(after.snapshotId);
  });
});
