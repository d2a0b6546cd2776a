import express from 'express';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { listen } from '../../../server/http/lifecycle.js';
import { QUEUE_SETUP_LOCK } from '../../../server/jobs/queue-setup-lock.js';
import { createTestDatabase } from '../../support/database.js';
import { freePort } from '../../support/free-port.js';
import { compiledEntry } from '../../support/service-build.js';
import { scratchDir } from '../../support/scratch.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

function startService(env: Record<string, string>): Started {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['DATABASE_URL', 'TEST_DATABASE_URL'].includes(k)));
  // Compiled, as `npm start` runs it, by `node` itself (test/support/service-build.ts).
  const child = spawn(process.execPath, compiledEntry('server/main'), {
    cwd: ROOT,
    env: { ...clean, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exit };
}

async function waitForLine(started: Started, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const line = started
      .stdout()
      .split('\n')
      .find((l) => l.startsWith('svc listening on '));
    if (line) return line;
    if (started.child.exitCode !== null) throw new Error(`service exited: ${started.stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no start-up line; stderr: ${started.stderr()}`);
}

describe('graceful shutdown of the HTTP server', () => {
  it('when closing with a request in flight, then the request completes and new connections are refused', async () => {
    // The handler tells the test when it has the request and answers only when released: no timing guesses.
    let arrived!: () => void;
    const requestArrived = new Promise<void>((r) => (arrived = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const app = express();
    app.get('/slow', async (_req, res) => {
      arrived();
      await released;
      res.json({ done: true });
    });
    const server = await listen(app, 0, '127.0.0.1');
    const url = `http://127.0.0.1:${server.port}`;
    const inFlight = fetch(`${url}/slow`).then((r) => r.json());
    await requestArrived;
    const closed = server.close(5_000);
    release();
    await expect(inFlight).resolves.toEqual({ done: true });
    await closed;
    await expect(fetch(`${url}/slow`)).rejects.toThrow();
  });
});

describe('npm start', () => {
  it('when DATABASE_URL is set, then it prints one start-up line without the password, is ready, and stops on SIGTERM', async () => {
    const db = await createTestDatabase({ migrated: false });
    const port = await freePort();
    const dataDir = scratchDir('svc-start-');
    const started = startService({ DATABASE_URL: db.url, PORT: String(port), SVC_DATA_DIR: dataDir });
    try {
      const line = await waitForLine(started);
      const password = decodeURIComponent(new URL(db.url).password);
      expect(
        line.startsWith(
          `svc listening on http://localhost:${port} (database: postgres://postgres@${new URL(db.url).host}/${db.name}; ` +
            `admin token in ${path.relative(ROOT, path.join(dataDir, 'admin-token'))}; accounting source: ledger sandbox at http://127.0.0.1:`,
        ),
      ).toBe(true);
      expect(line).toMatch(/; mail: .+\)$/);
      expect(started.stdout()).not.toContain(password);
      expect(started.stdout().trim().split('\n')).toHaveLength(1);
      expect(statSync(path.join(dataDir, 'admin-token')).mode & 0o777).toBe(0o600);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready' });
      started.child.kill('SIGTERM');
      expect(await started.exit).toBe(0);
    } finally {
      started.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      await db.drop();
    }
  });

  it('when no DATABASE_URL is set, then it starts an embedded PostgreSQL and a second start reuses its data', async () => {
    const dataDir = scratchDir('svc-embedded-');
    chmodSync(dataDir, 0o755);
    const env = { PORT: String(await freePort()), SVC_DATA_DIR: dataDir, SVC_EMBEDDED_PG_PORT: String(await freePort()) };
    try {
      const first = startService(env);
      expect(await waitForLine(first)).toMatch(/\(database: embedded PostgreSQL in .*pgdata \(new\); admin token in /);
      const ready = await fetch(`http://127.0.0.1:${env.PORT}/readyz`);
      expect(ready.status).toBe(200);
      first.child.kill('SIGINT');
      expect(await first.exit).toBe(0);

      const second = startService(env);
      expect(await waitForLine(second)).toMatch(/\(database: embedded PostgreSQL in .*pgdata \(reused\); admin token in /);
      second.child.kill('SIGTERM');
      expect(await second.exit).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('when SVC_WORKERS=2, then two processes serve one port, and SIGTERM drains both and exits 0', { timeout: 90_000 }, async () => {
    const db = await createTestDatabase({ migrated: false });
    const port = await freePort();
    const dataDir = scratchDir('svc-cluster-');
    const started = startService({ DATABASE_URL: db.url, PORT: String(port), SVC_DATA_DIR: dataDir, SVC_WORKERS: '2', LOG_LEVEL: 'info' });
    try {
      const line = await waitForLine(started);
      expect(line.startsWith(`svc listening on http://localhost:${port} (2 processes; database: postgres://postgres@`)).toBe(true);
      // Like one process, the line says where the generated admin token is, and never the token itself.
      expect(line).toContain(`; admin token in ${path.relative(process.cwd(), path.join(dataDir, 'admin-token'))};`);
      expect(line).not.toContain(readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim());
      // New connections are handed to the processes in turn; each logs the requests it served under its number.
      for (let i = 0; i < 10; i++) {
        const res = await fetch(`http://127.0.0.1:${port}/readyz`, { headers: { connection: 'close' } });
        expect(res.status).toBe(200);
      }
      const servedBy = () =>
        new Set(
          started
            .stdout()
            .split('\n')
            .filter((l) => l.includes('"path":"/readyz"'))
            .map((l) => (JSON.parse(l) as { process: number }).process),
        );
      // A process replaced meanwhile (id 3) fails here; say why, from what the service printed.
      await expect
        .poll(servedBy)
        .toEqual(new Set([1, 2]))
        .catch((err: Error) => {
          const exits = started
            .stdout()
            .split('\n')
            .filter((l) => l.includes('HTTP process exited'));
          throw new Error(`${err.message}\nexits: ${exits.join('\n')}\nstderr: ${started.stderr()}`);
        });

      started.child.kill('SIGTERM');
      expect(await started.exit).toBe(0);
      const stopped = started
        .stdout()
        .split('\n')
        .filter((l) => l.includes('"msg":"stopped"'))
        .map((l) => (JSON.parse(l) as { process?: number }).process ?? 'primary');
      expect(stopped.sort()).toEqual([1, 2, 'primary']);
    } finally {
      started.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      await db.drop();
    }
  });

  // Three processes start here (primary and two HTTP processes): on a loaded 2-core machine that alone can take half a minute.
  it('when processes start together on a fresh database, then they set up the job queue one at a time', { timeout: 90_000 }, async () => {
    // Two processes installing pg-boss and creating its queue at once deadlocked (one start failed); they take turns.
    const db = await createTestDatabase({ migrated: false });
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    await holder.query(QUEUE_SETUP_LOCK.sql, [...QUEUE_SETUP_LOCK.params]);
    const port = await freePort();
    const dataDir = scratchDir('svc-cluster-');
    const started = startService({ DATABASE_URL: db.url, PORT: String(port), SVC_DATA_DIR: dataDir, SVC_WORKERS: '2', LOG_LEVEL: 'info' });
    try {
      // While the lock is held elsewhere, both processes wait for it and neither serves.
      const waiting = async () =>
        (await holder.query<{ n: number }>(`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`)).rows[0]!
          .n;
      await expect.poll(waiting, { timeout: 60_000, interval: 200 }).toBe(2);
      expect(started.stdout()).not.toContain('svc listening on');

      await holder.end();
      expect(await waitForLine(started)).toContain('(2 processes;');
      expect(started.stdout()).not.toContain('HTTP process exited');
      started.child.kill('SIGTERM');
      expect(await started.exit).toBe(0);
    } finally {
      started.child.kill('SIGKILL');
      await holder.end().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
      await db.drop();
    }
  });

  it('when a setting is invalid, then it exits non-zero naming the variable but not its value', async () => {
    const started = startService({ PORT: 'not-a-port', SVC_ENVIRONMENT: 'staging', SVC_ADMIN_TOKEN: 'short-secret' });
    expect(await started.exit).toBe(78);
    expect(started.stderr()).toContain('PORT: must be a port number');
    expect(started.stderr()).toContain('SVC_ENVIRONMENT:');
    expect(started.stderr()).toContain('SVC_ADMIN_TOKEN: must be at least 32 characters');
    expect(started.stderr()).not.toContain('short-secret');
  });
});
