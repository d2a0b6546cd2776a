import type { MikroORM } from '@mikro-orm/postgresql';

/**
 * Request accounting, not stored data: a key's rate-limit bucket row is written by its first authenticated request,
 * whatever the answer (docs/reliability.md, "Rate limits").
 */
const ACCOUNTING_TABLES = ['mikro_orm_migrations', 'rate_limit_buckets'];

/** Row count of every table of the service's schema, in one statement (a new table is counted without editing a test). */
export async function rowCounts(orm: MikroORM): Promise<Record<string, number>> {
  const connection = orm.em.getConnection();
  const tables = (
    await connection.execute<{ name: string }[]>(
      `select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    )
  )
    .map((t) => t.name)
    .filter((name) => !ACCOUNTING_TABLES.includes(name));
  const rows = await connection.execute<{ name: string; n: string }[]>(
    tables.map((t) => `select '${t}' as name, count(*) as n from "${t}"`).join(' union all '),
  );
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.n)]));
}
