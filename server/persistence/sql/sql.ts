import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';

/**
 * Run one SQL statement (knex `?` placeholders) on the entity manager's
 * connection, inside its transaction when it has one. Hot paths use this
 * instead of entity loading: the ORM's unit of work costs milliseconds of CPU
 * per request, a plain statement a tenth of that (docs/performance.md).
 */
export type Sql = <Row = Record<string, unknown>>(query: string, params?: unknown[]) => Promise<Row[]>;

export function sqlOf(em: EntityManager): Sql {
  return (query, params = []) => em.getConnection().execute(query, params, 'all', em.getTransactionContext()) as never;
}

/** A unique constraint refused the write, whether or not the ORM converted the driver's error (SQLSTATE 23505). */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof UniqueConstraintViolationException || (err as { code?: unknown } | null)?.code === '23505';
}
