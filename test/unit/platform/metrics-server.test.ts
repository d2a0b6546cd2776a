import { afterAll, describe, expect, it } from 'vitest';
import { serveMetrics } from '../../../server/observability/metrics-server.js';
import { syncRunMetrics } from '../../../server/observability/business-metrics.js';
import { parseExposition, sampleValue } from '../../support/metrics.js';

const TOKEN = 'worker-metrics-token-0123456789abcdef012345';

describe('metrics endpoint of a worker process (SVC_WORKER_METRICS_PORT)', () => {
  let server: Awaited<ReturnType<typeof serveMetrics>> | undefined;
  afterAll(() => server?.close());

  it('when scraped with its token, then it answers the process registry; without it 401, elsewhere 404', async () => {
    server = await serveMetrics({ port: 0, host: '127.0.0.1', token: TOKEN });
    const url = `http://127.0.0.1:${server.port}`;
    syncRunMetrics.finished('failed', 'ledger_throttled', 12);

    const ok = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const samples = parseExposition(await ok.text());
    expect(sampleValue(samples, 'svc_sync_runs_total', { state: 'failed', reason: 'ledger_throttled' })).toBe(1);
    expect(sampleValue(samples, 'svc_sync_run_duration_seconds_bucket', { state: 'failed', le: '15' })).toBe(1);
    expect(sampleValue(samples, 'svc_sync_run_duration_seconds_bucket', { state: 'failed', le: '5' })).toBe(0);
    // The process registry's own metrics are served. Not `> 0`: prom-client counts CPU since its previous collection,
    // which another file in this worker may have made a clock tick earlier.
    expect(sampleValue(samples, 'process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0);
    expect(sampleValue(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);

    const refused = await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer not-it' } });
    expect(refused.status).toBe(401);
    expect(await refused.text()).toBe('');
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    expect((await fetch(`${url}/other`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });
});
