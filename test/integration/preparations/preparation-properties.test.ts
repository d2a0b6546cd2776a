import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PaymentProvider } from '../../../contract/common/index.js';
import type { QboEntity } from '../../../server/ledger-sandbox/company.js';
import { preparationRequest } from '../../../server/domain/invoices/index.js';
import { canonicalOf, factsArbitrary, lineItemId, providerInvoice } from '../../support/invoice-facts.js';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader, linkedProvider } from '../../support/ledger-flow.js';
import { newKey, preparationFlow, type PreparationEndpoint } from '../../support/preparation-flow.js';
import { item } from '../../unit/invoices/support/source.js';

/**
 * Invoice-backed preparation gives, for any invoice, what the inline endpoint gives for the same invoice written as a
 * CanonicalInvoice: generated invoices are placed in the ledger sandbox, synced once as a batch (a sync per case
 * would take about a second each), and every case is prepared on endpoints 1, 6, 11 and 12 and enriched inline on
 * endpoints 2, 5 and 10. Fixed seed and number of cases; a failure names the case's facts.
 */
const SEED = 20_261_123;
const CASES = 16;
const FIRST_ID = 5001;

const INLINE_PATHS: Record<PaymentProvider, string> = {
  gwa: '/api/v1/gwa/transaction-enrichment',
  gwb: '/api/v1/gwb/order-enrichment',
  gwc: '/api/v1/gwc/payment-intent-enrichment',
};

// A PO of 5-19 characters: over 17 the gwa rules refuse it, inline and invoice-backed alike; no PO at all sometimes.
const caseArbitrary = fc.record({
  facts: factsArbitrary,
  purchaseOrder: fc.option(fc.stringMatching(/^PO-[A-Z]{1,10}[0-9]{1,6}$/), { nil: null }),
});
const cases = fc.sample(caseArbitrary, { seed: SEED, numRuns: CASES }).map((c, i) => ({
  ...c,
  ledgerInvoiceId: String(FIRST_ID + i),
  invoiceNumber: `PROP-${FIRST_ID + i}`,
}));

const app = useLedgerApp({ sandbox: { invoices: 2, items: 2 } });
const { post } = preparationFlow(app);
const keys = {} as Record<PaymentProvider, string>;

beforeAll(async () => {
  // Items 100-104 (every line's item) and the generated invoices, changed an hour ago: inside the first sync's period.
  const company = [...app.sandbox.companies.values()][0]!;
  const changed = new Date(Date.now() - 3_600_000).toISOString();
  const meta = { CreateTime: changed, LastUpdatedTime: changed };
  company.Item.push(...[0, 1, 2, 3, 4].map((i) => ({ ...item(lineItemId(i)), MetaData: meta }) as QboEntity));
  for (const c of cases) {
    const po =
      c.purchaseOrder === null ? [] : [{ DefinitionId: '3', Name: 'Purchase Order', Type: 'StringType', StringValue: c.purchaseOrder }];
    company.Invoice.push(
      providerInvoice(c.facts, { Id: c.ledgerInvoiceId, DocNumber: c.invoiceNumber, CustomField: po, MetaData: meta }) as QboEntity,
    );
  }

  const reader = await invoiceReader(app, 'gwa');
  keys.gwa = reader.key;
  keys.gwb = (await linkedProvider(app, reader.ledger, 'gwb')).key;
  keys.gwc = (await linkedProvider(app, reader.ledger, 'gwc')).key;
  // The facts `canonicalOf` assumes: every item mapped to PC-<item> / EA, the PO read from its custom field.
  for (const i of [0, 1, 2, 3, 4]) {
    const confirmed = await app.admin('itemMappings.confirm', {
      connectionId: reader.connectionRowId,
      sourceItemId: lineItemId(i),
      productCode: `PC-${lineItemId(i)}`,
      unitOfMeasure: 'EA',
      evidence: 'Generated catalogue',
      approvedBy: 'ops@acme.test',
    });
    expect(confirmed.status).toBe(200);
  }
  const configured = await app.admin('connections.configure', { id: reader.connectionRowId, purchaseOrderField: 'Purchase Order' });
  expect(configured.status).toBe(200);
}, 60_000);

const issuesOf = (body: any) => (body.error.issues as { code: string; path: string }[]).map(({ code, path }) => ({ code, path }));

describe('invoice-backed preparation equals inline enrichment of the same invoice (HTTP, generated invoices)', () => {
  it(`for ${CASES} generated invoices (seed ${SEED}), endpoints 1, 6, 11 and 12 answer what 2, 5 and 10 answer`, async () => {
    let enhanced = 0;
    let refused = 0;
    for (const c of cases) {
      const label = JSON.stringify(c);
      const canonical = canonicalOf(c.facts, { invoiceNumber: c.invoiceNumber, purchaseOrderReference: c.purchaseOrder });
      const request = (idempotencyKey: string) => ({
        ledgerInvoiceId: c.ledgerInvoiceId,
        amountMinor: c.facts.total,
        currency: 'usd',
        idempotencyKey,
      });
      for (const provider of ['gwa', 'gwb', 'gwc'] as const) {
        const inline = await app.request(INLINE_PATHS[provider], {
          method: 'POST',
          key: keys[provider],
          json: preparationRequest(provider, canonical),
        });
        const prepared = await post(keys[provider], provider as PreparationEndpoint, request(newKey()));
        if (inline.status === 200) {
          enhanced++;
          expect(prepared.status, `${provider} ${label}: ${prepared.text}`).toBe(200);
          expect(prepared.body.data, `${provider} ${label}`).toStrictEqual(inline.body.data);
        } else {
          refused++;
          expect(inline.status, `${provider} inline ${label}: ${inline.text}`).toBe(422);
          expect(prepared.status, `${provider} ${label}: ${prepared.text}`).toBe(422);
          expect(issuesOf(prepared.body), `${provider} ${label}`).toStrictEqual(issuesOf(inline.body));
        }
        if (provider !== 'gwc') continue;
        const payment = await post(keys.gwc, 'gwcPreparation', request(newKey()));
        expect(payment.status, `endpoint 12 ${label}: ${payment.text}`).toBe(200);
        expect(payment.body.data, `endpoint 12 ${label}`).toStrictEqual(
          inline.status === 200
            ? { mode: 'enhanced', enrichment: inline.body.data, optimizationIssues: [] }
            : {
                mode: 'ordinary',
                enrichment: null,
                optimizationIssues: inline.body.error.issues.map((i: object) => ({ ...i, category: expect.any(String) })),
              },
        );
      }
    }
    // The generator reaches both sides: enriched (most) and refused (a PO too long or missing for gwa).
    expect(enhanced).toBeGreaterThan(CASES);
    expect(refused).toBeGreaterThan(0);
  });
});
