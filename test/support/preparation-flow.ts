import { expect } from 'vitest';
import type { StoredInvoice } from '../../contract/invoices.js';
import { enrichInline } from '../../server/domain/enrichment/index.js';
import { preparationRequest, toCanonicalInvoice } from '../../server/domain/invoices/index.js';
import type { LedgerTestApp } from './ledger-app.js';
import type { invoiceReader } from './ledger-flow.js';

/** Endpoints 1, 6, 11 and 12. */
export const PREPARATION_PATHS = {
  gwa: '/api/v1/gwa/transaction-enrichment/from-invoice',
  gwb: '/api/v1/gwb/order-enrichment/from-invoice',
  gwc: '/api/v1/gwc/payment-intent-enrichment/from-invoice',
  gwcPreparation: '/api/v1/gwc/payment-preparations/from-invoice',
} as const;
export type PreparationEndpoint = keyof typeof PREPARATION_PATHS;
export type Reader = Awaited<ReturnType<typeof invoiceReader>>;

export interface InvoiceDetailView {
  id: string;
  revision: string;
  snapshotId: string;
  invoiceNumber: string;
  totalAmountMinor: number;
  ready: boolean;
  checkoutMode: 'enhanced' | 'ordinary' | 'blocked';
  issues: { code: string; path: string; message: string; category: string }[];
  invoice: StoredInvoice;
}

let n = 0;
/** A fresh idempotency key. Letters only: long digit runs would look like card numbers to the request guard. */
export const newKey = () => `prep-${'abcdefghij'[++n % 10]}-${crypto.randomUUID().replace(/[0-9]/g, 'x')}`;

export const codes = (issues: { code: string }[]) => [...new Set(issues.map((i) => i.code))].sort();

/** A full-payment request for the invoice by id, with a fresh key. */
export const bodyFor = (invoice: { id: string; totalAmountMinor: number }, extra: Record<string, unknown> = {}) => ({
  invoiceId: invoice.id,
  amountMinor: invoice.totalAmountMinor,
  currency: 'usd',
  idempotencyKey: newKey(),
  ...extra,
});

/** What the enrichment core makes of a stored snapshot for a provider: the expected `data`. */
export function expectedData(provider: 'gwa' | 'gwb' | 'gwc', invoice: StoredInvoice) {
  const canonical = toCanonicalInvoice(invoice);
  if (!canonical.ok) throw new Error('not canonical');
  const result = enrichInline(provider, preparationRequest(provider, canonical.invoice));
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.data;
}

/** Confirm a product code and unit for one item of a connection, as an operator does from the invoice (docs/invoices.md). */
export async function confirmItem(app: Pick<LedgerTestApp, 'admin'>, connectionRowId: string, sourceItemId: string | null, unit = 'EA') {
  await confirmMapping(app, connectionRowId, { sourceItemId, productCode: `P-${sourceItemId}`, unitOfMeasure: unit });
}

/** Confirm an item's mapping with these values (a commodity code only when given). */
export async function confirmMapping(
  app: Pick<LedgerTestApp, 'admin'>,
  connectionRowId: string,
  mapping: { sourceItemId: string | null; productCode: string; unitOfMeasure: string; commodityCode?: string | undefined },
) {
  const { commodityCode, ...rest } = mapping;
  const res = await app.admin('itemMappings.confirm', {
    connectionRowId,
    ...rest,
    ...(commodityCode === undefined ? {} : { commodityCode }),
    evidence: 'Price list 2026',
    approvedBy: 'ops@acme.test',
  });
  expect(res.status).toBe(200);
}

/** Preparation requests, invoice reads and item mappings of one test app. */
export function preparationFlow(app: LedgerTestApp) {
  const sql = (q: string, p: unknown[] = []): Promise<any[]> => app.orm.em.getConnection().execute(q, p);

  const post = (key: string, endpoint: PreparationEndpoint, json: Record<string, unknown>) =>
    app.request(PREPARATION_PATHS[endpoint], { method: 'POST', key, json });

  /** The invoice (detail) a reader sees under this source id. */
  async function invoiceOf(reader: Reader, ledgerInvoiceId: string): Promise<InvoiceDetailView> {
    const list = await app.request(`/api/v1/invoices?ledgerInvoiceId=${ledgerInvoiceId}`, { key: reader.key });
    const [summary] = list.body.data.invoices;
    return (await app.request(`/api/v1/invoices/${summary.id}`, { key: reader.key })).body.data;
  }

  /** Confirm a product code and unit for every item of the invoice (docs/invoices.md, item mappings). */
  async function confirmMappings(reader: Reader, ledgerInvoiceId: string, unit = 'EA') {
    const detail = await invoiceOf(reader, ledgerInvoiceId);
    for (const line of detail.invoice.lineItems) await confirmItem(app, reader.connectionRowId, line.sourceItemId, unit);
    return invoiceOf(reader, ledgerInvoiceId);
  }

  /** Every saved preparation of an integration, whole rows, oldest first. */
  const savedPreparations = (integrationId: string) =>
    sql(`select * from preparations where integration_id = ? order by created_at, id`, [integrationId]);

  return { sql, post, invoiceOf, confirmMappings, savedPreparations };
}
