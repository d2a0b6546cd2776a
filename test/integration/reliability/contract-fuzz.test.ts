import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema, type Provider, type Scope } from '../../../contract/common/index.js';
import { TEST_ADMIN_TOKEN } from '../../support/harness.js';
import { useLedgerApp } from '../../support/ledger-app.js';
import { adminCall, createTenant, issueKey } from '../../support/tenants.js';
import {
  adminEdgeProbes,
  adminProbes,
  apiEdgeProbes,
  apiProbes,
  expectedRejection,
  type AdminProbe,
  type ApiProbe,
} from './support/fuzz-probes.js';
import { rowCounts } from './support/row-counts.js';
import { pathSpellings, type Spelling } from './support/path-spellings.js';
import http from 'node:http';
import { adminProcedures, AdminErrorSchema, contractRoutes, documentedResponse, pathOf, type ContractRoute } from './support/surface.js';

/*
 * Contract-driven fuzzing of every `/api/v1` route and every operator procedure,
 * read from the ts-rest router and the admin router: valid requests, requests
 * one mutation away from valid, and hostile ones. Whatever is sent, the answer is
 * a documented status in the documented envelope, never a 5xx, and a rejected
 * request leaves every table's row count unchanged. Besides the random probes,
 * every target gets fixed edge probes: out-of-range and rolling-over dates and
 * forged cursors in each date or cursor field, control characters in every
 * string. Every route and procedure is also sent under other spellings of its
 * path (case, absolute form, percent-encoded letters, doubled slashes, dot
 * segments): each is refused with 400 before any gate. Fixed seed; FUZZ_RUNS and
 * FUZZ_SEED (set by `npm run fuzz -- --runs N`) make longer runs.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const BODY_LIMIT = 65_536;

const app = useLedgerApp({ sandbox: { invoices: 2, items: 1 }, config: { SVC_BODY_LIMIT_BYTES: String(BODY_LIMIT) } });

const SCOPES: Record<Provider, Scope[]> = {
  gwa: ['enrichment:write', 'invoices:read', 'payments:write'],
  gwb: ['enrichment:write', 'invoices:read', 'payments:write'],
  gwc: ['enrichment:write', 'invoices:read', 'payments:write'],
  ledger: ['integrations:write', 'integrations:read'],
};
const keys = {} as Record<Provider, string>;

beforeAll(async () => {
  // One organization with a key of every provider holding every scope it may hold, each payment integration linked to the ledger one.
  const ledger = await createTenant(app, { provider: 'ledger', scopes: SCOPES.ledger });
  keys.ledger = ledger.key;
  for (const provider of ['gwa', 'gwb', 'gwc'] as const) {
    const integration = await adminCall<{ id: string }>(app, 'integrations.create', {
      organizationId: ledger.organizationId,
      provider,
      environment: 'sandbox',
    });
    await adminCall(app, 'links.create', { ledgerIntegrationId: ledger.integrationId, providerIntegrationId: integration.id });
    keys[provider] = (await issueKey(app, integration.id, SCOPES[provider])).key;
  }
});

/** A stable per-target seed, so adding a route does not reshuffle the others' cases. */
const seedOf = (name: string) => [...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, SEED);

const keyFor = (route: ContractRoute) =>
  keys[(Array.isArray(route.access.provider) ? route.access.provider[0] : route.access.provider) as Provider];

async function send(route: ContractRoute, probe: ApiProbe) {
  const headers: Record<string, string> = { authorization: `Bearer ${keyFor(route)}` };
  if (probe.body) headers['content-type'] = probe.body.contentType ?? 'application/json';
  const res = await fetch(`${app.url}${probe.url}`, { method: route.method, headers, ...(probe.body ? { body: probe.body.text } : {}) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: safeJson(text) };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

describe.each(contractRoutes().map((route) => ({ name: route.name, route })))('fuzzing $name', ({ route }) => {
  it('answers every request with a documented status and envelope, never a 5xx, and stores nothing on a rejection', async () => {
    const limit = Math.min(BODY_LIMIT, route.access.maxBodyBytes ?? BODY_LIMIT);
    // Out-of-range dates, forged cursors and control characters in every field that reaches SQL, on every run.
    const edges = apiEdgeProbes(route, seedOf(route.name));
    await fc.assert(
      fc.asyncProperty(apiProbes(route, { bodyLimit: limit }), async (probe) => {
        const before = await rowCounts(app.orm);
        const res = await send(route, probe);
        const context = `${route.method} ${probe.url} [${probe.kind}: ${probe.label}] → ${res.status} ${res.text.slice(0, 400)}`;
        expect(res.status, context).toBeLessThan(500);
        const schema = documentedResponse(route, res.status);
        expect(schema, `undocumented status: ${context}`).toBeDefined();
        expect(schema!.safeParse(res.json).success, `body outside the documented schema: ${context}`).toBe(true);
        expect(res.headers.get('x-svc-request-id'), context).toMatch(/^req_[0-9a-f]{32}$/);

        const rejection =
          expectedRejection(probe.body, route.body, { limitBytes: limit, nestingGuard: true }) ?? (probe.paramsValid ? undefined : 400);
        if (rejection === 400 && !probe.paramsValid && res.status === 404) {
          // A path id of the right kind that names nothing answers 404 before its format is judged (e.g. invoice ids).
        } else if (rejection !== undefined) {
          expect(res.status, context).toBe(rejection);
        }
        if (probe.body?.expectIssue && res.status === 400) {
          expect(
            ErrorEnvelopeSchema.parse(res.json).error.issues.map((i) => i.code),
            context,
          ).toContain(probe.body.expectIssue);
        }
        if (res.status >= 400) expect(await rowCounts(app.orm), `stored on a rejection: ${context}`).toEqual(before);
      }),
      { seed: seedOf(route.name), numRuns: RUNS + edges.length, examples: edges.map((e) => [e]), endOnFailure: true },
    );
  });
});

/** A request with its target sent byte for byte (fetch normalizes dot segments and never sends an absolute form). */
function sendRaw(method: string, target: string, authorization: string): Promise<{ status: number; text: string; json: unknown }> {
  const url = new URL(app.url);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: target,
      method,
      agent: false,
      headers: { authorization, 'content-type': 'application/json' },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode!, text, json: safeJson(text) }));
    });
    req.on('error', reject);
    req.end(method === 'GET' ? undefined : '{}');
  });
}

