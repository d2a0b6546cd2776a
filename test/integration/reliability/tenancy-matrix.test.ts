import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { INVOICE_SELECTORS } from '../../../contract/preparations.js';
import type { Provider } from '../../../contract/common/index.js';
import { useLedgerApp } from '../../support/ledger-app.js';
import { connect, ledgerTenant, waitForRun } from '../../support/ledger-flow.js';
import { reportFor } from '../../support/reports.js';
import { adminCall, createTenant, issueKey } from '../../support/tenants.js';
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
  /** The owner's integrations: its rows are those of these integrations. */
  integrationIds: string[];
  /** Distinguishes the owner's provider references (lowercase letters and digits, as every reference schema allows). */
  tag: string;
  invoiceId: string;
  ledgerInvoiceId: string;
  connectionId: string;
  cursor: string;
  preparationId: string;
  report: Record<string, unknown>;
}
/** Whose ids A sends: another organization's, and another integration's of A's own organization. */
const OWNERS = ['another organization', 'another integration'] as const;
type Owner = (typeof OWNERS)[number];
const owners = {} as Record<Owner, Other>;
const keys = {} as Record<Provider, string>;

/**
 * What B's value of a field must get when A sends it: 404 for records addressed
 * by the request (spec: out-of-scope invoice or connection), 400 for a
 * correlation or cursor the key cannot use (spec: enrichment reference outside
 * the integration; docs: invalid_cursor) or a context assertion that does not
 * match, and for business references (provider ids, event and attempt ids) an
 * ordinary answer for A's own context with B untouched.
 */
interface Fixture {
  value: (owner: Other) => string;
  status: number;
  bodyStatus?: number;
  emptyList?: boolean;
  /** Owners whose value is foreign to A (an organization id is A's own for another integration of A's organization). */
  owners?: readonly Owner[];
}
const FIXTURES: Record<string, Fixture> = {
  invoiceId: { value: (o) => o.invoiceId, status: 404 },
  ledgerInvoiceId: { value: (o) => o.ledgerInvoiceId, status: 404, emptyList: true },
  // In a path it addresses the connection; in an invitation body it is a context assertion.
  connectionId: { value: (o) => o.connectionId, status: 404, bodyStatus: 400 },
  organizationId: { value: (o) => o.organizationId, status: 400, owners: ['another organization'] },
  cursor: { value: (o) => o.cursor, status: 400 },
  enrichmentRequestId: { value: (o) => o.preparationId, status: 400 },
  ...Object.fromEntries(
    ['eventId', 'attemptId', 'providerEventId', 'transactionId', 'merchantAccountId', 'paymentId', 'orderId', 'locationId']
      .concat(['paymentIntentId', 'chargeId', 'gwcAccountId'])
      .map((field): [string, Fixture] => [field, { value: (o) => String(o.report[field] ?? referenceFor(field, o.tag)), status: 200 }]),
  ),
};

/** B's value of a provider reference, in the shape its schema requires. */
function referenceFor(field: string, tag: string): string {
  const prefix: Record<string, string> = { paymentIntentId: 'pi_', chargeId: 'ch_', gwcAccountId: 'acct_', transactionId: '' };
  return `${prefix[field] ?? 'ref_'}${tag}`;
}

/** A connected, synced accounting source, a linked gwc key, a preparation and a report carrying every reference. */
async function setUpOwner(tag: string, organizationId?: string): Promise<Other> {
  const ledger = await createTenant(app, {
    provider: 'ledger',
    scopes: ['integrations:write', 'integrations:read'],
    ...(organizationId ? { organizationId } : {}),
  });
  const connectionId = await connect(app, ledger);
  expect((await app.request(`/api/v1/integrations/ledger/${connectionId}/sync`, { method: 'POST', key: ledger.key })).status).toBe(202);
  expect(await waitForRun(app, ledger, connectionId)).toMatchObject({ state: 'succeeded' });
  const gwc = await createTenant(app, {
    provider: 'gwc',
    scopes: ['payments:write'],
    organizationId: ledger.organizationId,
  });
  await adminCall(app, 'links.create', { ledgerIntegrationId: ledger.integrationId, providerIntegrationId: gwc.integrationId });
  const { key } = await issueKey(app, gwc.integrationId, ['invoices:read', 'enrichment:write']);
  const page = await app.request('/api/v1/invoices?limit=1', { key });
  const invoice = page.body.data.invoices[0];
  const prepared = await app.request('/api/v1/gwc/payment-preparations/from-invoice', {
    method: 'POST',
    key,
    json: { invoiceId: invoice.id, amountMinor: invoice.totalAmountMinor, currency: invoice.currency, idempotencyKey: 'tenancy-owner' },
  });
  expect(prepared.status).toBe(200);
  const report = reportFor.gwc({
    enrichmentRequestId: prepared.body.preparation.id,
    paymentIntentId: referenceFor('paymentIntentId', tag),
    chargeId: referenceFor('chargeId', tag),
  });
  expect((await app.request('/api/v1/gwc/payment-reports', { method: 'POST', key: gwc.key, json: report })).status).toBe(200);
  return {
    organizationId: ledger.organizationId,
    integrationIds: [ledger.integrationId, gwc.integrationId],
    tag,
    connectionId,
    cursor: page.body.data.nextCursor,
    invoiceId: invoice.id,
    ledgerInvoiceId: invoice.ledgerInvoiceId,
    preparationId: prepared.body.preparation.id,
    report,
  };
}

