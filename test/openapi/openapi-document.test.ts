import SwaggerParser from '@apidevtools/swagger-parser';
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { requestExamples } from '../../contract/examples.js';
import { contract } from '../../contract/index.js';
import { gwcWebhookContract, webhookContract } from '../../contract/webhooks.js';

const root = path.resolve(import.meta.dirname, '../..');
const documentPath = path.join(root, 'openapi.json');
const readDocument = () => JSON.parse(readFileSync(documentPath, 'utf8'));

interface RouteEntry {
  key: string[];
  route: AppRoute;
}
function routesOf(router: AppRouter, prefix: string[] = []): RouteEntry[] {
  return Object.entries(router).flatMap(([key, value]) =>
    isAppRoute(value) ? [{ key: [...prefix, key], route: value }] : routesOf(value as AppRouter, [...prefix, key]),
  );
}
const routes = routesOf(contract);
const operationOf = (doc: any, route: AppRoute) => doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
const operationIdOf = (route: AppRoute) => (route.metadata as { operationId?: string } | undefined)?.operationId;

describe('openapi.json', () => {
  it('when validated with @apidevtools/swagger-parser, then it is a valid OpenAPI 3.0 document', async () => {
    const api = await SwaggerParser.validate(readDocument());
    expect(api).toHaveProperty('openapi', '3.0.2');
  });

  it('when linted with @redocly/cli (redocly.yaml), then there are zero errors', async () => {
    const bin = path.join(root, 'node_modules/@redocly/cli/bin/cli.js');
    const { stdout } = await promisify(execFile)(process.execPath, [bin, 'lint', documentPath, '--format=json'], {
      cwd: root,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((err: { stdout?: string; stderr?: string }) => {
      throw new Error(`redocly lint failed:\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
    });
    const report = JSON.parse(stdout.slice(stdout.indexOf('{')));
    const errors = report.problems.filter((p: { severity: string }) => p.severity === 'error');
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);

  it('when the contract has routes, then every route is documented with its operationId, tag, texts and every status', () => {
    const doc = readDocument();
    expect(routes.length).toBeGreaterThan(0);
    const ids = routes.map((r) => operationIdOf(r.route));
    expect(new Set(ids).size).toBe(ids.length);
    for (const { key, route } of routes) {
      const op = operationOf(doc, route);
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op.operationId).toBe(operationIdOf(route));
      expect(op.tags).toEqual([key[0]]);
      expect(op.summary).toBe(route.summary);
      expect(op.description).toBe(route.description);
      expect(Object.keys(op.responses).sort()).toEqual(Object.keys(route.responses).sort());
      for (const [status, response] of Object.entries<any>(op.responses)) {
        expect(response.description, `${op.operationId} ${status}`).not.toBe(status);
        expect(response.headers?.['x-svc-request-id']).toEqual({ $ref: '#/components/headers/RequestId' });
        expect(response.content?.['application/json']?.schema, `${op.operationId} ${status}`).toBeDefined();
      }
    }
    const tagNames = doc.tags.map((t: { name: string }) => t.name);
    expect(new Set(tagNames)).toEqual(new Set([...routes.map((r) => r.key[0]), 'gwaWebhooks', 'gwcWebhooks']));
  });

  it('when the provider-facing gwa webhook is documented, then it has its own tag, a form body, no bearer security and is not in the client contract', () => {
    const doc = readDocument();
    const webhookRoutes = routesOf(webhookContract);
    expect(webhookRoutes.map((r) => operationIdOf(r.route))).toEqual(['gwaWebhookReceive', 'gwaWebhookVerify']);
    for (const { route } of webhookRoutes) {
      const op = operationOf(doc, route);
      expect(op.tags).toEqual(['gwaWebhooks']);
      expect(op.security).toEqual([]);
      // Deliveries are rate-limited per endpoint (429); the handshake is not.
      const limited = route.method === 'POST' ? ['429'] : [];
      expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '404', '409', '410', '413', '415', ...limited, '500']);
      expect(route.path.startsWith('/api/v1')).toBe(false);
      expect(routes.some((r) => r.route.path === route.path)).toBe(false);
    }
    const post = doc.paths['/api/integrations/gwa/webhooks/{endpointId}'].post;
    expect(Object.keys(post.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
    expect(post.requestBody.content['application/x-www-form-urlencoded'].schema.required).toEqual(['gwa_signature', 'gwa_payload']);
    expect(post.responses['200'].content['application/json'].schema.required).toEqual(['received', 'kind', 'status', 'duplicate']);
    const get = doc.paths['/api/integrations/gwa/webhooks/{endpointId}'].get;
    expect(Object.keys(get.responses['200'].content)).toEqual(['text/plain']);
    expect(doc.tags.find((t: { name: string }) => t.name === 'gwaWebhooks').description).toMatch(/Not in the SDK/);
  });

  it('when the provider-facing gwc webhook is documented, then it has its own tag, a JSON event body, the signature header, no bearer security and is not in the client contract', () => {
    const doc = readDocument();
    const [receive, ...others] = routesOf(gwcWebhookContract);
    expect(others).toEqual([]);
    expect(operationIdOf(receive!.route)).toBe('gwcWebhookReceive');
    const op = operationOf(doc, receive!.route);
    expect(op.tags).toEqual(['gwcWebhooks']);
    expect(op.security).toEqual([]);
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '404', '409', '410', '413', '500']);
    expect(routes.some((r) => r.route.path === receive!.route.path)).toBe(false);
    const post = doc.paths['/api/integrations/gwc/webhooks/{endpointId}'].post;
    expect(Object.keys(post.requestBody.content)).toEqual(['application/json']);
    expect(post.requestBody.content['application/json'].schema.required).toEqual(['id', 'type', 'created', 'livemode', 'data']);
    expect(post.parameters.find((p: any) => p.in === 'header')).toMatchObject({ name: 'gwc-signature', required: true });
    expect(post.responses['200'].content['application/json'].schema.properties.status.enum).toContain('requires_action');
    expect(doc.tags.find((t: { name: string }) => t.name === 'gwcWebhooks').description).toMatch(/Not in the SDK/);
  });

  it('when a route answers with the common error envelope, then the response points at the ErrorEnvelope component', () => {
    const doc = readDocument();
    expect(doc.components.schemas.ErrorEnvelope.properties.error.required).toEqual(['type', 'message', 'issues']);
    for (const { route } of routes) {
      const op = operationOf(doc, route);
      for (const status of ['400', '401', '403', '413', '415', '500']) {
        expect(op.responses[status].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
      }
    }
  });

  it('when a route takes a body, then the document carries a request example that the contract accepts', () => {
    const doc = readDocument();
    for (const { route } of routes) {
      if (route.method === 'GET' || !('body' in route) || !route.body) continue;
      const id = operationIdOf(route)!;
      const example = requestExamples[id];
      expect(example, `contract/examples.ts has no example for ${id}`).toBeDefined();
      const parsed = (route.body as z.ZodTypeAny).safeParse(example!.value);
      expect(parsed.success, `${id}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      const op = operationOf(doc, route);
      expect(op.requestBody.required).toBe(!(route.body as z.ZodTypeAny).isOptional());
      expect(op.requestBody.content['application/json'].examples.example.value).toEqual(example!.value);
    }
  });

  it('when a route takes path or query parameters, then each is documented with a description and its rules', () => {
    const doc = readDocument();
    for (const { route } of routes) {
      for (const parameter of operationOf(doc, route).parameters ?? []) {
        expect(parameter.description, `${operationIdOf(route)} ${parameter.name}`).toEqual(expect.any(String));
        expect(parameter.required ?? false).toBe(parameter.in === 'path');
      }
    }
    const list = doc.paths['/api/v1/invoices'].get;
    const byName = Object.fromEntries(list.parameters.map((p: { name: string }) => [p.name, p]));
    expect(Object.keys(byName)).toEqual(['ledgerInvoiceId', 'invoiceNumber', 'cursor', 'limit']);
    expect(byName.limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 25 });
    expect(byName.cursor.schema).toMatchObject({ type: 'string', minLength: 1, maxLength: 512 });
    expect(byName.cursor.description).toMatch(/nextCursor.*identical filters.*invalid_cursor/);
    expect(byName.invoiceNumber.description).toMatch(/ambiguous_invoice_number/);
    expect(doc.tags.find((t: { name: string }) => t.name === 'invoices').description).toMatch(/invoices:read.*linked/);
  });

  it('when the API is called, then the bearer security scheme applies to every operation', () => {
    const doc = readDocument();
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    for (const { route } of routes) expect(operationOf(doc, route).security).toBeUndefined();
  });

  it('when an amount is nonnegative or positive, then the schema says so with 3.0 bounds', () => {
    const doc = readDocument();
    const report = doc.paths['/api/v1/gwc/payment-reports'].post.requestBody.content['application/json'].schema;
    expect(report.properties.amountMinor).toMatchObject({ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
    const text = JSON.stringify(doc);
    expect(text).not.toContain(`"minimum":${Number.MIN_SAFE_INTEGER}`);
    expect(text).not.toMatch(/"exclusiveM(in|ax)imum":-?\d/);
  });
});
