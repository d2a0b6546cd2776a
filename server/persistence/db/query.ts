import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type Compilable,
  type InferResult,
} from 'kysely';
import type { Sql } from '../sql/sql.js';
import type { Database } from './database.generated.js';

export type { Database };

/**
 * PostgreSQL's SQL with `?` placeholders: statements run through the same
 * connection path as every other statement (`Sql`, on the ORM's Kysely), so
 * they join the caller's transaction and pool.
 */
class PlaceholderCompiler extends PostgresQueryCompiler {
  protected override getCurrentParameterPlaceholder(): string {
    return '?';
  }
}

/**
 * The typed query builder for CRUD and list statements (docs/decisions.md,
 * "Persistence: one query style per kind of statement"). It only builds and
 * compiles; `run` executes. Table and column types come from
 * `database.generated.ts`, which is generated from the migrated schema.
 */
export const db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PlaceholderCompiler(),
  },
});

/** Execute a built statement on `sql` (pool or transaction); the rows are typed by the statement itself. */
export async function run<Q extends Compilable>(sql: Sql, query: Q): Promise<InferResult<Q>> {
  const compiled = query.compile();
  return (await sql(compiled.sql, compiled.parameters as unknown[])) as InferResult<Q>;
}

/** The first row of a built statement, or undefined. */
export async function first<Q extends Compilable>(sql: Sql, query: Q): Promise<InferResult<Q>[number] | undefined> {
  return (await run(sql, query))[0];
}
