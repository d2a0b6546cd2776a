import { UniqueConstraintViolationException, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';

/**
 * Run one SQL statement (knex `?` placeholders) on the entity manager's
 * connection, inside its transaction when it has one. Hot paths use this
 * instead of entity loading: the ORM's unit of work costs milliseconds of CPU
 * per request, a plain statement a tenth of that (docs/performance.md).
 *
 * `name` makes it a named prepared statement: each pooled connection parses it
 * once, and PostgreSQL can keep a generic plan instead of planning every call.
 * For hot statements whose planning costs more than their execution; one name
 * per statement text.
 */
export type Sql = <Row = Record<string, unknown>>(query: string, params?: unknown[], name?: string) => Promise<Row[]>;

export function sqlOf(em: EntityManager): Sql {
  // Sent as a parameterized statement (knex turns `?` into `$n`), inside the entity manager's transaction when it
  // has one. The ORM's own `execute` formats values into the SQL text first, which costs more CPU than the
  // statement itself for large JSON values (docs/performance.md, "Stored invoices").
  return async (query, params = [], name) => {
    const knex = em.getConnection().getKnex();
    const trx = em.getTransactionContext();
    const statement = knex.raw(query, params as never[]);
    if (name !== undefined) statement.options({ name });
    const result = (await (trx ? statement.transacting(trx) : statement)) as { rows: unknown[] };
    return result.rows as never;
  };
}

/**
 * Single statements on the ORM's pool, outside any transaction and without an
 * entity manager: what the hot paths use, so a request that never loads an
 * entity makes no per-request ORM context (docs/performance.md).
 */
export function poolSql(orm: MikroORM): Sql {
  const knex = orm.em.getConnection().getKnex();
  return async (query, params = [], name) => {
    const statement = knex.raw(query, params as never[]);
    if (name !== undefined) statement.options({ name });
    return ((await statement) as { rows: never[] }).rows;
  };
}

/** A unique constraint refused the write, whether or not the ORM converted the driver's error (SQLSTATE 23505). */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof UniqueConstraintViolationException || (err as { code?: unknown } | null)?.code === '23505';
}
