/**
 * `npm run bench:query-builder`: what each candidate query style costs per
 * statement, measured on the same pool in one process, rounds interleaved so
 * a noisy machine moves every candidate alike (docs/decisions.md,
 * "Persistence: one query style"): the typed `Database` (MikroORM's Kysely,
 * property names and converted values) against the same text as raw SQL on
 * the ORM's plain Kysely (the database's own names and values).
 *
 * The statement is a typical CRUD read (one organization by id) and a typical
 * list (the newest 50 organizations): each candidate runs it sequentially on a
 * warm pool, and we report statements per second and the ratio to raw SQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { startEmbeddedPostgres } from '../server/persistence/embedded-postgres.js';
import { Organization } from '../server/persistence/entities/index.js';
import { migrate, openOrm } from '../server/persistence/orm.js';
import { poolDatabase } from '../server/persistence/kysely.js';
import { freePort } from '../test/support/free-port.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-qb-'));
const pg = await startEmbeddedPostgres({ dataDir: dir, port: await freePort(), persistent: false });
const orm = await openOrm(pg.url);
try {
  await migrate(orm);
  // The pool's Kysely without the entities' naming and conversion: raw SQL as the driver answers it.
  const raw = orm.em.getKysely() as unknown as Kysely<unknown>;
  const db = poolDatabase(orm);
  const ids: string[] = [];
  for (let i = 0; i < 200; i++) {
    const id = crypto.randomUUID();
    ids.push(id);
    await sql`insert into organizations (id, name, status, created_at) values (${id}, ${`org ${i}`}, 'active', now())`.execute(raw);
  }
  const pick = (n: number) => ids[n % ids.length]!;

  const candidates: Record<string, { byId: (id: string) => Promise<unknown>; list: () => Promise<unknown> }> = {
    'raw SQL': {
      byId: (id) => sql`select id, name, status, created_at from organizations where id = ${id}`.execute(raw),
      list: () => sql`select id, name, status, created_at from organizations order by created_at desc, id desc limit ${50}`.execute(raw),
    },
    'typed Database (property names, converted values)': {
      byId: (id) => db.selectFrom('organizations').select(['id', 'name', 'status', 'createdAt']).where('id', '=', id).executeTakeFirst(),
      list: () =>
        db
          .selectFrom('organizations')
          .select(['id', 'name', 'status', 'createdAt'])
          .orderBy('createdAt', 'desc')
          .orderBy('id', 'desc')
          .limit(50)
          .execute(),
    },
    'MikroORM QueryBuilder (raw result)': {
      byId: (id) =>
        orm.em.fork().createQueryBuilder(Organization).select(['id', 'name', 'status', 'createdAt']).where({ id }).execute('get'),
      list: () =>
        orm.em
          .fork()
          .createQueryBuilder(Organization)
          .select(['id', 'name', 'status', 'createdAt'])
          .orderBy({ createdAt: 'desc', id: 'desc' })
          .limit(50)
          .execute('all'),
    },
    'MikroORM entities (em.findOne / em.find)': {
      byId: (id) => orm.em.fork().findOne(Organization, { id }),
      list: () => orm.em.fork().find(Organization, {}, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: 50 }),
    },
  };

  const measure = async (op: () => Promise<unknown>) => {
    const end = performance.now() + SECONDS * 1000;
    const cpu = process.cpuUsage();
    let n = 0;
    while (performance.now() < end) {
      await op();
      n++;
    }
    const used = process.cpuUsage(cpu);
    return { perSecond: n / SECONDS, cpuMicrosPerStatement: (used.user + used.system) / n };
  };

  const results = new Map<string, { byId: number[]; list: number[]; cpuById: number[]; cpuList: number[] }>();
  for (const name of Object.keys(candidates)) results.set(name, { byId: [], list: [], cpuById: [], cpuList: [] });
  for (const name of Object.keys(candidates)) for (let w = 0; w < 300; w++) await candidates[name]!.byId(pick(w)); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, c] of Object.entries(candidates)) {
      let i = 0;
      const a = await measure(() => c.byId(pick(i++)));
      const b = await measure(c.list);
      const r = results.get(name)!;
      r.byId.push(a.perSecond);
      r.cpuById.push(a.cpuMicrosPerStatement);
      r.list.push(b.perSecond);
      r.cpuList.push(b.cpuMicrosPerStatement);
    }
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const base = results.get('raw SQL')!;
  console.log(`query styles, ${ROUNDS} rounds x ${SECONDS} s, medians (ratio to raw SQL)`);
  console.log('| style | by id /s | by id CPU µs | list of 50 /s | list CPU µs |');
  console.log('|---|---|---|---|---|');
  for (const [name, r] of results) {
    const pct = (x: number[], y: number[]) => `${Math.round((100 * median(x)) / median(y))} %`;
    console.log(
      `| ${name} | ${Math.round(median(r.byId))} (${pct(r.byId, base.byId)}) | ${Math.round(median(r.cpuById))} | ${Math.round(median(r.list))} (${pct(r.list, base.list)}) | ${Math.round(median(r.cpuList))} |`,
    );
  }
} finally {
  await orm.close(true);
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
}
