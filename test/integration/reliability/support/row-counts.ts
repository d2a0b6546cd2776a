import type { MikroORM } from '@mikro-orm/postgresql';

/**
 * Request accounting, not stored data: a key's rate-limit bucket row is written by its first authenticated request,
 * whatever the answer (docs/reliability.md, "Rate limits").
 */
const ACCOUNTING_TABLES = ['mikro_orm_migrations', 'rate_limit_buckets'];

/**
 * The counting statement of each database, built from its tables on first use: the fuzzer counts twice per probe,
 * thousands of times a file, and the schema does not change under it.
 */
const statements = new WeakMap<MikroORM, Promise<string>>();

async function countingStatement(orm: MikroORM): Promise<string> {
  const tables = (
    await orm.em
      .getConnection()
      .execute<{ name: string }[]>(`select tablename as name from pg_catalog.pg_tables where schemaname = 'public' order by 1`)
  )
    .map((t) => t.name)
    .filter((name) => !ACCOUNTING_TABLES.includes(name));
  return tables.map((t) => `select '${t}' as name, count(*) as n from "${t}"`).join(' union all ');
}

/** Row count of every table of the service's schema, in one statement (a new table is counted without editing a test). */
export async function rowCounts(orm: MikroORM): Promise<Record<string, number>> {
  let statement = statements.get(orm);
  if (!statement) {
    statement = countingStatement(orm);
    statements.set(orm, statement);
  }
  // A named statement: each pooled connection parses and plans the 20-table union once, not on every count
  // (0.9 ms a count unnamed, 0.2 ms named).
  const pool = await orm.em.getConnection().getNativeClient();
  const { rows } = await pool.query<{ name: string; n: string }>({ name: 'test-row-counts', text: await statement });
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.n)]));
}
