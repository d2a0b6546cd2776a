import type { EntityManager, InferKyselyDB, MikroORM } from '@mikro-orm/postgresql';
import type { Kysely, RawBuilder } from 'kysely';
import { nameHotStatement } from './sql/hot-statements.js';
import type { entities } from './entities/index.js';

/**
 * How every statement addresses the schema (docs/decisions.md, "Persistence: one query style"): tables by their
 * table names, columns by the entities' property names, values converted both ways by the entities' types (a
 * `datetime` property reads back as a `Date`, a `bigint` as its declared type), and an insert fills what the entities' `onCreate` gives (ids, `createdAt`). The entities are the one schema source;
 * `Db` is inferred from them, nothing is generated.
 */
export const KYSELY_OPTIONS = {
  tableNamingStrategy: 'table',
  columnNamingStrategy: 'property',
  convertValues: true,
  processOnCreateHooks: true,
} as const;

export type Db = InferKyselyDB<(typeof entities)[number], typeof KYSELY_OPTIONS>;

/** A Kysely bound to a transaction or to the pool; statements written against it join whichever it is. */
export type Database = Kysely<Db>;

/** The entity manager's Kysely: inside its transaction when it has one, on the pool otherwise. */
export function databaseOf(em: EntityManager): Database {
  return em.getKysely<Db>(KYSELY_OPTIONS);
}

/** The ORM's pool, outside any transaction and without a per-request entity manager (what the hot paths use). */
export function poolDatabase(orm: MikroORM): Database {
  return orm.em.getKysely<Db>(KYSELY_OPTIONS);
}

/**
 * A hot statement: one literal text (Kysely's `sql` tag) sent as a named prepared statement (sql/hot-statements.ts),
 * so each pooled connection parses it once and PostgreSQL can keep a generic plan. Its rows are the database's own
 * (column names, driver values): `Row` says which; one name per text.
 */
export async function runNamed<Row>(db: Database, name: string, statement: RawBuilder<Row>): Promise<Row[]> {
  const compiled = statement.compile(db);
  nameHotStatement(compiled.sql, name);
  return (await db.executeQuery(compiled)).rows;
}
