import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { INVOICE_SELECTORS } from '../../../contract/preparations.js';
import type { Provider } from '../../../contract/common/index.js';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader, ledgerTenant } from '../../support/ledger-flow.js';
import { reportFor } from '../../support/reports.js';
import { adminCall, issueKey } from '../../support/tenants.js';
import { rowCounts } from './support/row-counts.js';
import { adminProcedures, contractRoutes, objectShape, pathOf, type ContractRoute } from './support/surface.js';
import { arbitraryFor } from './support/zod-arbitrary.js';

/*
 * Tenancy matrix, generated from the contract: every route parameter or body
 * field that names a record (path parameters, fields named `…Id`, `cursor`) is
 * sent by organization A with the value of organization B's record. The answer
 * is the one the spec gives for "not in your context" and B's rows are unchanged;
 * a rejection changes no row at all. A new id field without a fixture fails the test.
 */

const app = useLedgerApp({ sandbox: { invoices: 4, items: 2 } });

const isIdField = (name: string) => /Id$/.test(name) || name === 'cursor';

/** Every (route, field) pair that names a record. */
function idFields(route: ContractRoute): { field: string; where: 'path' | 'query' | 'body' }[] {
  return [
    ...Object.keys(route.pathParams?.shape ?? {}).map((field) => ({ field, where: 'path' as const })),
    ...Object.keys(objectShape(route.query))
      .filter(isIdField)
      .map((field) => ({ field, where: 'query' as const })),
    ...Object.keys(objectShape(route.body))
      .filter(isIdField)
      .map((field) => ({ field, where: 'body' as const })),
  ];
}

interface Other {
  organizationId: string;
  invoiceId: string;
  ledgerInvoiceId: string;
  connectionId: string;
  cursor: string;
  preparationId: string;
  report: Record<string, unknown>;
}
const other = {} as Other;
const keys = {} as Record<Provider, string>;

/**
 * What B's value of a field must get when A sends it: 404 for records addressed
 * by the request (spec: out-of-scope invoice or connection), 400 for a
 * correlation or cursor the key cannot use (spec: enrichment reference outside
 * the integration; docs: invalid_cursor) or a context assertion that does not
 * match, and for business references (provider ids, event and attempt ids) an
 * ordinary answer for A's own context with B untouched.
 */
const FIXTURES: Record<string, { value: () => string; status: number; bodyStatus?: number; emptyList?: boolean }> = {
  invoiceId: { value: () => other.invoiceId, status: 404 },
  ledgerInvoiceId: { value: () => other.ledgerInvoiceId, status: 404, emptyList: true },
  // In a path it addresses the connection; in an invitation body it is a context assertion.
  connectionId: { value: () => other.connectionId, status: 404, bodyStatus: 400 },
  organizationId: { value: () => other.organizationId, status: 400 },
  cursor: { value: () => other.cursor, status: 400 },
  enrichmentRequestId: { value: () => other.preparationId, status: 400 },
  ...Object.fromEntries(
    ['eventId', 'attemptId', 'providerEventId', 'transactionId', 'merchantAccountId', 'paymentId', 'orderId', 'locationId']
      .concat(['paymentIntentId', 'chargeId', 'gwcAccountId'])
      .map((field) => [field, { value: () => String(other.report[field] ?? referenceFor(field)), status: 200 }]),
  ),
};

/** B's value of a provider reference, in the shape its schema requires. */
function referenceFor(field: string): string {
  const prefix: Record<string, string> = { paymentIntentId: 'pi_', chargeId: 'ch_', gwcAccountId: 'acct_', transactionId: '' };
  return `${prefix[field] ?? 'ref_'}tenancyb1`;
}

