/**
 * The benches' harness. Everything measured runs as production runs it, each in its own process:
 * - the service exactly as `npm start` runs it (`node [its options] scripts/start.mjs`: the compiled `dist/`, built first when
 *   stale), production defaults apart from the lifted rate limits below and `LOG_LEVEL` (`warn` unless set);
 * - each baseline (`bench/baseline-server.mjs`: a bare Express 5 echo, + 1 INSERT, + HMAC verify + 1 INSERT) on
 *   plain Node;
 * - the load generator (`bench/load-generator.ts`).
 * The bench's own process starts them, a throw-away embedded PostgreSQL (or BENCH_DATABASE_URL) they share, and
 * makes its setup data through the service's operator API (/admin/trpc) or a direct database connection.
 */
import type autocannon from 'autocannon';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import pg from 'pg';
import { startEmbeddedPostgres } from '../server/persistence/embedded-postgres.js';
import { freePort } from '../test/support/free-port.js';

/**
 * Collect garbage now, between two timed runs, so neither pays for the other's: `global.gc` exists only under
 * `--expose-gc`, which `tsx` (how `npm run bench:*` starts a bench) does not pass, so the flag is set here.
 */
export function collectGarbage(): void {
  if (!global.gc) v8.setFlagsFromString('--expose-gc');
  const gc = global.gc ?? (vm.runInNewContext('gc') as () => void);
  gc();
}

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

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The Node options of `npm start` (package.json's `start` script, `node [options] scripts/start.mjs`): the service is
 * started with exactly these, so a setting of the production start is measured as production runs it.
 */
export const START_NODE_OPTIONS: readonly string[] = (() => {
  const start = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const words = start.trim().split(/\s+/);
  if (words[0] !== 'node' || words.at(-1) !== 'scripts/start.mjs')
    throw new Error(`npm start is not \`node [options] scripts/start.mjs\`: ${start}`);
  return words.slice(1, -1);
})();
const TSX = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
const GENERATOR = fileURLToPath(new URL('./load-generator.ts', import.meta.url));
const BASELINE = fileURLToPath(new URL('./baseline-server.mjs', import.meta.url));

export interface BenchDatabase {
  url: string;
  /** The embedded PostgreSQL's data directory; undefined with BENCH_DATABASE_URL. */
  pgDataDir: string | undefined;
  stop(): Promise<void>;
}

/** A throw-away embedded PostgreSQL (its own processes), or BENCH_DATABASE_URL. The service migrates it on start. */
export async function startDatabase(): Promise<BenchDatabase> {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, pgDataDir: undefined, stop: async () => {} };
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-'));
  chmodSync(dir, 0o755);
  const pg = await startEmbeddedPostgres({
    dataDir: dir,
    port: await freePort(),
    clusterDir: path.join(dir, 'pgdata'),
    persistent: false,
  });
  return {
    url: pg.url,
    pgDataDir: path.join(dir, 'pgdata'),
    stop: async () => {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ServiceProcess {
  url: string;
  pid: number;
  /** SIGTERM (graceful shutdown, which also writes a `--cpu-prof` profile) and wait for the exit. */
  stop(): Promise<void>;
}

/** Resolves with the first match of `pattern` on the child's stdout; rejects if the child exits first. */
/** The first match of `pattern` in the child's stdout; rejects when the child exits before printing it. */
export function awaitLine(child: ChildProcess, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onExit = (code: number | null) => reject(new Error(`${what} exited with ${code} before listening`));
    child.once('exit', onExit);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = pattern.exec(out);
      if (match) {
        child.off('exit', onExit);
        resolve(match);
      }
    });
  });
}

function stopper(child: ChildProcess, cleanup = () => {}): () => Promise<void> {
  const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  return async () => {
    if (child.exitCode === null) await settle([child.pid!]);
    child.kill('SIGTERM');
    await exited;
    cleanup();
  };
}

/**
 * The service as `npm start` runs it: `node [npm start's options] [nodeFlags] scripts/start.mjs` (no tsx, no npm wrapper, so `pid` is the
 * service's own process), on `db`, port chosen by the system, a throw-away SVC_DATA_DIR, the bench's admin token and
 * the lifted rate limits; `env` adds or overrides settings (SVC_WORKERS, SVC_RATE_LIMIT_LEASE, ...). Every other
 * setting keeps its production default. Start services one after the other: a stale dist/ is rebuilt by the first.
 */
