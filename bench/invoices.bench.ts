/**
 * `npm run bench:invoices`: stored invoices, two measurements in one run on a
 * throw-away embedded PostgreSQL (or BENCH_DATABASE_URL); BENCH_PART=sync or
 * BENCH_PART=list runs one of them (BENCH_SIZES=10000 imports one size only, BENCH_SYNC_REPS=n repeats the sync part).
 *
 * sync: the real importer over sandbox companies (each served by a process of its own) of 10,000 and 20,000
 * invoices (5 lines, 1,000 items), each size imported twice on fresh connections,
 * interleaved: once with the mapping into stored invoices (as the sync does it) and
 * once with `mapInvoices: false` (source records only). Targets: 20k with mapping at
 * most 2.2 × 10k with mapping; mapping adds at most half to the import time. The importer runs in the bench's own
 * process on a direct connection: this part measures the importer, not the HTTP service.
 *
 * list: `GET /api/v1/invoices?limit=25` over HTTP against the service as `npm start` runs it, with a real key (gwc, invoices:read,
 * linked to the ledger integration) for an organization with 1,000 stored invoices
 * and one with 100,000, interleaved: first pages and deep pages (cursors spread over
 * the whole list), sequential and at concurrency 4. Both organizations are synced
 * from the sandbox (1,000 invoices each, really mapped, by `bench/seed-ledger.ts` in its own process); the large one's source
 * records, stored invoices and snapshots are then copied 99 times in SQL with new
 * ids, source ids and numbers, so its rows are the mapper's own rows. Target: p50 of
 * the 100,000 list at most 1.5 × that of the 1,000 list.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import { importRun } from '../server/domain/ledger/import-run.js';
import { encodeCursor } from '../server/domain/pagination.js';
import { createLogger } from '../server/logger.js';
import { sql } from 'kysely';
import { databaseOf, poolDatabase } from '../server/persistence/kysely.js';
import { poolUnitOfWork } from '../server/persistence/unit-of-work.js';
import { openOrm } from '../server/persistence/orm.js';
import { queuedImport } from './ledger-support.js';
import { collectGarbage, linkedKey, seedLedger, startDatabase, startService, type ServiceProcess } from './support.js';

const SIZES = (process.env.BENCH_SIZES ?? '10000,20000').split(',').map(Number);
const PART = process.env.BENCH_PART ?? 'all';
const ITEMS = 1_000;
const LINES = 5;
const logger = createLogger('warn');
const scratch = mkdtempSync(path.join(tmpdir(), 'svc-bench-invoices-'));
let realmSeq = 0;
const nextRealm = () => `9341452${Date.now() % 100_000}${++realmSeq}`;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const fmt = (n: number, digits = 2) => n.toFixed(digits);

/**
 * Every timed import starts from the same database state: the earlier imports' source records, stored invoices and
 * snapshots are removed and the dirty pages written out. Otherwise each import pays for the ones before it, and the last
 * of a run (20,000 with mapping) is the one whose writes outgrow PostgreSQL's shared buffers (128 MB by default) and
 * evict the earlier imports' pages (docs/performance.md, "Mapping in the import").
 */
async function sameStartingState(orm: MikroORM) {
  const pool = poolDatabase(orm);
  await sql`truncate ledger_source_records, stored_invoices, invoice_snapshots cascade`.execute(pool);
  await sql`checkpoint`.execute(pool);
}

/** One import run of a fresh sandbox company; seconds, and how many stored invoices it left. */
async function timedImport(orm: MikroORM, databaseUrl: string, invoices: number, mapInvoices: boolean) {
  await sameStartingState(orm);
  const q = await queuedImport(orm, databaseUrl, { invoices, items: ITEMS, lines: LINES, realmId: nextRealm(), outboxDir: scratch });
  try {
    collectGarbage();
    const started = process.hrtime.bigint();
    const outcome = await importRun(poolUnitOfWork(orm), q.runtime, { runId: q.runId, maxAttempts: 1, logger, mapInvoices });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const pool = poolDatabase(orm);
    const {
      rows: [run],
    } = await sql<{
      state: string;
      entities: Record<'Invoice', { created: number }>;
      error: unknown;
    }>`select state, entities, error from ledger_sync_runs where id = ${q.runId}`.execute(pool);
    const {
      rows: [stored],
    } = await sql<{ n: string }>`select count(*) as n from stored_invoices where integration_id = ${q.integrationId}`.execute(pool);
    if (outcome !== 'done' || run?.state !== 'succeeded' || run.entities.Invoice.created !== invoices)
      throw new Error(`bench run did not complete: ${JSON.stringify(run)}`);
    if (Number(stored!.n) !== (mapInvoices ? invoices : 0)) throw new Error(`unexpected stored invoices: ${stored!.n}`);
    return { seconds, integrationId: q.integrationId, organizationId: q.organizationId };
  } finally {
    await q.sandbox.close();
  }
}

