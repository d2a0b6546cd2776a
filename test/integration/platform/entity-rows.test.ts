import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { sql, type Kysely } from 'kysely';
import { openOrm } from '../../../server/persistence/orm.js';
import { KYSELY_OPTIONS, databaseOf, poolDatabase, type Database } from '../../../server/persistence/kysely.js';
import { createTestDatabase } from '../../support/database.js';

/**
 * The typed `Database` maps result rows with its own precomputed plan (server/persistence/entity-rows.ts): every
 * statement here must give exactly the rows MikroORM's own plugin gives (same keys in the same order, same values
 * and value types), for one table, joins, aliases, subqueries, CTEs, writes with `returning`, and raw texts.
 */
describe('the typed Database maps rows as MikroORM does', () => {
  let orm: MikroORM;
  let drop: () => Promise<void>;
  const orgA = '00000000-0000-4000-8000-00000000000a';
  const orgB = '00000000-0000-4000-8000-00000000000b';
  const integration = '00000000-0000-4000-8000-0000000000c1';
  beforeAll(async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    orm = await openOrm(db.url);
    const raw = orm.em.getKysely() as unknown as Kysely<unknown>;
    await sql`insert into organizations (id, name, status, created_at) values (${orgA}, 'A', 'active', '2026-01-02T03:04:05.678Z'), (${orgB}, 'B', 'inactive', '2026-01-03T00:00:00Z')`.execute(
      raw,
    );
    await sql`insert into integrations (id, organization_id, provider, environment, created_at) values (${integration}, ${orgA}, 'gwa', 'sandbox', '2026-02-01T00:00:00Z')`.execute(
      raw,
    );
    await sql`insert into tracked_payments (id, organization_id, integration_id, environment, provider, attempt_id, attempt_provisional, amount_minor, refunded_amount_minor, occurred_at, observation_count, created_at, updated_at)
      values (${crypto.randomUUID()}, ${orgA}, ${integration}, 'sandbox', 'gwa', 'att_1', true, 123456789012, null, '2026-03-01T00:00:00Z', 2, now(), now())`.execute(
      raw,
    );
  });
  afterAll(async () => {
    await orm.close(true);
    await drop();
  });

  /** MikroORM's own plugin with the same options: the reference. */
  const reference = (em: EntityManager) => em.getKysely(KYSELY_OPTIONS) as unknown as Database;

  const same = async (statement: (db: Database) => Promise<unknown[]>) => {
    const em = orm.em.fork();
    const expected = await statement(reference(em));
    const actual = await statement(databaseOf(em));
    expect(actual).toStrictEqual(expected);
    expect(actual.map((row) => Object.keys(row as object))).toStrictEqual(expected.map((row) => Object.keys(row as object)));
    return actual as Record<string, unknown>[];
  };

  it('when one table is read by property names, then the rows carry property names and converted values', async () => {
    const rows = await same((db) =>
      db.selectFrom('organizations').select(['id', 'name', 'status', 'createdAt']).orderBy('createdAt', 'desc').execute(),
    );
    expect(rows).toStrictEqual([
      { id: orgB, name: 'B', status: 'inactive', createdAt: new Date('2026-01-03T00:00:00Z') },
      { id: orgA, name: 'A', status: 'active', createdAt: new Date('2026-01-02T03:04:05.678Z') },
    ]);
    await same((db) => db.selectFrom('organizations').selectAll().where('id', '=', orgA).execute());
    await same((db) => db.selectFrom('tracked_payments').selectAll().execute());
    await same((db) => db.selectFrom('integrations').selectAll().execute());
    await same((db) => db.selectFrom('auth_epoch').selectAll().execute());
  });

  it('when tables are joined, aliased, nested or named in a CTE, then the rows are the same as MikroORM gives', async () => {
    await same((db) =>
      db
        .selectFrom('integrations as i')
        .innerJoin('organizations as o', 'o.id', 'i.organization')
        .select(['i.id', 'i.organization', 'o.name', 'o.createdAt', 'i.createdAt as integrationCreatedAt'])
        .execute(),
    );
    await same((db) =>
      db
        .selectFrom('tracked_payments')
        .innerJoin('organizations', 'organizations.id', 'tracked_payments.organization')
        .selectAll()
        .execute(),
    );
    await same((db) =>
      db
        .selectFrom('organizations')
        .select(['id', 'createdAt'])
        .where('id', 'in', db.selectFrom('integrations').select('organization'))
        .execute(),
    );
    await same((db) =>
      db
        .with('recent', (q) => q.selectFrom('organizations').select(['id', 'createdAt']))
        .selectFrom('recent')
        .selectAll()
        .execute(),
    );
    await same((db) =>
      db
        .selectFrom((q) => q.selectFrom('tracked_payments').select(['amountMinor', 'createdAt']).as('t'))
        .selectAll()
        .execute(),
    );
    await same((db) =>
      db
        .selectFrom('organizations')
        .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.max('createdAt').as('latest')])
        .execute(),
    );
  });

  it('when rows come back from a write or a raw text, then they are the same as MikroORM gives', async () => {
    await same((db) => db.updateTable('organizations').set({ name: 'B' }).where('id', '=', orgB).returningAll().execute());
    await same((db) => db.deleteFrom('organizations').where('id', '=', crypto.randomUUID()).returningAll().execute());
    const inserted = async (db: Database) => {
      const rows = await db
        .insertInto('organizations')
        .values({ name: 'C', status: 'active' })
        .returning(['name', 'status', 'createdAt'])
        .execute();
      return rows.map((row) => ({ ...row, createdAt: row.createdAt instanceof Date }));
    };
    expect(await same(inserted)).toStrictEqual([{ name: 'C', status: 'active', createdAt: true }]);
    await same((db) => sql<{ created_at: Date }>`select id, created_at from organizations order by id`.execute(db).then((r) => r.rows));
    await same((db) => db.selectFrom('organizations').select(['id']).where('id', '=', crypto.randomUUID()).execute());
  });

  it('when the same plain Kysely is asked for twice, then one typed Database serves it; a transaction gets its own', async () => {
    const pool = poolDatabase(orm);
    expect(poolDatabase(orm)).toBe(pool);
    expect(databaseOf(orm.em.fork())).toBe(pool);
    await orm.em.fork().transactional(async (em) => {
      expect(databaseOf(em)).not.toBe(pool);
      expect(databaseOf(em)).toBe(databaseOf(em));
    });
  });
});