export async function startService(
  db: { url: string },
  options: { env?: Record<string, string>; nodeFlags?: string[] } = {},
): Promise<ServiceProcess> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-bench-data-'));
  const child = spawn(process.execPath, [...START_NODE_OPTIONS, ...(options.nodeFlags ?? []), 'scripts/start.mjs'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: db.url,
      PORT: '0',
      HOST: '127.0.0.1',
      SVC_DATA_DIR: dataDir,
      SVC_ADMIN_TOKEN: ADMIN_TOKEN,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      ...UNLIMITED_RATE,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [, port] = await awaitLine(child, /svc listening on http:\/\/localhost:(\d+)/, 'the service');
  // Its log lines (warn and above) go on to the bench's stdout.
  child.stdout!.on('data', (chunk: Buffer) => process.stdout.write(chunk));
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: stopper(child, () => rmSync(dataDir, { recursive: true, force: true })),
  };
}

/**
 * Waits until the processes (and their children) are idle: under 5 % of a core over 200 ms, at most 20 s. A load
 * generator stops at its deadline with requests still queued in the server; the next load (or a shutdown) waits for
 * that backlog instead of sharing the machine with it.
 */
export async function settle(pids: number[]): Promise<void> {
  const cpu = () => pids.reduce((sum, pid) => sum + (processTreeCpuMs(pid) ?? 0), 0);
  const deadline = Date.now() + 20_000;
  let before = cpu();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = cpu();
    if (now - before < 10) return;
    before = now;
  }
}

export type BaselineKind = 'echo' | 'insert' | 'hmac-insert';

/**
 * A bare Express 5 baseline on plain Node in its own process (`bench/baseline-server.mjs`): `echo` parses and echoes
 * a JSON body; `insert` does one single-row INSERT per request; `hmac-insert` verifies a gwc signature over the raw
 * body with `secret` and does the INSERT. The INSERTs use `db` with a pool the size of the service's (10).
 */
export async function startBaseline(kind: BaselineKind, options: { db?: { url: string }; secret?: string } = {}): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [BASELINE, kind], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      BASELINE_DATABASE_URL: options.db?.url ?? '',
      BASELINE_SECRET: options.secret ?? '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [, port] = await awaitLine(child, /baseline listening on (\d+)/, `the ${kind} baseline`);
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: stopper(child) };
}

/** One operator call over HTTP (tRPC without a transformer: a mutation is a POST of the input, a query a GET). */
export async function admin<T>(
  service: { url: string },
  procedure: string,
  input: unknown,
  kind: 'mutation' | 'query' = 'mutation',
): Promise<T> {
  const base = `${service.url}/admin/trpc/${procedure}`;
  const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const res =
    kind === 'mutation'
      ? await fetch(base, { method: 'POST', headers, body: JSON.stringify(input) })
      : await fetch(`${base}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${procedure}: ${res.status} ${text.slice(0, 500)}`);
  return (JSON.parse(text) as { result: { data: T } }).result.data;
}

