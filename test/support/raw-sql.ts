import type { MikroORM } from '@mikro-orm/postgresql';

/** Plain SQL (`?` placeholders) on the ORM's pool: fixtures, and assertions on stored rows, written as the rows are. */
export function rawSql(orm: MikroORM) {
  return <Row = any>(query: string, params: unknown[] = []): Promise<Row[]> => orm.em.getConnection().execute(query, params);
}
