import type autocannon from 'autocannon';
import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigSchema } from '../server/config.js';
import { createApp } from '../server/http/app.js';
import { listen, type RunningServer } from '../server/http/lifecycle.js';
import { createLogger } from '../server/logger.js';
import { startEmbeddedPostgres } from '../server/persistence/embedded-postgres.js';
import { migrate, openOrm } from '../server/persistence/orm.js';
import { createAdminCaller } from '../admin/router.js';
import { apiKeyMac } from '../server/crypto/api-key-mac.js';
import { randomBytes } from 'node:crypto';
import { createTokenCipher } from '../server/crypto/token-cipher.js';
import type { WebhookRuntime } from '../server/domain/gwa-webhooks/runtime.js';
import type { MikroORM } from '@mikro-orm/postgresql';

export const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef0123456789';

/**
 * Benchmarks drive one key far beyond the default per-key limit; the limiter
 * still runs (leasing from PostgreSQL as usual) but never refuses.
 */
export const UNLIMITED_RATE = {
  SVC_RATE_LIMIT_PER_SECOND: '1000000000',
  SVC_RATE_LIMIT_BURST: '1000000000',
  SVC_WEBHOOK_RATE_LIMIT_PER_SECOND: '1000000000',
  SVC_WEBHOOK_RATE_LIMIT_BURST: '1000000000',
} as const;

export interface BenchEnv {
  databaseUrl: string;
  /** The embedded PostgreSQL's data directory; undefined with BENCH_DATABASE_URL. */
  pgDataDir: string | undefined;
  orm: MikroORM;
  server: RunningServer;
  url: string;
  /** The provider webhook runtime the app serves deliveries with (a throw-away cipher key). */
  webhooks: WebhookRuntime;
  close(): Promise<void>;
}

/** The real service (log level warn) on a throw-away embedded PostgreSQL, or BENCH_DATABASE_URL. */
export async function startBenchService(): Promise<BenchEnv> {
  let stopDb = async () => {};
  let pgDataDir: string | undefined;
  let databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!databaseUrl) {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-'));
    chmodSync(dir, 0o755);
    const pg = await startEmbeddedPostgres({
      dataDir: dir,
      port: 40000 + Math.floor(Math.random() * 10000),
      clusterDir: path.join(dir, 'pgdata'),
      persistent: false,
    });
    databaseUrl = pg.url;
    pgDataDir = path.join(dir, 'pgdata');
    stopDb = async () => {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  const orm = await openOrm(databaseUrl, { pool: { min: 2, max: 10 } });
  await migrate(orm);
  const config = ConfigSchema.parse({ DATABASE_URL: databaseUrl, SVC_ADMIN_TOKEN: ADMIN_TOKEN, LOG_LEVEL: 'warn', ...UNLIMITED_RATE });
  let url = '';
  const webhooks: WebhookRuntime = {
    cipher: createTokenCipher(randomBytes(32)),
    publicUrl: () => url,
    environment: config.SVC_ENVIRONMENT,
  };
  const app = createApp({ orm, config, logger: createLogger('warn'), adminToken: ADMIN_TOKEN, keyMac: BENCH_KEY_MAC, webhooks });
  const server = await listen(app, 0, '127.0.0.1');
  url = `http://127.0.0.1:${server.port}`;
  return {
    databaseUrl,
    pgDataDir,
    orm,
    server,
    url,
    webhooks,
    close: async () => {
      await server.close(2000);
      await orm.close(true);
      await stopDb();
    },
  };
}

/** The tag of the keys every bench app issues and recognizes (as `npm start` derives it from its token key). */
export const BENCH_KEY_MAC = apiKeyMac(randomBytes(32));

/** An organization, integration and key made through the operator router itself. */
export async function benchKey(
  orm: MikroORM,
  provider: 'gwa' | 'gwb' | 'gwc',
  scopes: ('enrichment:write' | 'payments:write')[],
): Promise<string> {
  const admin = createAdminCaller({ orm, authorized: true, keyMac: BENCH_KEY_MAC });
  const org = await admin.organizations.create({ name: `bench ${provider}` });
  const integration = await admin.integrations.create({ organizationId: org.id, provider, environment: 'sandbox' });
  return (await admin.apiKeys.issue({ integrationId: integration.id, scopes })).key;
}

export interface Figures {
  name: string;
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  statusCodes: string;
  /** CPU time the load generator's process used for this load (its own count), ms. */
  generatorCpuMs: number;
}

const TSX = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
const GENERATOR = fileURLToPath(new URL('./load-generator.ts', import.meta.url));

/** Run one load in a separate process (32 connections, BENCH_SECONDS long, default 10). */
export async function load(name: string, options: autocannon.Options & { generator?: string; secret?: string }): Promise<Figures> {
  const config = { connections: 32, duration: Number(process.env.BENCH_SECONDS ?? 10), ...options };
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(TSX, [GENERATOR, JSON.stringify(config)], { maxBuffer: 64 * 1024 * 1024 }, (err, out) => (err ? reject(err) : resolve(out))),
  );
  const result = JSON.parse(stdout) as autocannon.Result & { generatorCpuMs: number };
  return {
    name,
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes: Object.entries(result.statusCodeStats ?? {})
      .map(([code, stat]) => `${code}×${(stat as { count: number }).count}`)
      .join(' '),
    generatorCpuMs: result.generatorCpuMs,
  };
}