/** Every other spelling of a path is refused with the one 400, with nothing stored. */
async function assertSpellingsRefused(name: string, method: string, path: string, staticEnd: number, authorization: string) {
  await fc.assert(
    fc.asyncProperty(pathSpellings(path, staticEnd), async (spelling: Spelling) => {
      const before = await rowCounts(app.orm);
      const res = await sendRaw(method, spelling.target, authorization);
      const context = `${method} ${spelling.target} [${spelling.label}] → ${res.status} ${res.text.slice(0, 300)}`;
      expect(res.status, context).toBe(400);
      expect(
        ErrorEnvelopeSchema.parse(res.json).error.issues.map((i) => i.code),
        context,
      ).toEqual(['non_canonical_path']);
      expect(await rowCounts(app.orm), `stored on a refusal: ${context}`).toEqual(before);
    }),
    { seed: seedOf(`${name} spellings`), numRuns: RUNS, endOnFailure: true },
  );
}

describe.each(contractRoutes().map((route) => ({ name: route.name, route })))('other spellings of $name', ({ route }) => {
  it('refuses every other spelling of the path with 400 before any gate, storing nothing', async () => {
    const params = Object.fromEntries([...route.route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => [m[1]!, 'Id-7']));
    const path = pathOf(route, params);
    await assertSpellingsRefused(route.name, route.method, path, route.route.path.split(':')[0]!.length, `Bearer ${keyFor(route)}`);
  });
});

describe.each([
  { name: 'gwa webhook', path: `/api/integrations/gwa/webhooks/${crypto.randomUUID()}` },
  { name: 'gwc webhook', path: `/api/integrations/gwc/webhooks/${crypto.randomUUID()}` },
])('other spellings of the $name route', ({ name, path }) => {
  it('refuses every other spelling of the path with 400 before any gate', async () => {
    await assertSpellingsRefused(name, 'POST', path, path.lastIndexOf('/') + 1, 'none');
  });
});

async function callAdmin(name: string, type: 'query' | 'mutation', probe: AdminProbe) {
  const url = `${app.url}/admin/trpc/${name}`;
  const authorization = `Bearer ${TEST_ADMIN_TOKEN}`;
  const res =
    type === 'query'
      ? await fetch(probe.body ? `${url}?input=${encodeURIComponent(probe.body.text)}` : url, { headers: { authorization } })
      : await fetch(url, {
          method: 'POST',
          headers: { authorization, 'content-type': probe.body?.contentType ?? 'application/json' },
          body: probe.body?.text ?? '',
        });
  const text = await res.text();
  return { status: res.status, text, json: safeJson(text) };
}

describe.each(adminProcedures())('other spellings of admin $name', ({ name, type }) => {
  it('refuses every other spelling of the path with 400 before the token or tRPC reads anything', async () => {
    const path = `/admin/trpc/${name}`;
    await assertSpellingsRefused(name, type === 'query' ? 'GET' : 'POST', path, '/admin/trpc/'.length, `Bearer ${TEST_ADMIN_TOKEN}`);
  });
});

describe.each(adminProcedures())('fuzzing admin $name', ({ name, type, input }) => {
  it('answers every input with a documented status and envelope, never a 5xx, and stores nothing on a rejection', async () => {
    const edges = adminEdgeProbes(input, seedOf(name));
    await fc.assert(
      fc.asyncProperty(adminProbes(input, { bodyLimit: BODY_LIMIT, query: type === 'query' }), async (probe) => {
        const before = await rowCounts(app.orm);
        const res = await callAdmin(name, type, probe);
        const context = `${type} ${name} [${probe.kind}: ${probe.label}] ${probe.body?.text.slice(0, 200)} → ${res.status} ${res.text.slice(0, 400)}`;
        expect(res.status, context).toBeLessThan(500);
        if (res.status === 200) {
          expect(res.json, context).toHaveProperty('result');
        } else {
          // Procedure errors come in tRPC's envelope; a body refused before tRPC (type, size, JSON) in the service's.
          const trpc = AdminErrorSchema.safeParse(res.json);
          const service = ErrorEnvelopeSchema.safeParse(res.json);
          expect(trpc.success || service.success, `undocumented envelope: ${context}`).toBe(true);
          if (trpc.success) expect(trpc.data.error.data.httpStatus, context).toBe(res.status);
          expect([400, 404, 409, 413, 415], context).toContain(res.status);
        }
        // A query's input travels in the URL, which the body's nesting guard does not see; its strict schema refuses such input anyway.
        const rejection = input
          ? expectedRejection(probe.body, input, { limitBytes: BODY_LIMIT, nestingGuard: type === 'mutation' })
          : undefined;
        if (rejection !== undefined) expect(res.status, context).toBe(rejection);
        if (res.status >= 400) expect(await rowCounts(app.orm), `stored on a rejection: ${context}`).toEqual(before);
      }),
      { seed: seedOf(name), numRuns: RUNS + edges.length, examples: edges.map((e) => [e]), endOnFailure: true },
    );
  });
});