beforeAll(async () => {
  // B: a connected, synced accounting source, a linked gwc key, a preparation and a report carrying every reference.
  const b = await invoiceReader(app, 'gwc');
  other.organizationId = b.ledger.organizationId;
  other.connectionId = b.connectionId;
  const page = await app.request('/api/v1/invoices?limit=1', { key: b.key });
  other.cursor = page.body.data.nextCursor;
  const list = await app.request('/api/v1/invoices', { key: b.key });
  const invoice = list.body.data.invoices[0];
  other.invoiceId = invoice.id;
  other.ledgerInvoiceId = invoice.ledgerInvoiceId;
  const prepared = await app.request('/api/v1/gwc/payment-preparations/from-invoice', {
    method: 'POST',
    key: b.key,
    json: { invoiceId: invoice.id, amountMinor: invoice.totalAmountMinor, currency: invoice.currency, idempotencyKey: 'tenancy-b' },
  });
  expect(prepared.status).toBe(200);
  other.preparationId = prepared.body.preparation.id;
  const reporter = await issueKey(app, b.integrationId, ['payments:write']);
  other.report = reportFor.gwc({ enrichmentRequestId: other.preparationId, paymentIntentId: 'pi_tenancyb1', chargeId: 'ch_tenancyb1' });
  expect((await app.request('/api/v1/gwc/payment-reports', { method: 'POST', key: reporter.key, json: other.report })).status).toBe(200);

  // A: its own organization, a ledger key and a key of each payment provider linked to it.
  const a = await ledgerTenant(app);
  keys.ledger = a.key;
  for (const provider of ['gwa', 'gwb', 'gwc'] as const) {
    const integration = await adminCall<{ id: string }>(app, 'integrations.create', {
      organizationId: a.organizationId,
      provider,
      environment: 'sandbox',
    });
    await adminCall(app, 'links.create', { ledgerIntegrationId: a.integrationId, providerIntegrationId: integration.id });
    keys[provider] = (await issueKey(app, integration.id, ['enrichment:write', 'invoices:read', 'payments:write'])).key;
  }
});

/** B's rows: every table with an organization column, filtered to B, as text. */
async function rowsOf(organizationId: string): Promise<string> {
  const connection = app.orm.em.getConnection();
  const tables = await connection.execute<{ name: string }[]>(
    `select table_name as name from information_schema.columns where table_schema = 'public' and column_name = 'organization_id' order by 1`,
  );
  const parts = await Promise.all(
    tables.map(async ({ name }) => {
      const [row] = await connection.execute<{ rows: string | null }[]>(
        `select string_agg(t::text, '|' order by t::text) as rows from "${name}" t where organization_id = ?`,
        [organizationId],
      );
      return `${name}:${row?.rows ?? ''}`;
    }),
  );
  return parts.join('\n');
}

/** A request A may send to `route` (a sample of its schemas, with known-good bodies where the schema alone allows meaningless values). */
function baseRequest(route: ContractRoute): {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body?: Record<string, unknown>;
} {
  const sample = (schema: Parameters<typeof arbitraryFor>[0] | undefined) =>
    schema ? (fc.sample(arbitraryFor(schema), { seed: 1, numRuns: 1 })[0] as Record<string, unknown>) : {};
  const provider = (Array.isArray(route.access.provider) ? route.access.provider[0] : route.access.provider) as Provider;
  let body: Record<string, unknown> | undefined = route.body ? sample(route.body) : undefined;
  if (route.name.endsWith('reportPayment')) body = reportFor[provider as 'gwa' | 'gwb' | 'gwc']();
  if (route.name === 'ledger.createInvitation') body = { recipientEmail: `tenancy-${Date.now()}@example.test` };
  if (route.name === 'ledger.queueSync') body = {};
  return { params: sample(route.pathParams), query: {}, ...(body ? { body } : {}) };
}

const routes = contractRoutes();

