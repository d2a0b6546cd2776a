import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { load, type Figures } from './support.js';

/** A V8 CPU profile (`Profiler.stop`, or a `.cpuprofile` file of `node --cpu-prof`). */
export interface CpuProfile {
  nodes: { id: number; parent?: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
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
  ['database client (pg, knex, MikroORM)', /node_modules\/(pg|pg-[a-z]+|knex|@mikro-orm|postgres-[a-z]+)\/|\/server\/persistence\//],
  ['logging (pino)', /node_modules\/(pino|sonic-boom|thread-stream|fast-redact|pino-std-serializers)\//],
  [
    'Express (routing, body parsing, response and its socket write)',
    /node_modules\/(express|router|body-parser|raw-body|iconv-lite|type-is|content-type|on-finished|finalhandler|send|qs|mime-types|media-typer|depd|http-errors|statuses|debug|path-to-regexp|etag|fresh|vary|accepts|negotiator|proxy-addr|forwarded|encodeurl|escape-html|parseurl|bytes|cookie|merge-descriptors|safe-buffer|content-disposition|range-parser|serve-static|destroy|unpipe|ee-first|setprototypeof|toidentifier|inherits|ipaddr\.js|side-channel[a-z-]*|call-bind[a-z-]*|get-intrinsic|es-[a-z-]+|function-bind|has-symbols|hasown|gopd|object-inspect|math-intrinsics|dunder-proto|get-proto)\//,
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
export function summariseProfile(profile: CpuProfile): { category: string; micros: number; share: number }[] {
  const weights = new Map<number, number>();
  profile.samples.forEach((id, i) => weights.set(id, (weights.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
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

/**
 * One load (BENCH_SECONDS) with the service's process profiled, printed as CPU time per request by where it goes.
 * The raw profile is written to `${BENCH_PROFILE_OUT}-<name>.cpuprofile` when set (open it in Chrome DevTools).
 */
export async function profiledLoad(name: string, target: Parameters<typeof load>[1]): Promise<Figures> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  const figures = await load(name, target);
  const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
  session.disconnect();
  if (process.env.BENCH_PROFILE_OUT) writeFileSync(`${process.env.BENCH_PROFILE_OUT}-${name}.cpuprofile`, JSON.stringify(profile));
  const requests = figures.requestsPerSecond * Number(process.env.BENCH_SECONDS ?? 10);
  console.log(`${name}: ${figures.requestsPerSecond} req/s, p99 ${figures.p99} ms, ${figures.statusCodes}\n`);
  console.log('| where | CPU share | µs per request |');
  console.log('|---|---|---|');
  for (const row of summariseProfile(profile)) {
    console.log(`| ${row.category} | ${(row.share * 100).toFixed(1)}% | ${Math.round(row.micros / requests)} |`);
  }
  console.log('');
  return figures;
}

/**
 * One load with V8's sampling heap profiler on in the service's process: bytes allocated per request by where they
 * were allocated (what garbage collection has to clear), including objects already collected.
 */
export async function allocationProfiledLoad(name: string, target: Parameters<typeof load>[1]): Promise<Figures> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  const figures = await load(name, target);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: HeapProfileNode } };
  session.disconnect();
  const requests = figures.requestsPerSecond * Number(process.env.BENCH_SECONDS ?? 10);
  console.log(`${name} (allocation profile): ${figures.requestsPerSecond} req/s\n`);
  console.log('| where | share of bytes | KB allocated per request |');
  console.log('|---|---|---|');
  for (const row of summariseAllocations(profile.head)) {
    console.log(`| ${row.category} | ${(row.share * 100).toFixed(1)}% | ${(row.bytes / requests / 1024).toFixed(1)} |`);
  }
  console.log('');
  return figures;
}
