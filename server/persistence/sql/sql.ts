import { UniqueConstraintViolationException, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import { CompiledQuery, type Kysely } from 'kysely';
import { nameHotStatement } from './hot-statements.js';
import { databaseOf, poolDatabase, type Database } from '../kysely.js';

/**
 * Run one SQL statement (`?` placeholders) on the entity manager's Kysely,
 * inside its transaction when it has one. Hot paths use this instead of entity
 * loading: the ORM's unit of work costs milliseconds of CPU per request, a
 * plain statement a tenth of that (docs/performance.md).
 *
 * `name` makes it a named prepared statement (hot-statements.ts): each pooled
 * connection parses it once, and PostgreSQL can keep a generic plan instead of
 * planning every call. For hot statements whose planning costs more than their
 * execution; one name per statement text.
 */
export type Sql = <Row = Record<string, unknown>>(query: string, params?: unknown[], name?: string) => Promise<Row[]>;

export function sqlOf(em: EntityManager): Sql {
  // Sent as a parameterized statement straight to Kysely, inside the entity manager's transaction when it has one.
  // The ORM's own `execute` formats values into the SQL text first, which costs more CPU than the statement itself
  // for large JSON values (docs/performance.md, "Stored invoices").
  return withDatabase(
    (query, params = [], name) => runOn(em.getKysely(), query, params, name),
    () => databaseOf(em),
  );
}

/**
 * Single statements on the ORM's pool, outside any transaction and without an
 * entity manager: what the hot paths use, so a request that never loads an
 * entity makes no per-request ORM context (docs/performance.md).
 */
export function poolSql(orm: MikroORM): Sql {
  const kysely = orm.em.getConnection().getClient();
  return withDatabase(
    (query, params = [], name) => runOn(kysely, query, params, name),
    () => poolDatabase(orm),
  );
}

/**
 * TRANSITIONAL (removed with `Sql` itself): a typed `Database` (a transaction or the pool) as the old `Sql`, so a
 * converted store can call a statement module that still takes `Sql`.
 */
export function sqlOfDatabase(db: Database): Sql {
  return withDatabase(
    (query, params = [], name) => runOn(db as unknown as Kysely<unknown>, query, params, name),
    () => db,
  );
}

/**
 * TRANSITIONAL (removed with `Sql` itself): the typed `Database` an `Sql` runs on (the same transaction or pool), so
 * code still handed an `Sql` can call a statement module converted to `Database`.
 */
export function databaseOfSql(sql: Sql): Database {
  const database = databases.get(sql);
  if (database === undefined) throw new Error('This Sql was not made by sqlOf, poolSql or sqlOfDatabase');
  return database();
}

const databases = new WeakMap<Sql, () => Database>();

function withDatabase(sql: Sql, database: () => Database): Sql {
  databases.set(sql, database);
  return sql;
}

async function runOn<Row>(kysely: Kysely<unknown>, query: string, params: unknown[], name: string | undefined): Promise<Row[]> {
  // A hot statement's text is converted once; other texts are not kept (lists vary in length without bound).
  let text = name === undefined ? undefined : hotTexts.get(query);
  if (text === undefined) {
    text = dollarPlaceholders(query);
    if (name !== undefined) {
      nameHotStatement(text, name);
      hotTexts.set(query, text);
    }
  }
  return (await kysely.executeQuery<Row>(CompiledQuery.raw(text, params))).rows;
}

const hotTexts = new Map<string, string>();

/** `?` placeholders as PostgreSQL's `$1, $2, …` (no statement here has a `?` of its own): the texts MikroORM 6 sent. */
function dollarPlaceholders(query: string): string {
  let n = 0;
  return query.replace(/\?/g, () => `$${++n}`);
}

/** A unique constraint refused the write, whether or not the ORM converted the driver's error (SQLSTATE 23505). */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof UniqueConstraintViolationException || (err as { code?: unknown } | null)?.code === '23505';
}
