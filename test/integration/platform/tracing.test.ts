import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { startTracing } from '../../../server/observability/tracing.js';
import { gwcReport } from '../../support/reports.js';

// Tracing starts before the app's modules load, as server/main.ts does it; the exporter keeps the spans in memory.
const exporter = new InMemorySpanExporter();
const tracing = await startTracing(
  { OTEL_EXPORTER_OTLP_ENDPOINT: undefined, OTEL_SERVICE_NAME: 'svc-test' },
  { spanProcessor: new SimpleSpanProcessor(exporter) },
);
const { useTestApp } = await import('../../support/harness.js');
const { createTenant } = await import('../../support/tenants.js');

const app = useTestApp();
afterAll(() => tracing?.shutdown());

/** The finished spans of the trace whose server span carries this request id, once that span has ended. */
async function traceOf(requestId: string): Promise<ReadableSpan[]> {
  for (let i = 0; i < 100; i++) {
    const server = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER && s.attributes['svc.request_id'] === requestId);
    if (server) return exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === server.spanContext().traceId);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no server span with request id ${requestId}`);
}

const attributesText = (spans: ReadableSpan[]) => JSON.stringify(spans.map((s) => [s.name, s.attributes]));

describe('traces (OpenTelemetry, in-memory exporter)', () => {
  it('when tracing is not configured, then nothing starts', async () => {
    expect(await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: undefined, OTEL_SERVICE_NAME: 'svc' })).toBeUndefined();
  });

  it('when two payment reports are sent, then each is one trace: the request span with its request id, the domain step and its SQL statements, nothing secret', async () => {
    const tenant = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const reports = [gwcReport({ amountMinor: 86420, capturedAmountMinor: 86420 }), gwcReport()];
    const traces: ReadableSpan[][] = [];
    for (const report of reports) {
      const res = await app.request('/api/v1/gwc/payment-reports', { method: 'POST', key: tenant.key, json: report });
      expect(res.status).toBe(200);
      traces.push(await traceOf(res.headers.get('x-svc-request-id')!));
    }
    const [first, second] = traces as [ReadableSpan[], ReadableSpan[]];
    expect(first[0]!.spanContext().traceId).not.toBe(second[0]!.spanContext().traceId);

    for (const spans of traces) {
      const server = spans.filter((s) => s.kind === SpanKind.SERVER);
      expect(server).toHaveLength(1);
      // The request span is the trace's root; every other span descends from it.
      expect(server[0]!.parentSpanContext).toBeUndefined();
      expect(server[0]!.name).toBe('POST /api/v1/gwc/payment-reports');
      expect(server[0]!.attributes).toMatchObject({
        'http.route': '/api/v1/gwc/payment-reports',
        'http.target': '/api/v1/gwc/payment-reports',
        'svc.request_id': expect.stringMatching(/^req_[0-9a-f]{32}$/),
      });
      const ids = new Set(spans.map((s) => s.spanContext().spanId));
      for (const span of spans) if (span !== server[0]) expect(ids.has(span.parentSpanContext!.spanId), span.name).toBe(true);

      const step = spans.filter((s) => s.name === 'payment_report.record');
      expect(step).toHaveLength(1);
      const sql = spans.filter((s) => s.attributes['db.system.name'] === 'postgresql' && s.name.startsWith('pg.query'));
      expect(sql.length).toBeGreaterThanOrEqual(1);
      for (const statement of sql) {
        expect(statement.attributes['db.statement']).toEqual(expect.stringMatching(/^\s*(select|insert|with|update)\b/i));
        expect(statement.attributes).not.toHaveProperty('db.postgresql.values');
      }
    }
    // No key, event id, attempt id or amount in any span: parameters and bodies are not recorded.
    const text = attributesText([...first, ...second]);
    for (const secret of [tenant.key, String(reports[0]!.eventId), String(reports[0]!.attemptId), '86420'])
      expect(text).not.toContain(secret);
  });

  it('when a consent link is opened, then its span names the route, never the secret in the path or the query', async () => {
    const secret = randomBytes(32).toString('base64url');
    const res = await app.request(`/ledger/connect/${secret}?state=${secret}`);
    const spans = await traceOf(res.headers.get('x-svc-request-id')!);
    expect(spans.length).toBeGreaterThan(0);
    expect(attributesText(spans)).not.toContain(secret);
    expect(spans.map((s) => s.name).join(' ')).not.toContain(secret);
  });
});