/** An organization, a sandbox integration of `provider` and a key, made through the service's operator API. */
export async function benchKey(
  service: { url: string },
  provider: 'gwa' | 'gwb' | 'gwc',
  scopes: ('enrichment:write' | 'payments:write' | 'invoices:read')[],
): Promise<string> {
  const org = await admin<{ id: string }>(service, 'organizations.create', { name: `bench ${provider}` });
  const integration = await admin<{ id: string }>(service, 'integrations.create', {
    organizationId: org.id,
    provider,
    environment: 'sandbox',
  });
  return (await admin<{ key: string }>(service, 'apiKeys.issue', { integrationId: integration.id, scopes })).key;
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

export type LoadOptions = autocannon.Options & { generator?: string; secret?: string; randomKeys?: boolean };

/** Run one load in a separate process (32 connections, BENCH_SECONDS long, default 10). */
export async function load(name: string, options: LoadOptions): Promise<Figures> {
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

/** The machine's load average (1, 5, 15 min), printed with every result: figures taken on a busy machine are noise. */
export function machineLoad(): string {
  return `load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`;
}

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A path measured against a baseline, with the targets of docs/performance.md ("Targets"). */
export interface Measured {
  name: string;
  options: LoadOptions;
  /** Least share of the baseline's throughput. */
  minShare?: number;
  /** Most p99 as a multiple of the baseline's. */
  maxP99Ratio?: number;
}

export interface Ratios {
  name: string;
  throughput: number[];
  p99: number[];
}

/**
 * A production database's statistics describe tables that hold rows; the bench's starts empty. A statement the service
 * prepares by name is planned on the statistics of its first executions, and PostgreSQL keeps that plan until the
 * table is analyzed: autovacuum does so within about a minute of the rows arriving, but a load of a few seconds per
 * round grows an empty table to tens of thousands of rows first. Planned on an empty `tracked_payments`, the
 * deliveries' statement looked payments up through an index matching two of its three columns, and each round was
 * slower than the one before (910 → 658 deliveries per second over three rounds). So the warm-up's rows are analyzed,
 * which makes every connection plan its statements again, as autovacuum would in production.
 */
async function analyzeAfterWarmUp(database: BenchDatabase): Promise<void> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query('analyze');
  } finally {
    await client.end();
  }
}

/**
 * Every target warmed (BENCH_WARMUP_SECONDS, default 2), then BENCH_ROUNDS rounds (default 3, at least 3 for figures
 * of record) of: the baseline, then each path, one load each (BENCH_SECONDS). Each round's ratios use that round's
 * baseline, so drift on a shared machine moves both; printed per round and then as the median over the rounds with
 * their spread (lowest-highest), against each path's target.
 */
export async function compareInRounds(
  baseline: { name: string; options: LoadOptions },
  paths: Measured[],
  /** The processes under load (service, baseline): each load starts once they are idle (`settle`). */
  processes: { pid: number }[],
  /** The database they write: its statistics are brought up to date after the warm-up (`analyzeAfterWarmUp`). */
  database: BenchDatabase,
): Promise<Ratios[]> {
  const pids = processes.map((p) => p.pid);
  const measure = async (name: string, options: LoadOptions) => {
    await settle(pids);
    return load(name, options);
  };
  const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
  for (const target of [baseline, ...paths]) await measure('warm-up', { ...target.options, duration: warmup });
  await analyzeAfterWarmUp(database);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const ratios: Ratios[] = paths.map((p) => ({ name: p.name, throughput: [], p99: [] }));
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  console.log(`${rounds} rounds of ${seconds} s per load, 32 connections; ${machineLoad()}\n`);
  for (let round = 1; round <= rounds; round++) {
    const base = await measure(`round ${round}: ${baseline.name}`, baseline.options);
    const runs: Figures[] = [];
    for (const path of paths) runs.push(await measure(`round ${round}: ${path.name}`, path.options));
    printTable([base, ...runs], base);
    runs.forEach((run, i) => {
      ratios[i]!.throughput.push(run.requestsPerSecond / base.requestsPerSecond);
      // No answer within the load: its latency is beyond the load's length, whatever autocannon's empty histogram says.
      ratios[i]!.p99.push(run.requests === 0 ? Infinity : run.p99 / base.p99);
    });
    console.log('');
  }
  printRatios(baseline.name, paths, ratios);
  return ratios;
}

