import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  load,
  postgresCpuMs,
  processTreeCpuMs,
  mainThreadCpuMs,
  settle,
  startService,
  type BenchDatabase,
  type Figures,
  type LoadOptions,
  type ServiceProcess,
} from './support.js';

/** A V8 CPU profile (`Profiler.stop`, or a `.cpuprofile` file of `node --cpu-prof`). */
export interface CpuProfile {
  nodes: { id: number; parent?: number; callFrame: { functionName: string; url: string; lineNumber?: number }; children?: number[] }[];
  /** Monotonic clock, µs: the clock of `process.hrtime` in every process of the machine (Linux: CLOCK_MONOTONIC). */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** An interval of the monotonic clock, µs (`process.hrtime.bigint() / 1000n`). */
export interface Window {
  start: number;
  end: number;
}

const nowMicros = () => Number(process.hrtime.bigint() / 1000n);

/** Sampled time per profile node, counting only the samples taken inside `window` (all of them without one). */
function sampleWeights(profile: CpuProfile, window?: Window): Map<number, number> {
  const weights = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (!window || (at >= window.start && at <= window.end)) weights.set(id, (weights.get(id) ?? 0) + delta);
  });
  return weights;
}

/** First match wins; matched against the script URL of a frame. */
const CATEGORIES: [string, RegExp][] = [
  ['auth (key lookup, hashing)', /\/server\/domain\/auth\/|\/server\/crypto\/|node:crypto|api-keys\.sql/],
  ['card-data guard', /\/server\/domain\/guard\//],
  ['enrichment core', /\/server\/domain\/(enrichment|inline-enrichment)\//],
  ['report rules, fingerprint', /\/server\/domain\/(payment-reports|idempotency)\//],
  ['preparation rules (readiness, evaluation)', /\/server\/domain\/(preparations|invoices)\//],
  ['validation (zod, contract schemas)', /node_modules\/zod\/|\/contract\/|zod-issues|\/server\/(http\/)?validation\//],
  ['ts-rest', /node_modules\/@ts-rest\//],
  [
    'database client (pg, Kysely, MikroORM)',
    /node_modules\/(pg|pg-[a-z]+|@mikro-orm|postgres-[a-z]+|kysely|lodash)\/|\/server\/persistence\//,
  ],
  ['logging (pino)', /node_modules\/(pino|sonic-boom|thread-stream|fast-redact|pino-std-serializers)\//],
  // Matching a request to its route apart from the rest of Express: what routing by path (server/http/routing.ts) cuts.
  ['Express routing (router, path-to-regexp)', /node_modules\/(router|path-to-regexp)\//],
  [
    'Express (body parsing, response and its socket write)',
    /node_modules\/(express|body-parser|raw-body|iconv-lite|type-is|content-type|on-finished|finalhandler|send|qs|mime-types|media-typer|depd|http-errors|statuses|debug|path-to-regexp|etag|fresh|vary|accepts|negotiator|proxy-addr|forwarded|encodeurl|escape-html|parseurl|bytes|cookie|merge-descriptors|safe-buffer|content-disposition|range-parser|serve-static|destroy|unpipe|ee-first|setprototypeof|toidentifier|inherits|ipaddr\.js|side-channel[a-z-]*|call-bind[a-z-]*|get-intrinsic|es-[a-z-]+|function-bind|has-symbols|hasown|gopd|object-inspect|math-intrinsics|dunder-proto|get-proto)\//,
  ],
  ['service middleware and handlers', /\/server\/http\//],
];

const NODE_CORE = 'Node core (HTTP parsing, sockets, timers)';
const UNATTRIBUTED = 'V8 / native (unattributed)';

/** The profiler's own work (the inspector session in the service's process): left out. */
const PROFILER = 'profiler';

/**
 * Self time per category. A builtin (JSON.parse, a socket write) or a frame
 * of Node's own modules is charged to the nearest caller in a library or in
 * the service, so the time of `JSON.stringify` in a response or of a write to
 * PostgreSQL lands where it was called.
 */
export function summariseProfile(profile: CpuProfile, window?: Window): { category: string; micros: number; share: number }[] {
  const weights = sampleWeights(profile, window);
  return summariseWeights(profile.nodes, weights).map(({ category, weight, share }) => ({ category, micros: weight, share }));
}

/** A weight per profile node (CPU time, bytes allocated) summed per category, builtins charged to their callers as above. */
function summariseWeights(nodes: CpuProfile['nodes'], weights: Map<number, number>): { category: string; weight: number; share: number }[] {
  const profile = { nodes };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  const categoryCache = new Map<number, string>();
  const categoryOf = (id: number): string => {
    const cached = categoryCache.get(id);
    if (cached) return cached;
    const node = byId.get(id)!;
    const { functionName, url } = node.callFrame;
    let category: string;
    if (functionName === '(garbage collector)') category = 'garbage collection';
    else if (functionName === '(idle)') category = 'idle (waiting for I/O)';
    else if (functionName === '(program)' || functionName === '(root)') category = UNATTRIBUTED;
    else if (url === 'node:inspector') category = PROFILER;
    else if (url === '' || url.startsWith('node:')) {
      // Builtins and Node's own modules are charged to the code that called them (a socket write to the
      // database client, a response write to Express); only what no library called stays Node core.
      const parent = parentOf.get(id);
      const inherited = parent === undefined ? undefined : categoryOf(parent);
      category =
        inherited === undefined || inherited === NODE_CORE || inherited === UNATTRIBUTED
          ? url === ''
            ? (inherited ?? UNATTRIBUTED)
            : NODE_CORE
          : inherited;
    } else category = CATEGORIES.find(([, pattern]) => pattern.test(url))?.[0] ?? 'other';
    categoryCache.set(id, category);
    return category;
  };
  const sums = new Map<string, number>();
  let total = 0;
  for (const [id, weight] of weights) {
    const category = categoryOf(id);
    if (category === PROFILER) continue;
    sums.set(category, (sums.get(category) ?? 0) + weight);
    total += weight;
  }
  return [...sums.entries()].map(([category, weight]) => ({ category, weight, share: weight / total })).sort((a, b) => b.weight - a.weight);
}

/** A V8 sampling heap profile (`HeapProfiler.stopSampling`): a tree of call frames with the bytes allocated in each. */
interface HeapProfileNode {
  callFrame: { functionName: string; url: string };
  selfSize: number;
  children: HeapProfileNode[];
}

/** Bytes allocated per category, from a sampling heap profile (flattened into the CPU profile's node shape). */
export function summariseAllocations(head: HeapProfileNode): { category: string; bytes: number; share: number }[] {
  const nodes: CpuProfile['nodes'] = [];
  const weights = new Map<number, number>();
  const flatten = (node: HeapProfileNode): number => {
    const id = nodes.length + 1;
    const flat: CpuProfile['nodes'][number] = { id, callFrame: node.callFrame, children: [] };
    nodes.push(flat);
    if (node.selfSize > 0) weights.set(id, node.selfSize);
    for (const child of node.children) flat.children!.push(flatten(child));
    return id;
  };
  flatten(head);
  return summariseWeights(nodes, weights).map(({ category, weight, share }) => ({ category, bytes: weight, share }));
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The functions with the most self time inside `window` (idle, the profiler and garbage collection apart: the
 * categories show those), as `name (file:line)`; builtins keep their own name (`JSON.parse`, a socket write).
 */
export function topFunctions(
  profile: CpuProfile,
  window: Window | undefined,
  count: number,
): { fn: string; micros: number; share: number }[] {
  const weights = sampleWeights(profile, window);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const sums = new Map<string, number>();
  let total = 0;
  for (const [id, weight] of weights) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)' || url === 'node:inspector') continue;
    total += weight;
    const where = url ? ` (${url.replace(`file://${ROOT}`, '').replace(/^.*node_modules\//, '')}:${(lineNumber ?? -1) + 1})` : '';
    const fn = `${functionName || '(anonymous)'}${where}`;
    sums.set(fn, (sums.get(fn) ?? 0) + weight);
  }
  return [...sums.entries()]
    .map(([fn, micros]) => ({ fn, micros, share: micros / total }))
    .sort((a, b) => b.micros - a.micros)
    .slice(0, count);
}

/**
 * The service's own functions (under dist/) by inclusive time inside `window`: the samples with the function anywhere
 * on their stack (counted once per sample), idle apart. Which of the service's steps the self times above belong to.
 */
export function serviceFunctions(
  profile: CpuProfile,
  window: Window | undefined,
  count: number,
): { fn: string; micros: number; share: number }[] {
  const weights = sampleWeights(profile, window);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  const sums = new Map<string, number>();
  let total = 0;
  for (const [id, weight] of weights) {
    if (byId.get(id)!.callFrame.functionName === '(idle)') continue;
    total += weight;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const { functionName, url, lineNumber } = byId.get(at)!.callFrame;
      if (!url.includes('/dist/server/')) continue;
      const fn = `${functionName || '(anonymous)'} (${url.replace(`file://${ROOT}`, '')}:${(lineNumber ?? -1) + 1})`;
      if (seen.has(fn)) continue;
      seen.add(fn);
      sums.set(fn, (sums.get(fn) ?? 0) + weight);
    }
  }
  return [...sums.entries()]
    .map(([fn, micros]) => ({ fn, micros, share: micros / total }))
    .sort((a, b) => b.micros - a.micros)
    .slice(0, count);
}

/** A measured load inside a profiled service: its window on the monotonic clock and its figures. */
export interface ProfiledLoad {
  name: string;
  window: Window;
  figures: Figures;
  /**
   * CPU time per request the kernel counted for the service (of which its main thread) and for PostgreSQL during the
   * load, ms (/proc). The profile samples only the main thread: the rest of the service's CPU (V8's collector and
   * compiler threads) shows only here.
   */
  cpu: { service: number; mainThread: number; postgres: number };
}

/**
 * The service as `npm start` runs it (bench/support.ts, `startService`) with V8's CPU profiler on for its whole life
 * (`node --cpu-prof`, sampling every 200 µs). `measure` runs a load and notes its window; `stop` ends the service (its
 * profile is written on exit) and prints, per measured load, CPU time per request by where it goes and the functions
 * with the most self time, from the samples inside that load's window only (start-up, warm-up and set-up left out).
 * The raw profile is kept as `${BENCH_PROFILE_OUT}.cpuprofile` when set (open it in Chrome DevTools).
 */
export async function startProfiledService(
  db: BenchDatabase,
): Promise<{ service: ServiceProcess; measure(name: string, options: LoadOptions): Promise<Figures>; stop(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-profile-'));
  const service = await startService(db, { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=200'] });
  const loads: ProfiledLoad[] = [];
  return {
    service,
    measure: async (name, options) => {
      await settle([service.pid]);
      const cpu0 = {
        service: processTreeCpuMs(service.pid) ?? NaN,
        mainThread: mainThreadCpuMs(service.pid) ?? NaN,
        postgres: postgresCpuMs(db.pgDataDir) ?? NaN,
      };
      const start = nowMicros();
      const figures = await load(name, options);
      const end = nowMicros();
      const perRequest = (from: number, to: number | undefined) => ((to ?? NaN) - from) / figures.requests;
      const cpu = {
        service: perRequest(cpu0.service, processTreeCpuMs(service.pid)),
        mainThread: perRequest(cpu0.mainThread, mainThreadCpuMs(service.pid)),
        postgres: perRequest(cpu0.postgres, postgresCpuMs(db.pgDataDir)),
      };
      loads.push({ name, window: { start, end }, figures, cpu });
      return figures;
    },
    stop: async () => {
      await service.stop();
      const file = readdirSync(dir).find((f) => f.includes(`.${service.pid}.`) && f.endsWith('.cpuprofile'));
      if (!file) throw new Error(`no CPU profile of the service (pid ${service.pid}) in ${dir}`);
      const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
      if (process.env.BENCH_PROFILE_OUT) writeFileSync(`${process.env.BENCH_PROFILE_OUT}.cpuprofile`, JSON.stringify(profile));
      rmSync(dir, { recursive: true, force: true });
      for (const measured of loads) printProfile(profile, measured);
    },
  };
}

/**
 * The profile's µs are sampled wall time of the service's thread (on a busy machine, time it waited for a core is
 * charged to the frame it resumed in): the shares are the reading; the CPU per request above each table is the
 * kernel's count.
 */
function printProfile(profile: CpuProfile, { name, window, figures, cpu }: ProfiledLoad): void {
  const requests = figures.requests;
  console.log(`${name}: ${figures.requestsPerSecond} req/s, p99 ${figures.p99} ms, ${figures.statusCodes}`);
  console.log(
    `CPU per request (/proc): service ${cpu.service.toFixed(2)} ms (main thread ${cpu.mainThread.toFixed(2)}, its other threads ` +
      `${(cpu.service - cpu.mainThread).toFixed(2)}), PostgreSQL ${cpu.postgres.toFixed(2)} ms`,
  );
  // The load's window on the profile's clock: a kept profile (BENCH_PROFILE_OUT) can be read again for that window.
  console.log(`window (monotonic µs): ${window.start}-${window.end}\n`);
  console.log('| where | CPU share | µs per request |');
  console.log('|---|---|---|');
  for (const row of summariseProfile(profile, window)) {
    console.log(`| ${row.category} | ${(row.share * 100).toFixed(1)}% | ${Math.round(row.micros / requests)} |`);
  }
  console.log('\n| function (self time, idle apart) | share | µs per request |');
  console.log('|---|---|---|');
  for (const row of topFunctions(profile, window, Number(process.env.BENCH_PROFILE_TOP ?? 25))) {
    console.log(`| ${row.fn.replace(/\|/g, '\\|')} | ${(row.share * 100).toFixed(1)}% | ${(row.micros / requests).toFixed(1)} |`);
  }
  console.log('\n| service function (inclusive: on the stack) | share | µs per request |');
  console.log('|---|---|---|');
  for (const row of serviceFunctions(profile, window, Number(process.env.BENCH_PROFILE_TOP ?? 25))) {
    console.log(`| ${row.fn.replace(/\|/g, '\\|')} | ${(row.share * 100).toFixed(1)}% | ${(row.micros / requests).toFixed(1)} |`);
  }
  console.log('');
}

/** A V8 sampling heap profile as `node --heap-prof` writes it. */
interface HeapProfile {
  head: HeapProfileNode;
}

/**
 * The service with V8's sampling heap profiler on for its whole life (`node --heap-prof`): `run` drives it, then it is
 * stopped and the bytes allocated per request by where are printed over `requests` (the heap profile has no clock,
 * so start-up and set-up are included: run a long load).
 */
export async function allocationProfiledService(db: BenchDatabase, run: (service: ServiceProcess) => Promise<Figures>): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-heap-'));
  const service = await startService(db, { nodeFlags: ['--heap-prof', `--heap-prof-dir=${dir}`, '--heap-prof-interval=4096'] });
  let figures: Figures;
  try {
    figures = await run(service);
  } finally {
    await service.stop();
  }
  const file = readdirSync(dir).find((f) => f.includes(`.${service.pid}.`) && f.endsWith('.heapprofile'));
  if (!file) throw new Error(`no heap profile of the service (pid ${service.pid}) in ${dir}`);
  const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as HeapProfile;
  rmSync(dir, { recursive: true, force: true });
  console.log(`${figures.name} (allocation profile, whole life of the service): ${figures.requestsPerSecond} req/s\n`);
  console.log('| where | share of bytes | KB allocated per request |');
  console.log('|---|---|---|');
  for (const row of summariseAllocations(profile.head)) {
    console.log(`| ${row.category} | ${(row.share * 100).toFixed(1)}% | ${(row.bytes / figures.requests / 1024).toFixed(1)} |`);
  }
  console.log('');
}
