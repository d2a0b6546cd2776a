import { chmodSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../../server/persistence/embedded-postgres.js';
import { freePort } from '../../support/free-port.js';
import { gwbReport } from '../../support/reports.js';
import { spawnService, type ServiceProcess } from '../../support/service-process.js';
import { createTenant, type Tenant } from '../../support/tenants.js';
import { scratchDir } from '../../support/scratch.js';

/**
 * Database outage (docs/reliability.md): PostgreSQL is stopped (fast shutdown)
 * under load and started again. Requests meanwhile answer 503 in the error
 * envelope with Retry-After within the configured acquire timeout, never hang
 * or 500; /readyz says 503; the service recovers on its own; every report that
 * was acknowledged (2xx) is stored.
 */
const ACQUIRE_TIMEOUT_MS = 1500;
const STATEMENT_TIMEOUT_MS = 1000;
const POOL_MAX = 3;
/** Far above the acquire timeout: a request slower than this is a hang, whatever the machine's load. */
const HANG_MS = 10_000;

interface Outcome {
  eventId: string;
  status: number | 'transport_error';
  ms: number;
  body: any;
  retryAfter: string | null;
}

describe('PostgreSQL stopped and started again under load', () => {
  let dir: string;
  let port: number;
  let database: EmbeddedDatabase | undefined;
  let svc: ServiceProcess;
  let tenant: Tenant;

  const startDatabase = async () => {
    database = await startEmbeddedPostgres({ dataDir: dir, port, clusterDir: path.join(dir, 'pgdata'), persistent: true });
    return database;
  };

  beforeAll(async () => {
    dir = scratchDir('svc-outage-pg-');
    chmodSync(dir, 0o755);
    port = await freePort();
    const db = await startDatabase();
    svc = await spawnService({
      DATABASE_URL: db.url,
      SVC_DB_ACQUIRE_TIMEOUT_MS: String(ACQUIRE_TIMEOUT_MS),
      SVC_DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
      SVC_DB_POOL_MAX: String(POOL_MAX),
      LOG_LEVEL: 'error',
    });
    tenant = await createTenant(svc, { provider: 'gwb', scopes: ['payments:write'] });
  });
  afterAll(async () => {
    await svc?.close();
    await database?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const report = async (): Promise<Outcome> => {
    const body = gwbReport();
    const started = performance.now();
    try {
      const res = await svc.request('/api/v1/gwb/payment-reports', {
        method: 'POST',
        key: tenant.key,
        json: body,
        signal: AbortSignal.timeout(HANG_MS),
      });
      return {
        eventId: body.eventId as string,
        status: res.status,
        ms: performance.now() - started,
        body: res.body,
        retryAfter: res.headers.get('retry-after'),
      };
    } catch {
      return {
        eventId: body.eventId as string,
        status: 'transport_error',
        ms: performance.now() - started,
        body: undefined,
        retryAfter: null,
      };
    }
  };

  it('answers 503 with Retry-After while the database is down, recovers by itself, and loses no acknowledged report', async () => {
    const outcomes: Outcome[] = [];
    // Requests in the transitions (stopping, starting) may see either answer; only the steady phases are strict.
    let phase: 'before' | 'stopping' | 'down' | 'starting' | 'after' = 'before';
    const byPhase = {
      before: [] as Outcome[],
      stopping: [] as Outcome[],
      down: [] as Outcome[],
      starting: [] as Outcome[],
      after: [] as Outcome[],
    };
    let running = true;
    const load = Array.from({ length: 4 }, async () => {
      while (running) {
        const current = phase;
        const outcome = await report();
        outcomes.push(outcome);
        // A request that straddled a phase change is counted in no phase.
        if (current === phase) byPhase[current].push(outcome);
      }
    });

    await until(() => byPhase.before.length >= 40, 'reports before the outage');
    phase = 'stopping';
    await database!.stop();
    phase = 'down';
    await until(() => byPhase.down.length >= 20, 'reports during the outage');
    const ready = await svc.request('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ error: { type: 'service_unavailable', message: 'The database is not reachable', issues: [] } });
    expect(ready.headers.get('retry-after')).toBe('1');
    // The process itself is alive: liveness stays green, only readiness follows the database.
    expect((await svc.request('/healthz')).status).toBe(200);

    phase = 'starting';
    await startDatabase();
    // No restart of the service, no operator action: it reconnects on its own.
    await until(async () => (await svc.request('/readyz')).status === 200, 'readiness after the database is back', 30_000);
    phase = 'after';
    await until(() => byPhase.after.length >= 40, 'reports after the outage');
    running = false;
    await Promise.all(load);

    expect(byPhase.before.filter((o) => o.status !== 200)).toEqual([]);
    expect(byPhase.after.filter((o) => o.status !== 200)).toEqual([]);
    for (const o of byPhase.down) {
      expect(o.status).toBe(503);
      expect(o.retryAfter).toBe('1');
      expect(o.body).toEqual({
        error: {
          type: 'service_unavailable',
          message: 'The service cannot reach its database right now; retry with back-off.',
          issues: [],
        },
      });
    }
    // Across all phases, transitions included: only 200 or 503, each well within the hang bound.
    expect(new Set(outcomes.map((o) => o.status))).toEqual(new Set([200, 503]));
    expect(Math.max(...outcomes.map((o) => o.ms))).toBeLessThan(HANG_MS);

    const accepted = outcomes.filter((o) => o.status === 200).map((o) => o.eventId);
    const client = new pg.Client({ connectionString: database!.url });
    await client.connect();
    try {
      const stored = await client.query<{ event_id: string }>('select event_id from payment_observations where integration_id = $1', [
        tenant.integrationId,
      ]);
      const storedIds = stored.rows.map((r) => r.event_id);
      expect(new Set(storedIds).size).toBe(storedIds.length);
      // Every acknowledged report is stored; a 503 may or may not have been (its retry is deduplicated by eventId).
      expect(accepted.filter((id) => !storedIds.includes(id))).toEqual([]);
    } finally {
      await client.end();
    }
  }, 90_000);

  it('answers 503 instead of hanging when statements block: the statement timeout and the pool acquire timeout bound every request', async () => {
    // Another session holds the observations table: every report's insert waits on its lock.
    const blocker = new pg.Client({ connectionString: database!.url });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('lock table payment_observations in access exclusive mode');
      // More requests than pooled connections: some wait for a statement, the rest for a connection.
      const outcomes = await Promise.all(Array.from({ length: POOL_MAX * 3 }, () => report()));
      for (const o of outcomes) {
        expect(o.status).toBe(503);
        expect(o.retryAfter).toBe('1');
        expect(o.body.error.type).toBe('service_unavailable');
        expect(o.ms).toBeLessThan(HANG_MS);
      }
      // The database itself answers: the service is ready, only these statements were stuck.
      expect((await svc.request('/readyz')).status).toBe(200);
      await blocker.query('rollback');
      const after = await report();
      expect(after.status).toBe(200);
      const stored = await blocker.query('select event_id from payment_observations where event_id = any($1)', [
        outcomes.map((o) => o.eventId),
      ]);
      // A statement cancelled by the timeout rolled its transaction back: nothing half-written.
      expect(stored.rowCount).toBe(0);
    } finally {
      await blocker.end();
    }
  }, 60_000);
});

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
