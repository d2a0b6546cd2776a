import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../support/database.js';
import { TEST_ADMIN_TOKEN } from '../../support/harness.js';
import { parseExposition, sampleSum } from '../../support/metrics.js';
import { spawnService, type ServiceProcess } from '../../support/service-process.js';

/** One request on a connection of its own, so node:cluster hands the connections round the processes. */
const getOnNewConnection = (url: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    http
      .get(url, { agent: false, headers }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      })
      .on('error', reject);
  });

describe('metrics of a cluster (SVC_WORKERS=2)', () => {
  let service: ServiceProcess | undefined;
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await service?.close();
    await drop?.();
  });

  // Three processes start (primary and two HTTP processes): the test's bound is the start's, not the default 30 s.
  it(
    'when requests were spread over both processes, then /metrics in either serves the sum of all of them',
    { timeout: 90_000 },
    async () => {
      const db = await createTestDatabase();
      drop = db.drop;
      service = await spawnService({ DATABASE_URL: db.url, SVC_WORKERS: '2' }, { startTimeoutMs: 60_000 });
      for (let i = 0; i < 20; i++) expect((await getOnNewConnection(`${service.url}/healthz`)).status).toBe(200);

      for (let scrape = 0; scrape < 4; scrape++) {
        const res = await getOnNewConnection(`${service.url}/metrics`, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` });
        expect(res.status).toBe(200);
        const samples = parseExposition(res.body);
        // Each process served about half: only the aggregate reaches 20.
        expect(
          sampleSum(samples, 'svc_http_request_duration_seconds_count', { route: '/healthz', method: 'GET', status_class: '2xx' }),
        ).toBe(20);
        expect(sampleSum(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
      }
      expect((await getOnNewConnection(`${service.url}/metrics`)).status).toBe(401);
    },
  );
});