/** The median over the rounds of each path's ratios to its baseline, with their spread and whether each target is met. */
export function printRatios(baselineName: string, paths: Measured[], ratios: Ratios[]): void {
  const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
  const times = (x: number) => `${x.toFixed(2)} ×`;
  const spread = (xs: number[], f: (x: number) => string) =>
    `**${f(median(xs))}** (${f(Math.min(...xs))}-${f(Math.max(...xs))}, ${xs.length} rounds)`;
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(`| path | baseline | throughput vs baseline | target | p99 vs baseline | target |`);
  console.log('|---|---|---|---|---|---|');
  paths.forEach((path, i) => {
    const { throughput, p99 } = ratios[i]!;
    const share = path.minShare === undefined ? '' : `≥ ${pct(path.minShare)}: ${verdict(median(throughput) >= path.minShare)}`;
    const latency = path.maxP99Ratio === undefined ? '' : `≤ ${path.maxP99Ratio} ×: ${verdict(median(p99) <= path.maxP99Ratio)}`;
    console.log(`| ${path.name} | ${baselineName} | ${spread(throughput, pct)} | ${share} | ${spread(p99, times)} | ${latency} |`);
  });
  console.log(`\n(${machineLoad()} at the end)`);
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** The parent and the CPU ticks (user + system) of a /proc `stat` line, of a process or of one of its threads. */
function statFields(stat: string): { ppid: string; ticks: number } {
  // Fields after the command name (which may hold spaces): state ppid … utime(14) stime(15), 1-based.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ppid: fields[1]!, ticks: Number(fields[11]) + Number(fields[12]) };
}

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
    table.set(pid, statFields(stat));
  }
  return table;
}

/**
 * CPU time (ms) used so far by a process's main thread alone (its JavaScript, where a Node process is bound), from
 * /proc; the rest of the process (V8's collector and compiler threads, libuv's pool) is its total less this.
 * Undefined without /proc.
 */
export function mainThreadCpuMs(pid: string | number): number | undefined {
  try {
    return (statFields(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8')).ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
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

/**
 * Throughput of one load against the service run with 1 and then 2 processes (SVC_WORKERS), with where the machine's
 * CPU went during each load: the service's processes, PostgreSQL, the load generator, everything else.
 */
export async function printScaleOut(
  db: BenchDatabase,
  target: { path: string; headers: Record<string, string>; generator: string },
): Promise<void> {
  const figures: Figures[] = [];
  const cpu: string[] = [];
  for (const workers of [1, 2]) {
    const service = await startService(db, { env: { SVC_WORKERS: String(workers) } });
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

/**
 * A gwc webhook endpoint with `secret` for a new organization's sandbox gwc integration, made through the operator
 * API; its URL on `service` (the endpoint's own URL is built from the public URL, which a bench does not set).
 */
export async function gwcWebhookEndpoint(service: { url: string }, secret: string): Promise<string> {
  const organization = await admin<{ id: string }>(service, 'organizations.create', { name: 'Bench gwc webhooks' });
  const integration = await admin<{ id: string }>(service, 'integrations.create', {
    organizationId: organization.id,
    provider: 'gwc',
    environment: 'sandbox',
  });
  const endpoint = await admin<{ url: string }>(service, 'webhookEndpoints.create', {
    integrationId: integration.id,
    signingSecret: secret,
  });
  return `${service.url}${new URL(endpoint.url).pathname}`;
}

/** A synced sandbox company: its organization and ledger integration. */
export interface SeededLedger {
  organizationId: string;
  integrationId: string;
  realmId: string;
}

/** A sandbox company of that size imported into `db` by `bench/seed-ledger.ts`, in its own process. */
export async function seedLedger(
  db: { url: string },
  company: { invoices: number; items: number; lines: number; realmId: string },
): Promise<SeededLedger> {
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(
      TSX,
      [fileURLToPath(new URL('./seed-ledger.ts', import.meta.url)), JSON.stringify({ databaseUrl: db.url, ...company })],
      { maxBuffer: 1024 * 1024 },
      (err, out) => (err ? reject(err) : resolve(out)),
    ),
  );
  return JSON.parse(stdout) as SeededLedger;
}

/** A `provider` integration of the ledger's organization, linked to its ledger integration, and a key with `scopes`. */
export async function linkedKey(
  service: { url: string },
  ledger: { organizationId: string; integrationId: string },
  provider: 'gwa' | 'gwb' | 'gwc',
  scopes: ('invoices:read' | 'enrichment:write' | 'payments:write')[],
): Promise<{ integrationId: string; key: string }> {
  const integration = await admin<{ id: string }>(service, 'integrations.create', {
    organizationId: ledger.organizationId,
    provider,
    environment: 'sandbox',
  });
  await admin(service, 'links.create', { ledgerIntegrationId: ledger.integrationId, providerIntegrationId: integration.id });
  const { key } = await admin<{ key: string }>(service, 'apiKeys.issue', { integrationId: integration.id, scopes });
  return { integrationId: integration.id, key };
}
