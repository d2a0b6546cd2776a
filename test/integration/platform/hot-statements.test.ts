import { describe, expect, it } from 'vitest';
import { readAuthEpoch } from '../../../server/persistence/sql/api-keys.sql.js';
import { nameHotStatement } from '../../../server/persistence/sql/hot-statements.js';
import { databaseOf, hotStatement, poolDatabase, runNamed } from '../../../server/persistence/kysely.js';
import { sql } from 'kysely';
import { useOneConnectionOrm } from '../../support/database.js';

describe('hot statements are named prepared statements', () => {
  // One connection, so the statements below all see the session that prepared them.
  const orm = useOneConnectionOrm();

  const prepared = () =>
    sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements order by name`
      .execute(poolDatabase(orm()))
      .then((result) => result.rows);

  it('when a hot statement runs on the pool and in a transaction, then the connection holds it once under its name, with the text it was written with', async () => {
    expect(await readAuthEpoch(poolDatabase(orm()))).toBe('0');
    await orm()
      .em.fork()
      .transactional(async (em) => expect(await readAuthEpoch(databaseOf(em))).toBe('0'));
    await sql`select 1 as one`.execute(poolDatabase(orm()));

    // A statement that is not hot stays unnamed: only the one hot statement is prepared on the session.
    expect(await prepared()).toStrictEqual([{ name: 'auth_epoch_read', statement: 'select value from auth_epoch where id' }]);
  });

  it('when one name is given to a second text, or a second name to one text, then it is refused', () => {
    nameHotStatement('select 2 as two', 'hot_statements_test');
    expect(() => nameHotStatement('select 3 as three', 'hot_statements_test')).toThrow(/used for two texts/);
    expect(() => nameHotStatement('select 2 as two', 'hot_statements_other')).toThrow(/named both/);
  });

  it('when a hot statement runs with new arguments, then its text is compiled once and each call puts its own arguments in place', async () => {
    const builds: number[] = [];
    const echo = hotStatement('hot_statements_echo', (a: string, b: number) => {
      builds.push(1);
      return sql<{ a: string; b: number; again: string }>`select ${a}::text as a, ${b}::int as b, ${a}::text as again`;
    });
    expect(await runNamed(poolDatabase(orm()), echo, 'one', 1)).toStrictEqual([{ a: 'one', b: 1, again: 'one' }]);
    await orm()
      .em.fork()
      .transactional(async (em) =>
        expect(await runNamed(databaseOf(em), echo, 'two', 2)).toStrictEqual([{ a: 'two', b: 2, again: 'two' }]),
      );
    expect(builds).toHaveLength(1);
    expect((await prepared()).find((p) => p.name === 'hot_statements_echo')).toStrictEqual({
      name: 'hot_statements_echo',
      statement: 'select $1::text as a, $2::int as b, $3::text as again',
    });
  });

  it('when an argument of a hot statement is not a plain value of its text, then its first run is refused', async () => {
    const inText = hotStatement('hot_statements_raw', (column: string) => sql<{ x: number }>`select 1 as ${sql.raw(String(column))}`);
    await expect(runNamed(poolDatabase(orm()), inText, 'x')).rejects.toThrow(
      'Hot statement hot_statements_raw: argument 0 is not a plain value of its text',
    );
  });
});
