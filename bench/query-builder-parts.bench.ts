/**
 * `npx tsx bench/query-builder-parts.bench.ts`: where the typed `Database`'s CPU goes per statement, part by part,
 * without the database round trip (docs/performance.md, "One query style"): getting the Kysely, building and
 * compiling the statement (with and without the entities' query transform), and transforming its result rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely, type KyselyPlugin } from 'kysely';
import { startEmbeddedPostgres } from '../server/persistence/embedded-postgres.js';
import { migrate, openOrm } from '../server/persistence/orm.js';
import { KYSELY_OPTIONS, poolDatabase } from '../server/persistence/kysely.js';
import { freePort } from '../test/support/free-port.js';

type Loose = Kysely<Record<string, Record<string, unknown>>>;
const N = Number(process.env.BENCH_N ?? 20000);
const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-qbp-'));
const pg = await startEmbeddedPostgres({ dataDir: dir, port: await freePort(), persistent: false });
const orm = await openOrm(pg.url);
try {
  await migrate(orm);
  const raw = orm.em.getKysely() as unknown as Loose;
  const db = poolDatabase(orm);
  for (let i = 0; i < 50; i++)
    await sql`insert into organizations (id, name, status, created_at) values (${crypto.randomUUID()}, ${`org ${i}`}, 'active', now())`.execute(
      raw,
    );
  const rows50 = (
    await sql<
      Record<string, unknown>
    >`select id, name, status, created_at from organizations order by created_at desc, id desc limit 50`.execute(raw)
  ).rows;
  const rows1 = rows50.slice(0, 1);
  const id = rows1[0]!.id as string;
  const plugin = (db.getExecutor() as unknown as { plugins: KyselyPlugin[] }).plugins.at(-1)!;

  const time = (label: string, op: () => unknown) => {
    for (let i = 0; i < N / 10; i++) op();
    const cpu = process.cpuUsage();
    for (let i = 0; i < N; i++) op();
    const used = process.cpuUsage(cpu);
    console.log(`| ${label} | ${((used.user + used.system) / N).toFixed(1)} |`);
  };
  const timeAsync = async (label: string, op: () => Promise<unknown>) => {
    for (let i = 0; i < N / 10; i++) await op();
    const cpu = process.cpuUsage();
    for (let i = 0; i < N; i++) await op();
    const used = process.cpuUsage(cpu);
    console.log(`| ${label} | ${((used.user + used.system) / N).toFixed(1)} |`);
  };
  const byIdTyped = (k: Loose) => k.selectFrom('organizations').select(['id', 'name', 'status', 'createdAt']).where('id', '=', id);
  const byIdRaw = (k: Loose) => k.selectFrom('organizations').select(['id', 'name', 'status', 'created_at']).where('id', '=', id);
  const listTyped = (k: Loose) =>
    k
      .selectFrom('organizations')
      .select(['id', 'name', 'status', 'createdAt'])
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .limit(50);
  const listRaw = (k: Loose) =>
    k
      .selectFrom('organizations')
      .select(['id', 'name', 'status', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(50);

  console.log(`parts, ${N} iterations each, CPU µs per call`);
  console.log('| part | CPU µs |');
  console.log('|---|---|');
  time('em.getKysely(KYSELY_OPTIONS) (new Kysely + plugin)', () => orm.em.getKysely(KYSELY_OPTIONS));
  time('em.getKysely() (plain)', () => orm.em.getKysely());
  time('by id: build + compile, plain Kysely', () => byIdRaw(raw).compile());
  time('by id: build + compile, typed Database', () => byIdTyped(db as unknown as Loose).compile());
  time('list: build + compile, plain Kysely', () => listRaw(raw).compile());
  time('list: build + compile, typed Database', () => listTyped(db as unknown as Loose).compile());
  const q1 = byIdTyped(db as unknown as Loose).compile();
  const q50 = listTyped(db as unknown as Loose).compile();
  await timeAsync('result transform, 1 row', () => plugin.transformResult({ queryId: q1.queryId, result: { rows: rows1 } }));
  await timeAsync('result transform, 50 rows', () => plugin.transformResult({ queryId: q50.queryId, result: { rows: rows50 } }));
  await timeAsync('by id: raw round trip (plain Kysely)', () => byIdRaw(raw).execute());
  await timeAsync('by id: typed Database round trip', () => byIdTyped(db as unknown as Loose).execute());
  await timeAsync('list: raw round trip (plain Kysely)', () => listRaw(raw).execute());
  await timeAsync('list: typed Database round trip', () => listTyped(db as unknown as Loose).execute());
} finally {
  await orm.close(true);
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
}
