import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import type { z } from 'zod';
import { requestExamples } from './examples.js';
import { contract } from './index.js';
import { INVOICE_PAGE_DEFAULT } from './invoices.js';
import { gwcWebhookContract, webhookContract } from './webhooks.js';

/** What the document describes: the client contract and the provider-facing webhook routes (not in the SDK). */
const documented = { ...contract, ...webhookContract, ...gwcWebhookContract };

export const API_TITLE = 'svc: invoice-backed payment enrichment and payment reporting';

/** Tag descriptions; a resource without an entry still gets a tag (routes are picked up from the contract). */
const TAG_DESCRIPTIONS: Record<string, string> = {
  gwa: 'Card gateway A: Level 2/3 transaction fields and payment reports.',
  gwb: 'Payments provider B: order fragments and payment reports.',
  gwc: 'Payments provider C: PaymentIntent `payment_details`/`amount_details` and payment reports.',
  invoices:
    'Invoices imported from the accounting source, with readiness for the calling key’s provider. Needs a gwa, gwb or gwc key with ' +
    'scope `invoices:read` whose integration an operator has linked to the accounting-source integration; only the linked sources’ ' +
    'invoices of the same organization and environment are visible.',
  ledger: 'The accounting-source connection: invitations and invoice syncs.',
  gwaWebhooks:
    'Called by the gwa provider, never by clients: signed, form-encoded notifications of one registered endpoint. Not in the SDK.',
  gwcWebhooks:
    'Called by the gwc provider, never by clients: signed JSON events of one registered endpoint, which become provider-verified payment ' +
    'evidence. Not in the SDK.',
};

/**
 * Defaults the server applies to absent query parameters, by operationId: zod's
 * `.default()` would change the contract's inferred input types, so the
 * document states them here from the contract's own constants.
 */
const QUERY_DEFAULTS: Record<string, Record<string, unknown>> = {
  listInvoices: { limit: INVOICE_PAGE_DEFAULT },
};

/** What each status means, for responses whose schema carries no description of its own (spec: Errors). */
const STATUS_DESCRIPTIONS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted: queued, not yet done',
  '400':
    'The body violates the strict contract, is not valid JSON, or carries credentials or card data; every issue is listed. Correct the request; do not retry it unchanged',
  '401': 'Missing, malformed, unknown or revoked API key',
  '403': "The key's provider, scopes or environment do not allow this call",
  '404': "No such resource in the key's context",
  '409': 'Conflicts with what is already recorded; reconcile rather than retry',
  '413': 'The request body is larger than this endpoint accepts',
  '415': 'The request body is not `application/json`',
  '422': 'Well-formed but cannot be processed; every issue is listed',
  '429': 'Too many requests; retry after `Retry-After` seconds when present',
  '500': 'Unexpected server failure; safe to retry with back-off only for GET reads and calls carrying an idempotency key or event id',
  '502': 'A party the service depends on failed',
  '503': 'The service is not ready',
};

