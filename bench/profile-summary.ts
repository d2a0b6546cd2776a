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
  const micros = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const category = categoryOf(id);
    if (category === PROFILER) return;
    micros.set(category, (micros.get(category) ?? 0) + delta);
    total += delta;
  });
  return [...micros.entries()].map(([category, us]) => ({ category, micros: us, share: us / total })).sort((a, b) => b.micros - a.micros);
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
