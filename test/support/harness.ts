import type { MikroORM } from '@mikro-orm/postgresql';
import type { Express } from 'express';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect } from 'vitest';
import { ConfigSchema, type Config } from '../../server/config.js';
import { randomBytes } from 'node:crypto';
import { createApp } from '../../server/http/app.js';
import { createTokenCipher } from '../../server/crypto/token-cipher.js';
import { apiKeyMac } from '../../server/crypto/api-key-mac.js';
import { listen, type RunningServer } from '../../server/http/lifecycle.js';
import { createLogger } from '../../server/logger.js';
import { openOrm } from '../../server/persistence/orm.js';
import { procedureType } from '../../admin/procedure-catalog.js';
import { createTestDatabase } from './database.js';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef0123456789';

/** Log lines the app wrote, to assert on (and to prove secrets never reach them). */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text(): string {
    return this.lines.join('\n');
  }
}

export interface TestApp {
  url: string;
  orm: MikroORM;
  logs: LogCapture;
  config: Config;
  server: RunningServer;
  /** The Express application itself (for tests of how it is assembled). */
  express: Express;
  /** fetch against the app with JSON defaults. */
  request(path: string, init?: RequestInit & { json?: unknown; key?: string }): Promise<TestResponse>;
  admin<T = unknown>(procedure: string, input?: unknown, token?: string): Promise<{ status: number; body: T }>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** The configuration every test app starts from: a known admin token, and every response checked against the contract. */
export const TEST_CONFIG_DEFAULTS = { SVC_ADMIN_TOKEN: TEST_ADMIN_TOKEN, LOG_LEVEL: 'info', SVC_RESPONSE_VALIDATION: 'true' } as const;

/** JSON requests and operator calls against a running app at `baseUrl` (shared by every test harness). */
export function httpClient(baseUrl: () => string): Pick<TestApp, 'request' | 'admin'> {
  return {
    request: (path, init = {}) => {
      const headers = new Headers(init.headers);
      if (init.json !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
      if (init.key) headers.set('authorization', `Bearer ${init.key}`);
      return fetch(`${baseUrl()}${path}`, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body }).then(
        toTestResponse,
      );
    },
    admin: async <T>(procedure: string, input?: unknown, token = TEST_ADMIN_TOKEN) => {
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
      const url = `${baseUrl()}/admin/trpc/${procedure}`;
      const res =
        procedureType(procedure) === 'query'
          ? await fetch(`${url}?input=${encodeURIComponent(JSON.stringify(input ?? {}))}`, { headers })
          : await fetch(url, { method: 'POST', headers, body: JSON.stringify(input ?? {}) });
      const body = (await res.json()) as any;
      return { status: res.status, body: (body.result?.data ?? body) as T };
    },
  };
}

/**
 * Start the real app over real HTTP on a fresh migrated database for this test
 * file; torn down after the file's tests.
 */
export function useTestApp(overrides: Partial<Record<keyof Config, string>> = {}): TestApp {
  const app = {} as TestApp;
  let dropDatabase: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const db = await createTestDatabase();
    dropDatabase = db.drop;
    // Every response of every test is checked against the contract.
    const config = ConfigSchema.parse({
      ...TEST_CONFIG_DEFAULTS,
      ...overrides,
      DATABASE_URL: db.url,
      PORT: '0',
    });
    const logs = new LogCapture();
    const orm = await openOrm(db.url);
    // One token key, as `npm start` has: it encrypts webhook secrets and tags issued API keys.
    const tokenKey = randomBytes(32);
    const webhooks = {
      cipher: createTokenCipher(tokenKey),
      publicUrl: () => config.SVC_PUBLIC_URL ?? app.url,
      environment: config.SVC_ENVIRONMENT,
    };
    const express = createApp({
      orm,
      config,
      logger: createLogger(config.LOG_LEVEL, logs),
      adminToken: config.SVC_ADMIN_TOKEN!,
      keyMac: apiKeyMac(tokenKey),
      webhooks,
    });
    const server = await listen(express, 0, '127.0.0.1');
    Object.assign(app, {
      url: `http://127.0.0.1:${server.port}`,
      orm,
      logs,
      config,
      server,
      express,
      ...httpClient(() => app.url),
    });
  });
  afterAll(async () => {
    const watch = teardownWatch(await app.orm?.em.getConnection().getNativeClient());
    try {
      await app.server?.close(1000);
      watch.step('orm.close');
      await app.orm?.close(true);
      watch.step('drop database');
      await dropDatabase();
    } finally {
      watch.done();
    }
  });
  return app;
}

/**
 * A teardown that has not ended after 10 s says, on stderr, which step it is in and what the database pool holds: a
 * file's teardown has run into the 60 s hook bound twice in hundreds of runs, and this is what the next one should show.
 */
function teardownWatch(pool: { totalCount: number; idleCount: number; waitingCount: number } | undefined) {
  let step = 'server.close';
  const started = Date.now();
  const timer = setInterval(() => {
    const held = pool ? `; pool total ${pool.totalCount}, idle ${pool.idleCount}, waiting ${pool.waitingCount}` : '';
    process.stderr.write(`${expect.getState().testPath}: teardown in ${step} after ${Date.now() - started} ms${held}\n`);
  }, 10_000);
  timer.unref();
  return { step: (name: string) => void (step = name), done: () => clearInterval(timer) };
}

export async function toTestResponse(res: Response): Promise<TestResponse> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}
