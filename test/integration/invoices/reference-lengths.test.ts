import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader } from '../../support/ledger-flow.js';
import { bodyFor, newKey, preparationFlow } from '../../support/preparation-flow.js';
import { generateCompany } from '../../../server/ledger-sandbox/demo-company.js';

// Spec Limits: "eventId, attemptId and other reference strings: non-empty, up to 160 characters". The company id is
// Luhn-valid (as about a tenth of the provider's 16-digit ids are): it must still work as the connectionId of a path.
const LUHN_VALID_REALM = '9341452000000002';
const app = useLedgerApp({
  sandbox: { companies: [generateCompany({ invoices: 3, items: 2, linesPerInvoice: 2, realmId: LUHN_VALID_REALM })] },
});
const { sql, post, invoiceOf } = preparationFlow(app);
const long = (n: number) => 'R'.repeat(n);

describe('source references up to 160 characters', () => {
  it('when a list filter or a preparation selector is 160 characters, then it is looked up (empty list, 404), and 161 is a 400 naming it', async () => {
    const reader = await invoiceReader(app, 'gwb');
    for (const filter of ['ledgerInvoiceId', 'invoiceNumber']) {
      const found = await app.request(`/api/v1/invoices?${filter}=${long(160)}`, { key: reader.key });
      expect(found.status).toBe(200);
      expect(found.body.data).toEqual({ invoices: [], nextCursor: null });
      const tooLong = await app.request(`/api/v1/invoices?${filter}=${long(161)}`, { key: reader.key });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.error.issues.map((i: { path: string }) => i.path)).toEqual([filter]);
    }
    for (const selector of ['ledgerInvoiceId', 'invoiceNumber']) {
      const res = await post(reader.key, 'gwb', { [selector]: long(160), amountMinor: 100, currency: 'usd', idempotencyKey: newKey() });
      expect(res.status).toBe(404);
      expect(res.body.error.type).toBe('not_found');
      const tooLong = await post(reader.key, 'gwb', { [selector]: long(161), amountMinor: 100, currency: 'usd', idempotencyKey: newKey() });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.error.issues.map((i: { path: string }) => i.path)).toEqual([selector]);
    }
    expect(await sql(`select count(*)::int as n from preparations where integration_id = ?`, [reader.integrationId])).toEqual([{ n: 0 }]);
  });

  it('when expectedRevision is 160 characters and differs, then 409 revision_mismatch, not a 400', async () => {
    const reader = await invoiceReader(app, 'gwb');
    const invoice = await invoiceOf(reader, '1001');
    const res = await post(reader.key, 'gwb', bodyFor(invoice, { expectedRevision: long(160) }));
    expect(res.status).toBe(409);
    expect(res.body.error.issues).toEqual([
      { code: 'revision_mismatch', path: 'expectedRevision', message: expect.stringContaining(invoice.revision!), category: 'source' },
    ]);
    expect(await sql(`select count(*)::int as n from preparations where integration_id = ?`, [reader.integrationId])).toEqual([{ n: 0 }]);
  });

  it('when the connectionId path is 160 characters, then the sync endpoints answer 404, and 161 is a 400', async () => {
    const reader = await invoiceReader(app, 'gwb');
    for (const method of ['GET', 'POST']) {
      const res = await app.request(`/api/v1/integrations/ledger/${long(160)}/sync`, { method, key: reader.ledger.key });
      expect(res.status).toBe(404);
      const tooLong = await app.request(`/api/v1/integrations/ledger/${long(161)}/sync`, { method, key: reader.ledger.key });
      expect(tooLong.status).toBe(400);
    }
  });

  it('when the connectionId path holds a card number, then 400 card_data_not_allowed unless it names the key’s connection (a provider company id)', async () => {
    const reader = await invoiceReader(app, 'gwb');
    expect(reader.connectionId).toBe(LUHN_VALID_REALM);
    const own = await app.request(`/api/v1/integrations/ledger/${LUHN_VALID_REALM}/sync`, { key: reader.ledger.key });
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ connectionId: LUHN_VALID_REALM, state: 'succeeded' });
    for (const method of ['GET', 'POST']) {
      const res = await app.request('/api/v1/integrations/ledger/4111111111111111/sync', { method, key: reader.ledger.key });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: {
          type: 'validation_error',
          message: 'The request contains card data or credentials, which this service never accepts',
          issues: [{ code: 'card_data_not_allowed', path: 'connectionId', message: 'Card numbers must never be sent to this service' }],
        },
      });
    }
    expect(app.logs.text).not.toContain('4111111111111111');
    expect(app.logs.text).not.toContain(LUHN_VALID_REALM);
  });

  it('when the schema is migrated, then every column holding a source reference takes 160 characters', async () => {
    const rows = await sql(
      `select table_name, column_name, character_maximum_length as max from information_schema.columns
        where (table_name, column_name) in (('stored_invoices', 'ledger_invoice_id'), ('stored_invoices', 'invoice_number'),
          ('ledger_connections', 'realm_id'), ('ledger_invitations', 'realm_id'), ('ledger_source_records', 'source_id'),
          ('item_mappings', 'source_item_id'), ('preparations', 'source_connection_id'))
        order by table_name, column_name`,
    );
    expect(rows).toHaveLength(7);
    expect(rows.every((r) => r.max === 160)).toBe(true);
  });
});