async function syncPart(orm: MikroORM, databaseUrl: string) {
  const reps = Number(process.env.BENCH_SYNC_REPS ?? 1);
  const times: Record<string, number[]> = {};
  const add = (k: string, s: number) => (times[k] ??= []).push(s);
  for (let r = 0; r < reps; r++) {
    for (const size of SIZES) {
      // Alternate which mode goes first, so drift on a shared machine does not favour one.
      const modes = r % 2 === 0 ? [false, true] : [true, false];
      for (const map of modes) {
        const { seconds } = await timedImport(orm, databaseUrl, size, map);
        add(`${size}:${map}`, seconds);
        console.log(`  import ${size} invoices ${map ? 'with' : 'without'} mapping: ${fmt(seconds)} s`);
      }
    }
  }
  const best = (k: string) => Math.min(...times[k]!);
  console.log('\nsync (5 lines per invoice, 1,000 items, page size 500, sandbox in its own process; best of runs)');
  console.log('| invoices | import without mapping s | import with mapping s | mapping adds |');
  console.log('|---|---|---|---|');
  for (const size of SIZES) {
    const without = best(`${size}:false`);
    const withMap = best(`${size}:true`);
    console.log(`| ${size.toLocaleString('en')} | ${fmt(without)} | ${fmt(withMap)} | ${fmt(((withMap - without) / without) * 100, 0)}% |`);
  }
  const ratio = best(`${SIZES.at(-1)}:true`) / best(`${SIZES[0]}:true`);
  const adds = Math.max(...SIZES.map((s) => (best(`${s}:true`) - best(`${s}:false`)) / best(`${s}:false`)));
  console.log(`20k / 10k with mapping: ${fmt(ratio)} (target ≤ 2.2); mapping adds at most ${fmt(adds * 100, 0)}% (target ≤ 50%)`);
}

/**
 * Copy a connection's 1,000 synced invoices (source records, stored invoices, snapshots) `copies` times with new ids,
 * in one transaction: a stored invoice needs its snapshot by the time it commits.
 */