export function printTable(rows: Figures[], baseline: Figures): void {
  console.log('| run | req/s | p50 ms | p99 ms | statuses | errors | throughput vs baseline | p99 vs baseline |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const ratio = ((r.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(0);
    const p99 = (r.p99 / baseline.p99).toFixed(1);
    console.log(`| ${r.name} | ${r.requestsPerSecond} | ${r.p50} | ${r.p99} | ${r.statusCodes} | ${r.errors} | ${ratio}% | ${p99}× |`);
  }
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** utime + stime (ticks) and parent of every process, from /proc; processes that vanish while read are skipped. */
function processTable(): Map<string, { ppid: string; ticks: number }> {
  const table = new Map<string, { ppid: string; ticks: number }>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the command name (which may hold spaces): state ppid … utime(14) stime(15), 1-based.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    table.set(pid, { ppid: fields[1]!, ticks: Number(fields[11]) + Number(fields[12]) });
  }
  return table;
}

/**
 * CPU time (ms) used so far by a process and all its descendants, from /proc. A process that exited is no longer
 * counted, so read it around loads on processes that stay up (a pool that keeps its connections). Undefined without /proc.
 */
export function processTreeCpuMs(rootPid: string | number): number | undefined {
  try {
    const table = processTable();
    const inTree = new Set([String(rootPid)]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const [pid, { ppid }] of table) {
        if (!inTree.has(pid) && inTree.has(ppid)) {
          inTree.add(pid);
          grew = true;
        }
      }
    }
    let ticks = 0;
    for (const pid of inTree) ticks += table.get(pid)?.ticks ?? 0;
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * CPU time (ms) used so far by the processes of an embedded PostgreSQL: the postmaster and its children (backends,
 * writer, WAL). Undefined without a data directory or /proc.
 */
export function postgresCpuMs(pgDataDir: string | undefined): number | undefined {
  if (pgDataDir === undefined) return undefined;
  try {
    return processTreeCpuMs(readFileSync(path.join(pgDataDir, 'postmaster.pid'), 'utf8').split('\n')[0]!.trim());
  } catch {
    return undefined;
  }
}

/** Busy CPU time (ms) of the whole machine so far, all cores (/proc/stat: everything but idle and iowait). */
export function machineBusyMs(): number | undefined {
  try {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
    const busy = ticks.slice(0, 8).reduce((sum, t, i) => (i === 3 || i === 4 ? sum : sum + t), 0);
    return (busy * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** One line per target: throughput ratio and p99 ratio against the baseline of the same run, and whether each is met. */
export function printTargets(baseline: Figures, targets: { run: Figures; minShare: number; maxP99Ratio?: number }[]): void {
  console.log('');
  for (const { run, minShare, maxP99Ratio } of targets) {
    const share = run.requestsPerSecond / baseline.requestsPerSecond;
    const p99Ratio = run.p99 / baseline.p99;
    const throughput = `${(share * 100).toFixed(0)}% of baseline (target ≥ ${minShare * 100}%: ${share >= minShare ? 'met' : 'NOT met'})`;
    const latency =
      maxP99Ratio === undefined
        ? `p99 ${p99Ratio.toFixed(1)}× baseline`
        : `p99 ${p99Ratio.toFixed(1)}× baseline (target ≤ ${maxP99Ratio}×: ${p99Ratio <= maxP99Ratio ? 'met' : 'NOT met'})`;
    console.log(`${run.name}: ${throughput}, ${latency}`);
  }
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The service as `npm start` runs it (its own processes, SVC_WORKERS of them)
 * on the bench's database, for the scale-out comparison. Resolves once it
 * prints its start-up line; `stop` sends SIGTERM and waits for exit.
 */
export async function startServiceProcess(
  databaseUrl: string,
  workers: number,
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-bench-proc-'));
  const child = spawn(TSX, ['server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      SVC_DATA_DIR: dataDir,
      SVC_ADMIN_TOKEN: ADMIN_TOKEN,
      SVC_WORKERS: String(workers),
      ...UNLIMITED_RATE,
      LOG_LEVEL: 'warn',
      LEDGER_WORKER: 'off',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /svc listening on http:\/\/localhost:(\d+)/.exec(out);
      if (match) resolve(`http://127.0.0.1:${match[1]}`);
    });
    child.once('exit', (code) => reject(new Error(`service exited with ${code} before listening`)));
  });
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Throughput of one load against the service run with 1 and then 2 processes (`npm start`, SVC_WORKERS), with where
 * the machine's CPU went during each load: the service's processes, PostgreSQL, the load generator, everything else.
 */
export async function printScaleOut(
  db: { databaseUrl: string; pgDataDir: string | undefined },
  target: { path: string; headers: Record<string, string>; generator: string },
): Promise<void> {
  const figures: Figures[] = [];
  const cpu: string[] = [];
  for (const workers of [1, 2]) {
    const service = await startServiceProcess(db.databaseUrl, workers);
    try {
      const options = {
        url: `${service.url}${target.path}`,
        method: 'POST' as const,
        headers: target.headers,
        generator: target.generator,
      };
      await load('warm-up', { ...options, duration: 2 });
      const before = { at: Date.now(), service: processTreeCpuMs(service.pid), pg: postgresCpuMs(db.pgDataDir), all: machineBusyMs() };
      const run = await load(`npm start, SVC_WORKERS=${workers}`, options);
      const wall = Date.now() - before.at;
      const used = (from: number | undefined, to: number | undefined) =>
        from === undefined || to === undefined ? NaN : (to - from) / wall;
      const [svc, pg, all] = [
        used(before.service, processTreeCpuMs(service.pid)),
        used(before.pg, postgresCpuMs(db.pgDataDir)),
        used(before.all, machineBusyMs()),
      ];
      const generator = run.generatorCpuMs / wall;
      figures.push(run);
      cpu.push(
        `| SVC_WORKERS=${workers} | ${svc.toFixed(2)} | ${pg.toFixed(2)} | ${generator.toFixed(2)} | ${(all - svc - pg - generator).toFixed(2)} | ${all.toFixed(2)} of ${availableParallelism()} |`,
      );
    } finally {
      await service.stop();
    }
  }
  printTable(figures, figures[0]!);
  console.log('\nCores busy during each load (CPU seconds per second):\n');
  console.log('| run | service | PostgreSQL | load generator | rest of the machine | machine |');
  console.log('|---|---|---|---|---|---|');
  for (const line of cpu) console.log(line);
  console.log(
    `\nscale-out: 2 processes give ${(figures[1]!.requestsPerSecond / figures[0]!.requestsPerSecond).toFixed(2)}× the throughput of 1`,
  );
}
