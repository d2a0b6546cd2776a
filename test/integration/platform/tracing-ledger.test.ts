import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { startTracing } from '../../../server/observability/tracing.js';

// Tracing starts before the app's modules load (server/main.ts, server/jobs/worker.ts); spans stay in memory.
const exporter = new InMemorySpanExporter();
const tracing = await startTracing(
  { OTEL_EXPORTER_OTLP_ENDPOINT: undefined, OTEL_SERVICE_NAME: 'svc-test' },
  { spanProcessor: new SimpleSpanProcessor(exporter) },
);
const { useLedgerApp } = await import('../../support/ledger-app.js');
const { connect, ledgerTenant, waitForRun } = await import('../../support/ledger-flow.js');

const app = useLedgerApp({ sandbox: { invoices: 12, items: 6 } });
afterAll(() => tracing?.shutdown());

describe('traces of a ledger sync (OpenTelemetry, in-memory exporter)', () => {
  it('when a sync run is worked, then its attempt is one trace with the import step, its SQL and a span per provider call, without tokens or the realm', async () => {
    const tenant = await ledgerTenant(app);
    const connectionId = await connect(app, tenant);
    const res = await app.request(`/api/v1/integrations/ledger/${connectionId}/sync`, { method: 'POST', key: tenant.key });
    expect(res.status).toBe(202);
    expect(await waitForRun(app, tenant, connectionId)).toMatchObject({ state: 'succeeded' });

    const roots = exporter.getFinishedSpans().filter((s) => s.name === 'ledger_sync.import_run');
    expect(roots).toHaveLength(1);
    const root = roots[0]!;
    expect(root.parentSpanContext).toBeUndefined();
    const trace = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === root.spanContext().traceId);
    const provider = trace.filter((s) => s.name.startsWith('ledger.'));
    // One query per page of each entity at least, and the change feed or the token refresh when they happen.
    expect(provider.filter((s) => s.name === 'ledger.query').length).toBeGreaterThanOrEqual(1);
    expect(new Set(provider.map((s) => s.name))).toEqual(
      new Set(provider.map((s) => s.name).filter((n) => /^ledger\.(query|cdc|token|companyinfo)$/.test(n))),
    );
    expect(trace.filter((s) => s.name.startsWith('pg.query') && s.kind === SpanKind.CLIENT).length).toBeGreaterThan(provider.length);
    const ids = new Set(trace.map((s) => s.spanContext().spanId));
    for (const span of trace) if (span !== root) expect(ids.has(span.parentSpanContext!.spanId), span.name).toBe(true);

    const text = JSON.stringify(trace.map((s) => [s.name, s.attributes]));
    const [connection] = (await app.orm.em
      .getConnection()
      .execute('select access_token_enc, refresh_token_enc from ledger_connections')) as {
      access_token_enc: string;
      refresh_token_enc: string;
    }[];
    for (const secret of [connectionId, app.clientSecret, connection!.access_token_enc, connection!.refresh_token_enc])
      expect(text).not.toContain(secret);
  });
});