const REQUEST_ID_HEADER = {
  description:
    'Diagnostic identifier of this request (`req_` + 32 hex digits); not a business identity. For an inline enrichment it is the `enrichmentRequestId` to report.',
  schema: { type: 'string', pattern: '^req_[0-9a-f]{32}$' },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the OpenAPI document is edited as untyped JSON
type Json = Record<string, any>;

/**
 * @anatine/zod-openapi writes number checks one by one (so `.nonnegative().safe()`
 * ends with `minimum: -2^53+1`) and emits OpenAPI 3.1's numeric `exclusiveMinimum`
 * in a 3.0 document. Give every number schema of the contract its combined,
 * 3.0-valid bounds as OpenAPI metadata, which anatine merges last.
 */
function normalizeNumberBounds(schema: z.ZodTypeAny | undefined, seen = new Set<unknown>()): void {
  if (!schema || typeof schema !== 'object' || !('_def' in schema) || seen.has(schema)) return;
  seen.add(schema);
  const def = (schema as { _def: Json })._def;
  const walk = (child: unknown) => normalizeNumberBounds(child as z.ZodTypeAny, seen);
  switch (def.typeName) {
    case 'ZodNumber':
      (schema as Json).metaOpenApi = { ...((schema as Json).metaOpenApi ?? {}), ...numberBounds(def.checks ?? []) };
      return;
    case 'ZodObject':
      Object.values(typeof def.shape === 'function' ? def.shape() : def.shape).forEach(walk);
      walk(def.catchall);
      return;
    case 'ZodArray':
      walk(def.type);
      return;
    case 'ZodRecord':
      walk(def.valueType);
      return;
    case 'ZodEffects':
      walk(def.schema);
      return;
    case 'ZodUnion':
    case 'ZodDiscriminatedUnion':
      for (const option of def.options as unknown[]) walk(option);
      return;
    case 'ZodIntersection':
      walk(def.left);
      walk(def.right);
      return;
    case 'ZodPipeline':
      walk(def.in);
      walk(def.out);
      return;
    default:
      if (def.innerType) walk(def.innerType);
  }
}

function numberBounds(checks: { kind: string; value?: number; inclusive?: boolean }[]): Json {
  const isInteger = checks.some((c) => c.kind === 'int');
  let min: { value: number; inclusive: boolean } | undefined;
  let max: { value: number; inclusive: boolean } | undefined;
  for (const c of checks) {
    if (c.kind === 'min' && c.value !== undefined && (!min || c.value > min.value || (c.value === min.value && !c.inclusive))) {
      min = { value: c.value, inclusive: c.inclusive ?? true };
    }
    if (c.kind === 'max' && c.value !== undefined && (!max || c.value < max.value || (c.value === max.value && !c.inclusive))) {
      max = { value: c.value, inclusive: c.inclusive ?? true };
    }
  }
  const out: Json = {};
  if (min) {
    if (isInteger) out.minimum = min.inclusive ? Math.ceil(min.value) : Math.floor(min.value) + 1;
    else Object.assign(out, { minimum: min.value, exclusiveMinimum: !min.inclusive });
    if (isInteger) out.exclusiveMinimum = false;
  }
  if (max) {
    if (isInteger) out.maximum = max.inclusive ? Math.floor(max.value) : Math.ceil(max.value) - 1;
    else Object.assign(out, { maximum: max.value, exclusiveMaximum: !max.inclusive });
    if (isInteger) out.exclusiveMaximum = false;
  }
  return out;
}

function eachRoute(router: AppRouter, visit: (route: AppRoute) => void): void {
  for (const value of Object.values(router)) {
    if (isAppRoute(value)) visit(value);
    else eachRoute(value as AppRouter, visit);
  }
}

/** Drop `exclusiveMinimum/Maximum: false` (the 3.0 default) so the document stays terse. */
function dropFalseExclusives(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) dropFalseExclusives(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const obj = node as Json;
  if (obj.exclusiveMinimum === false) delete obj.exclusiveMinimum;
  if (obj.exclusiveMaximum === false) delete obj.exclusiveMaximum;
  Object.values(obj).forEach(dropFalseExclusives);
}

const withoutDescription = (schema: Json) => {
  const { description: _ignored, ...rest } = schema;
  return JSON.stringify(rest);
};

/**
 * Every response documents `x-svc-request-id` (and 429 its `Retry-After`), gets a
 * readable description, and error bodies that are exactly the common envelope
 * point at one `ErrorEnvelope` component (so generated clients get one named type).
 * The envelope's JSON schema is the one generated for the 401 response, which
 * every route has (contract/common/responses.ts).
 */
function describeResponses(document: Json): void {
  const operations = Object.values(document.paths as Json).flatMap((item) => Object.values(item as Json)) as Json[];
  const envelope = operations.map((op) => op.responses?.['401']?.content?.['application/json']?.schema).find(Boolean) as Json | undefined;
  const envelopeJson = envelope ? withoutDescription(envelope) : undefined;
  for (const op of operations) {
    for (const [status, response] of Object.entries(op.responses as Json)) {
      if (response.description === status || response.description === envelope?.description)
        response.description = STATUS_DESCRIPTIONS[status] ?? status;
      response.headers = { 'x-svc-request-id': { $ref: '#/components/headers/RequestId' } };
      if (status === '429') response.headers['Retry-After'] = { description: 'Seconds to wait, when present', schema: { type: 'integer' } };
      const content = response.content?.['application/json'];
      if (envelopeJson && content?.schema && withoutDescription(content.schema) === envelopeJson) {
        content.schema = { $ref: '#/components/schemas/ErrorEnvelope' };
      }
    }
  }
  if (envelope) {
    document.components.schemas = {
      ...(document.components.schemas ?? {}),
      ErrorEnvelope: { ...envelope, description: 'Error envelope of the payment, enrichment and invoice endpoints' },
    };
  }
}

/** The OpenAPI document, generated from the contract alone. */
export function buildOpenApiDocument() {
  eachRoute(documented, (route) => {
    if ('body' in route) normalizeNumberBounds(route.body as z.ZodTypeAny);
    if (route.query) normalizeNumberBounds(route.query as z.ZodTypeAny);
    if (route.pathParams) normalizeNumberBounds(route.pathParams as z.ZodTypeAny);
    for (const r of Object.values(route.responses)) normalizeNumberBounds(r as z.ZodTypeAny);
  });

  const document = generateOpenApi(
    documented,
    {
      info: {
        title: API_TITLE,
        version: 'v1',
        description: [
          "HTTP JSON API called from a merchant's trusted server, with `Authorization: Bearer <API key>` (one key per provider integration, merchant and environment).",
          'Every response carries `x-svc-request-id`, a diagnostic identifier. Errors use `{error: {type, message, issues}}`; the ' +
            'accounting-source (`ledger`) endpoints may instead answer with a top-level string `error`, so branch on the HTTP status and ' +
            'tolerate both.',
          'Retry guidance: correct 400/422 request facts; repair 401/403; reconcile 409 rather than retrying; retry 408, 429, 5xx and ' +
            'transport errors under bounded back-off only for GET reads (they change nothing) and calls that carry an idempotency key or an ' +
            'event id. Retrying a service call never justifies repeating a provider payment.',
        ].join('\n\n'),
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key issued for one provider integration.' },
        },
        headers: { RequestId: REQUEST_ID_HEADER },
      },
      security: [{ bearerAuth: [] }],
    },
    {
      jsonQuery: false,
      // Leaf names repeat across resources (gwa.reportPayment, gwb.reportPayment), so
      // each route names its own unique operationId in its metadata.
      operationMapper: (operation, route) => {
        const operationId = (route.metadata as { operationId?: string } | undefined)?.operationId;
        const op = { ...operation, operationId } as Json;
        if ((route.metadata as { webhook?: boolean } | undefined)?.webhook) {
          // The provider authenticates by signature, not by bearer key; the handshake answers text/plain.
          op.security = [];
          if (route.method === 'GET') op.responses['200'].content = { 'text/plain': op.responses['200'].content['application/json'] };
          if (op.requestBody) op.requestBody.required = true;
          if (op.requestBody && op.requestBody.content?.['application/x-www-form-urlencoded']) {
            op.requestBody.description = 'Form-encoded body (`application/x-www-form-urlencoded`)';
          }
        }
        for (const parameter of (op.parameters ?? []) as Json[]) {
          const fallback = parameter.in === 'query' && operationId ? QUERY_DEFAULTS[operationId]?.[parameter.name] : undefined;
          if (fallback !== undefined) parameter.schema = { ...parameter.schema, default: fallback };
        }
        const example = operationId ? requestExamples[operationId] : undefined;
        const media = op.requestBody?.content?.['application/json'];
        if (media) {
          const body = 'body' in route ? (route.body as z.ZodTypeAny | null) : null;
          op.requestBody.required = !(body && typeof body.isOptional === 'function' && body.isOptional());
          op.requestBody.description = 'Request body (JSON)';
          if (example) media.examples = { example: { summary: example.summary, value: example.value } };
        }
        return op as typeof operation;
      },
    },
  ) as Json;

  describeResponses(document);
  const tags = new Set<string>();
  for (const pathItem of Object.values(document.paths as Json)) {
    for (const op of Object.values(pathItem as Json)) for (const tag of (op as Json).tags ?? []) tags.add(tag);
  }
  document.tags = [...tags].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `Endpoints of ${name}.` }));
  dropFalseExclusives(document);
  return document;
}

/** The exact text of the committed `openapi.json`. */
export function serializeOpenApi(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
