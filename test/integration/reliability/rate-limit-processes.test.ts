import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../support/database.js';
import { gwcReport } from '../../support/reports.js';
import { spawnService, type ServiceProcess } from '../../support/service-process.js';
import { createTenant, issueKey, type Tenant } from '../../support/tenants.js';

/**
 * The per-key rate limit holds across service processes sharing one database
 * (docs/reliability.md, "Rate limits"): two real processes, one key, a burst of
 * 20 refilled at 1 per second, each process leasing 5 tokens at a time.
 */
const BURST = 20;
const PER_SECOND = 1;
const LEASE = 5;

describe('rate limit across two service processes', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let tenant: Tenant;

  beforeAll(async () => {
    db = await createTestDatabase();
    const env = {
      DATABASE_URL: db.url,
      SVC_RATE_LIMIT_BURST: String(BURST),
      SVC_RATE_LIMIT_PER_SECOND: String(PER_SECOND),
      SVC_RATE_LIMIT_LEASE: String(LEASE),
      LEDGER_WORKER: 'off',
    };
    a = await spawnService(env);
    b = await spawnService(env);
    tenant = await createTenant(a, { provider: 'gwc', scopes: ['payments:write'] });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  const report = (svc: ServiceProcess, key: string) =>
    svc.request('/api/v1/gwc/payment-reports', { method: 'POST', key, json: gwcReport() }).then((res) => ({ svc, res }));

  it('admits at most the burst plus the refill across both processes, refuses the rest with 429 and Retry-After, and stores nothing refused', async () => {
    const started = Date.now();
    const outcomes = [];
    // 60 requests, alternating between the processes, 6 in flight at a time.
    for (let i = 0; i < 10; i++) {
      outcomes.push(...(await Promise.all(Array.from({ length: 6 }, (_, j) => report(j % 2 === 0 ? a : b, tenant.key)))));
    }
    const elapsedSeconds = (Date.now() - started) / 1000;

    const accepted = outcomes.filter((o) => o.res.status === 200);
    const refused = outcomes.filter((o) => o.res.status !== 200);
    // Never more than the shared bucket allows; a limit per process would have admitted up to twice the burst.
    expect(accepted.length).toBeLessThanOrEqual(BURST + Math.ceil(elapsedSeconds * PER_SECOND));
    // Tokens a process leased and could not spend are lost, at most one lease less one token per process.
    expect(accepted.length).toBeGreaterThanOrEqual(BURST - 2 * (LEASE - 1));
    expect(accepted.filter((o) => o.svc === a).length).toBeGreaterThan(0);
    expect(accepted.filter((o) => o.svc === b).length).toBeGreaterThan(0);
    for (const { res } of refused) {
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(res.body).toEqual({
        error: {
          type: 'rate_limited',
          message: `Too many requests for this API key (at most ${PER_SECOND} per second, bursts up to ${BURST}); retry after ${res.headers.get('retry-after')} s`,
          issues: [],
        },
      });
    }

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const stored = await client.query('select count(*)::int as n from payment_observations where integration_id = $1', [
        tenant.integrationId,
      ]);
      expect(stored.rows[0].n).toBe(accepted.length);
    } finally {
      await client.end();
    }

    // After the announced delay a request of the same key is admitted again, by either process. The wait is real on
    // purpose: what is claimed is that waiting Retry-After is enough, and a process refuses a key it found empty
    // in memory until then, by its own clock (`emptyUntil` in server/domain/rate-limit/key-rate-limiter.ts), which
    // the test cannot move in a spawned process without a clock hook in production code. Moving the bucket row's
    // refilled_at back instead still gets 429 from both processes. The refill itself is tested without waiting in
    // rate-limit-bucket.test.ts.
    const retryAfter = Math.max(...refused.map((o) => Number(o.res.headers.get('retry-after'))));
    await new Promise((r) => setTimeout(r, retryAfter * 1000));
    expect((await report(b, tenant.key)).res.status).toBe(200);
  }, 60_000);

  it('keeps one bucket per key: another key of the same integration is not limited by the first', async () => {
    const other = await issueKey(a, tenant.integrationId, ['payments:write']);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => report(i % 2 === 0 ? a : b, other.key)));
    expect(results.map((r) => r.res.status)).toEqual(Array.from({ length: 10 }, () => 200));
  }, 30_000);
});