async function multiply(orm: MikroORM, integrationId: string, copies: number) {
  const step = 1_000_000;
  const newId = (col: string) => sql.raw(`md5(${col}::text || ':' || k)::uuid`);
  const newNumber = (col: string) => sql.raw(`'INV-' || lpad((substring(${col} from 5)::int + k * ${step})::text, 9, '0')`);
  await orm.em.fork().transactional(async (em) => {
    const tx = databaseOf(em);
    await sql`insert into ledger_source_records (id, organization_id, integration_id, environment, connection_id, entity_type, source_id, sync_token,
       last_updated_at, deleted, payload, sync_run_id, created_at, updated_at)
     select ${newId('r.id')}, r.organization_id, r.integration_id, r.environment, r.connection_id, r.entity_type, (r.source_id::bigint + k * ${sql.raw(String(step))})::text,
       r.sync_token, r.last_updated_at, r.deleted,
       jsonb_set(jsonb_set(r.payload, '{Id}', to_jsonb((r.source_id::bigint + k * ${sql.raw(String(step))})::text)), '{DocNumber}', to_jsonb(${newNumber("r.payload->>'DocNumber'")})),
       r.sync_run_id, r.created_at, r.updated_at
       from ledger_source_records r cross join generate_series(1, ${copies}) k
      where r.integration_id = ${integrationId} and r.entity_type = 'Invoice'`.execute(tx);
    // Later copies were stored later: a stored invoice's created_at moves by k seconds.
    await sql`insert into stored_invoices (id, organization_id, integration_id, environment, connection_id, source_record_id, ledger_invoice_id, invoice_number,
       status, currency, total_amount_minor, source_version, revision, current_snapshot_id, deleted, created_at, updated_at)
     select ${newId('si.id')}, si.organization_id, si.integration_id, si.environment, si.connection_id, ${newId('si.source_record_id')},
       (si.ledger_invoice_id::bigint + k * ${sql.raw(String(step))})::text, ${newNumber('si.invoice_number')}, si.status, si.currency, si.total_amount_minor,
       si.source_version, si.revision, ${newId('si.current_snapshot_id')}, si.deleted, si.created_at + k * interval '1 second',
       si.updated_at + k * interval '1 second'
       from stored_invoices si cross join generate_series(1, ${copies}) k where si.integration_id = ${integrationId}`.execute(tx);
    await sql`insert into invoice_snapshots (id, organization_id, integration_id, environment, stored_invoice_id, revision, mapper_version, source_version,
       content, issues, dependencies, mappings, created_at)
     select ${newId('s.id')}, s.organization_id, s.integration_id, s.environment, ${newId('s.stored_invoice_id')}, s.revision, s.mapper_version,
       s.source_version, jsonb_set(s.content, '{invoice,invoiceNumber}', to_jsonb(${newNumber("s.content->'invoice'->>'invoiceNumber'")})),
       s.issues, s.dependencies, s.mappings, s.created_at + k * interval '1 second'
       from invoice_snapshots s cross join generate_series(1, ${copies}) k where s.integration_id = ${integrationId}`.execute(tx);
  });
  const pool = poolDatabase(orm);
  await sql`analyze ledger_source_records`.execute(pool);
  await sql`analyze stored_invoices`.execute(pool);
  await sql`analyze invoice_snapshots`.execute(pool);
}

interface Reader {
  name: string;
  invoices: number;
  key: string;
  first: string;
  deep: string[];
}

/** A gwc integration of the organization, linked to its ledger integration, and an invoices:read key; cursors spread over the list. */
async function reader(
  orm: MikroORM,
  service: ServiceProcess,
  name: string,
  ledger: { organizationId: string; integrationId: string },
): Promise<Reader> {
  const { integrationId: gwcId, key } = await linkedKey(service, ledger, 'gwc', ['invoices:read']);
  const pool = poolDatabase(orm);
  const {
    rows: [{ n }],
  } = (await sql<{ n: string }>`select count(*) as n from stored_invoices where integration_id = ${ledger.integrationId}`.execute(
    pool,
  )) as {
    rows: [{ n: string }];
  };
  const invoices = Number(n);
  // The cursor the service hands out after the row at each offset (bound to the key's integration, no filters).
  const binding = JSON.stringify([gwcId, null, null]);
  const deep: string[] = [];
  for (let i = 1; i <= 20; i++) {
    const offset = Math.floor((i * (invoices - 26)) / 20);
    const {
      rows: [row],
    } = await sql<{
      id: string;
      created_at: string;
    }>`select id, created_at from stored_invoices where integration_id = ${ledger.integrationId} order by created_at, id offset ${offset} limit 1`.execute(
      pool,
    );
    deep.push(encodeCursor({ createdAt: new Date(row!.created_at), id: row!.id }, binding));
  }
  const first = `/api/v1/invoices?limit=25`;
  return { name, invoices, key, first, deep: deep.map((c) => `${first}&cursor=${encodeURIComponent(c)}`) };
}

async function timedGet(base: string, r: Reader, url: string): Promise<number> {
  const started = process.hrtime.bigint();
  const res = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${r.key}` } });
  const body = (await res.json()) as { data?: { invoices: unknown[] } };
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.status !== 200 || body.data?.invoices.length !== 25)
    throw new Error(`${r.name}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return ms;
}

