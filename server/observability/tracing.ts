import { createRequire } from 'node:module';
import type { Span } from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import { enableDomainSpans } from './spans.js';

/** The request-id header (server/http/middleware/request-id.ts), read from the response the service sent. */
const REQUEST_ID_HEADER = 'x-svc-request-id';

export interface Tracing {
  /** Export what is buffered and stop. */
  shutdown(): Promise<void>;
}

/**
 * Traces with OpenTelemetry, off unless `OTEL_EXPORTER_OTLP_ENDPOINT` is set
 * (or a test passes its own span processor). Spans: the HTTP request (server
 * span, with the request id as `svc.request_id`), Express's routing, each domain
 * step (`inSpan`), each SQL statement (pg) and each ledger provider call.
 *
 * Must run before the instrumented modules are loaded: the instrumentations
 * patch `http`, `express` and `pg` when they are first required, so they are
 * required here, right after the SDK started, and every later `import` gets
 * the patched (shared) module. server/main.ts and server/jobs/worker.ts import
 * the rest of the service only after this.
 *
 * Nothing secret is recorded: no header (none is configured), no body, no
 * statement parameter (`enhancedDatabaseReporting` off), literals in SQL text
 * replaced by `?`, and URLs reduced to their route template, without query string
 * (a consent link's path holds a secret, an OAuth callback's query a code).
 */
export async function startTracing(
  config: Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_SERVICE_NAME'>,
  options: { spanProcessor?: SpanProcessor } = {},
): Promise<Tracing | undefined> {
  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint && !options.spanProcessor) return undefined;
  const [
    { NodeSDK },
    { BatchSpanProcessor },
    { OTLPTraceExporter },
    { HttpInstrumentation },
    { ExpressInstrumentation },
    { PgInstrumentation },
    api,
  ] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-express'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/api'),
  ]);
  const processor =
    options.spanProcessor ?? new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint!.replace(/\/+$/, '')}/v1/traces` }));
  const sdk = new NodeSDK({
    serviceName: config.OTEL_SERVICE_NAME,
    spanProcessors: [processor],
    // Traces only: the metrics are Prometheus' (/metrics), the logs pino's JSON lines. Without these the SDK would
    // also export OTLP metrics and logs to the same endpoint.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        // The metrics scrape and health probes would be most of the traces and say nothing.
        ignoreIncomingRequestHook: (req) => req.url === '/metrics' || req.url === '/healthz' || req.url === '/readyz',
        applyCustomAttributesOnSpan: (span, request, response) => {
          if ('getHeader' in response) describeServerSpan(span, request as IncomingMessage, response as ServerResponse);
        },
      }),
      new ExpressInstrumentation(),
      new PgInstrumentation({
        enhancedDatabaseReporting: false,
        // Statements outside a request or job (the queue's polling, start-up) would be a trace each, every half second.
        requireParentSpan: true,
        requestHook: (span, info) => {
          const text = redactLiterals(info.query.text);
          span.setAttribute('db.statement', text);
          span.setAttribute('db.query.text', text);
        },
      }),
    ],
  });
  sdk.start();
  // Load the instrumented CommonJS modules now, through require, so the patches apply before any import of them.
  const require = createRequire(import.meta.url);
  for (const name of ['node:http', 'node:https', 'express', 'pg']) require(name);
  enableDomainSpans(api.trace.getTracer('svc'));
  return { shutdown: () => sdk.shutdown() };
}

/**
 * The server span's request id, and its URL attributes reduced to the route
 * template (the same label as the request metrics) without query string.
 */
function describeServerSpan(span: Span, request: IncomingMessage, response: ServerResponse): void {
  const id = response.getHeader(REQUEST_ID_HEADER);
  if (typeof id === 'string') span.setAttribute('svc.request_id', id);
  const req = request as IncomingMessage & { tsRestRoute?: { path: string }; route?: { path?: unknown }; originalUrl?: string };
  const url = req.originalUrl ?? request.url ?? '';
  const path = url.split('?')[0]!;
  const template =
    req.tsRestRoute?.path ??
    (typeof req.route?.path === 'string' ? req.route.path : undefined) ??
    (path.startsWith('/admin/trpc/') ? path : path.startsWith('/ledger/') ? '/ledger/…' : path);
  for (const key of ['http.target', 'url.path', 'http.url', 'url.full']) span.setAttribute(key, template);
  span.setAttribute('url.query', '');
  span.setAttribute('http.route', template);
  span.updateName(`${request.method ?? 'HTTP'} ${template}`);
}

/** SQL text with its string and number literals replaced by `?` (values may be inlined by the ORM's `execute`). */
export function redactLiterals(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'/g, '?').replace(/(?<![\w$.])\d+(?:\.\d+)?\b/g, '?');
}