describe('tenancy matrix', () => {
  it('when a route takes an id field, then the matrix has a fixture for it', () => {
    const missing = routes.flatMap((route) =>
      idFields(route)
        .filter(({ field }) => !FIXTURES[field])
        .map(({ field }) => `${route.name}.${field}`),
    );
    expect(missing).toEqual([]);
  });

  const cases = routes.flatMap((route) =>
    idFields(route).map(({ field, where }) => ({ name: `${route.name} ${where} ${field}`, route, field, where })),
  );

  it.each(cases)('when A sends B’s $name, then the spec’s answer and B is unchanged', async ({ route, field, where }) => {
    const fixture = FIXTURES[field]!;
    const request = baseRequest(route);
    const value = fixture.value();
    if (where === 'path') request.params[field] = value;
    if (where === 'query') request.query[field] = value;
    if (where === 'body') {
      // A preparation names its invoice by exactly one selector.
      if ((INVOICE_SELECTORS as readonly string[]).includes(field)) for (const s of INVOICE_SELECTORS) delete request.body![s];
      request.body![field] = value;
      if (route.body?.safeParse(request.body).success === false && route.name.includes('FromInvoice')) {
        Object.assign(request.body!, {
          amountMinor: 1000,
          currency: route.name.startsWith('gwa') ? 'usd' : 'usd',
          idempotencyKey: 'tenancy-a',
        });
      }
    }
    const provider = (Array.isArray(route.access.provider) ? route.access.provider[0] : route.access.provider) as Provider;
    const search = new URLSearchParams(Object.entries(request.query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    const beforeB = await rowsOf(other.organizationId);
    const beforeCounts = await rowCounts(app.orm);
    const res = await app.request(`${pathOf(route, request.params)}${search ? `?${search}` : ''}`, {
      method: route.method,
      key: keys[provider],
      ...(request.body ? { json: request.body } : {}),
    });
    const context = `${route.method} ${route.route.path} ${field}=${value} → ${res.status} ${res.text.slice(0, 300)}`;
    if (where === 'query' && fixture.emptyList) {
      expect(res.status, context).toBe(200);
      expect(res.body.data.invoices, context).toEqual([]);
    } else {
      expect(res.status, context).toBe(where === 'body' ? (fixture.bodyStatus ?? fixture.status) : fixture.status);
    }
    if (res.status >= 400) {
      expect(res.body.error.type, context).toBe(res.status === 404 ? 'not_found' : 'validation_error');
      expect(await rowCounts(app.orm), context).toEqual(beforeCounts);
    }
    expect(await rowsOf(other.organizationId), context).toBe(beforeB);
  });
});

describe('tenancy of operator procedures', () => {
  const procedures = adminProcedures().filter((p) => Object.keys(objectShape(p.input)).some(isIdField));

  it('when two integrations of different organizations are linked, then 400 organization_mismatch and nothing is stored', async () => {
    const a = await ledgerTenant(app);
    const b = await adminCall<{ id: string }>(app, 'integrations.create', {
      organizationId: other.organizationId,
      provider: 'gwa',
      environment: 'sandbox',
    });
    const before = await rowCounts(app.orm);
    const res = await app.admin<any>('links.create', { ledgerIntegrationId: a.integrationId, providerIntegrationId: b.id });
    expect(res.status).toBe(400);
    expect(res.body.error.data.issues[0]).toMatchObject({ code: 'organization_mismatch' });
    expect(await rowCounts(app.orm)).toEqual(before);
  });

  it.each(procedures.map((p) => ({ name: p.name, procedure: p })))(
    'when $name is given the id of another kind of record, then it answers not found or an empty list and changes nothing',
    async ({ procedure }) => {
      // B's organization id stands for "a record of another kind": no procedure but the organization ones may resolve it.
      const shape = objectShape(procedure.input);
      const input = fc.sample(arbitraryFor(procedure.input!), { seed: 3, numRuns: 1 })[0] as Record<string, unknown>;
      const base = input ?? {};
      for (const [field, schema] of Object.entries(shape)) {
        // An organization id is the right kind of record for an organizationId field.
        if ((!isIdField(field) && field !== 'id') || field === 'organizationId') continue;
        if (schema.safeParse(other.organizationId).success) base[field] = other.organizationId;
      }
      const before = await rowCounts(app.orm);
      const beforeB = await rowsOf(other.organizationId);
      const res = await app.admin<any>(procedure.name, base);
      const context = `${procedure.name} ${JSON.stringify(base)} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
      if (res.status === 200 && procedure.type === 'query') {
        if (!('organizationId' in shape)) expect(JSON.stringify(res.body), context).not.toContain(other.connectionId);
      } else {
        expect([400, 404], context).toContain(res.status);
        expect(await rowCounts(app.orm), context).toEqual(before);
      }
      expect(await rowsOf(other.organizationId), context).toBe(beforeB);
    },
  );
});