async function listPart(orm: MikroORM, db: { url: string }, service: ServiceProcess) {
  const base = service.url;
  const seedStarted = Date.now();
  const company = { invoices: 1_000, items: ITEMS, lines: LINES };
  const small = await seedLedger(db, { ...company, realmId: nextRealm() });
  const large = await seedLedger(db, { ...company, realmId: nextRealm() });
  await multiply(orm, large.integrationId, 99);
  const readers = [await reader(orm, service, '1,000', small), await reader(orm, service, '100,000', large)];
  console.log(`seeded 1,000 + 100,000 stored invoices in ${fmt((Date.now() - seedStarted) / 1000, 1)} s`);
  const {
    rows: [{ bytes }],
  } = (await sql<{
    bytes: string;
  }>`select avg(pg_column_size(content) + pg_column_size(issues) + pg_column_size(dependencies) + pg_column_size(mappings))::int as bytes from invoice_snapshots`.execute(
    poolDatabase(orm),
  )) as { rows: [{ bytes: string }] };
  console.log(`snapshot JSON (stored, compressed): ${bytes} bytes on average`);

  // The first page's nextCursor is the cursor computed for offset 24: the deep cursors are the ones the service hands out.
  for (const r of readers) {
    const res = await fetch(`${base}${r.first}`, { headers: { authorization: `Bearer ${r.key}` } });
    const body = (await res.json()) as { data: { nextCursor: string } };
    const second = await fetch(`${base}${r.first}&cursor=${encodeURIComponent(body.data.nextCursor)}`, {
      headers: { authorization: `Bearer ${r.key}` },
    });
    if (second.status !== 200) throw new Error(`${r.name}: the first page's cursor was refused`);
  }

  const samples: Record<string, number[]> = {};
  const add = (k: string, ms: number) => (samples[k] ??= []).push(ms);
  const round = async (i: number, record: boolean) => {
    const order = i % 2 === 0 ? readers : [...readers].reverse();
    for (const r of order) {
      const f = await timedGet(base, r, r.first);
      const d = await timedGet(base, r, r.deep[i % r.deep.length]!);
      if (record) {
        add(`${r.name}:first`, f);
        add(`${r.name}:deep`, d);
      }
    }
  };
  for (let i = 0; i < 40; i++) await round(i, false); // warm-up
  const rounds = Number(process.env.BENCH_ROUNDS ?? 300);
  for (let i = 0; i < rounds; i++) await round(i, true);
  const concurrent: Record<string, number[]> = {};
  const before = { ...samples };
  for (const k of Object.keys(samples)) samples[k] = [];
  await Promise.all(
    [0, 1, 2, 3].map(async (w) => {
      for (let i = 0; i < rounds / 4; i++) await round(i * 4 + w, true);
    }),
  );
  for (const k of Object.keys(samples)) concurrent[k] = samples[k]!;

  console.log('\nGET /api/v1/invoices?limit=25 (gwc key, HTTP keep-alive; ms)');
  console.log('| load | stored invoices | page | samples | p50 | p99 |');
  console.log('|---|---|---|---|---|---|');
  const ratios: string[] = [];
  for (const [load, set] of [
    ['sequential', before],
    ['4 concurrent', concurrent],
  ] as const) {
    for (const page of ['first', 'deep']) {
      const p50: Record<string, number> = {};
      for (const r of readers) {
        const xs = [...set[`${r.name}:${page}`]!].sort((a, b) => a - b);
        p50[r.name] = quantile(xs, 0.5);
        console.log(`| ${load} | ${r.name} | ${page} | ${xs.length} | ${fmt(quantile(xs, 0.5))} | ${fmt(quantile(xs, 0.99))} |`);
      }
      ratios.push(`${load} ${page} ${fmt(p50['100,000']! / p50['1,000']!)}`);
    }
  }
  console.log(`p50 ratio 100,000 / 1,000 (target ≤ 1.5): ${ratios.join('; ')}`);
}

const db = await startDatabase();
// The service (as `npm start` runs it) migrates the database and serves the list; the bench's own connection runs the
// importer of the sync part and the list part's bulk copies.
// Its reaper is off: the sync part runs its imports in this process without a background job, which the reaper (every
// 30 s by default) would fail as lost ("job_lost") when it looks between two of their page transactions.
const service = await startService(db, { env: { LEDGER_REAP_INTERVAL_MS: String(2 ** 31 - 1) } });
const orm = await openOrm(db.url, { pool: { min: 2, max: 10 } });
try {
  if (PART === 'all' || PART === 'sync') await syncPart(orm, db.url);
  if (PART === 'all' || PART === 'list') await listPart(orm, db, service);
} finally {
  await orm.close(true);
  await service.stop();
  await db.stop();
  rmSync(scratch, { recursive: true, force: true });
}