beforeAll(async () => {
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
  owners['another organization'] = await setUpOwner('tenancyorg');
  owners['another integration'] = await setUpOwner('tenancyint', a.organizationId);
}, 60_000);

/** The owner's rows: every table with an integration column, filtered to the owner's integrations, as text. */
async function rowsOf(owner: Other): Promise<string> {
  const connection = app.orm.em.getConnection();
  const tables = await connection.execute<{ name: string }[]>(
    `select table_name as name from information_schema.columns where table_schema = 'public' and column_name = 'integration_id' order by 1`,
  );
  const parts = await Promise.all(
    tables.map(async ({ name }) => {
      const [row] = await connection.execute<{ rows: string | null }[]>(
        `select string_agg(t::text, '|' order by t::text) as rows from "${name}" t
          where integration_id::text in (select jsonb_array_elements_text(?::jsonb))`,
        [JSON.stringify(owner.integrationIds)],
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

  const cases = OWNERS.flatMap((owner) =>
    routes.flatMap((route) =>
      idFields(route)
        .filter(({ field }) => !FIXTURES[field]?.owners || FIXTURES[field]!.owners!.includes(owner))
        .map(({ field, where }) => ({ name: `${owner}: ${route.name} ${where} ${field}`, owner, route, field, where })),
    ),
  );

  it.each(cases)(
    'when A sends the id of $name, then the spec’s answer and the owner is unchanged',
    async ({ owner, route, field, where }) => {
      const fixture = FIXTURES[field]!;
      const other = owners[owner];
      const request = baseRequest(route);
      const value = fixture.value(other);
      if (where === 'path') request.params[field] = value;
      if (where === 'query') request.query[field] = value;
      if (where === 'body') {
        // A preparation names its invoice by exactly one selector.
        if ((INVOICE_SELECTORS as readonly string[]).includes(field)) for (const s of INVOICE_SELECTORS) delete request.body![s];
        request.body![field] = value;
        if (route.body?.safeParse(request.body).success === false && route.name.includes('FromInvoice')) {
          Object.assign(request.body!, {
            amountMinor: 1000,
            currency: 'usd',
            idempotencyKey: 'tenancy-a',
          });
        }
      }
      const provider = (Array.isArray(route.access.provider) ? route.access.provider[0] : route.access.provider) as Provider;
      const search = new URLSearchParams(Object.entries(request.query).map(([k, v]): [string, string] => [k, String(v)])).toString();
      const beforeB = await rowsOf(other);
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
      expect(await rowsOf(other), context).toBe(beforeB);
    },
  );
});

describe('tenancy of operator procedures', () => {
  const procedures = adminProcedures().filter((p) => Object.keys(objectShape(p.input)).some(isIdField));

  it('when two integrations of different organizations are linked, then 400 organization_mismatch and nothing is stored', async () => {
    const other = owners['another organization'];
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
      const other = owners['another organization'];
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
      const beforeB = await rowsOf(other);
      const res = await app.admin<any>(procedure.name, base);
      const context = `${procedure.name} ${JSON.stringify(base)} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
      if (res.status === 200 && procedure.type === 'query') {
        // A filter naming a record of another kind matches nothing: every list in the answer is empty.
        const lists = Array.isArray(res.body) ? [res.body] : Object.values(res.body ?? {}).filter(Array.isArray);
        expect(lists.length, context).toBeGreaterThan(0);
        expect(lists.flat(), context).toEqual([]);
      } else {
        expect([400, 404], context).toContain(res.status);
        expect(await rowCounts(app.orm), context).toEqual(before);
      }
      expect(await rowsOf(other), context).toBe(beforeB);
    },
  );
});
