import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { openOrm } from '../../../server/persistence/orm.js';
import { readAuthEpoch } from '../../../server/persistence/sql/api-keys.sql.js';
import { nameHotStatement } from '../../../server/persistence/sql/hot-statements.js';
import { databaseOf, poolDatabase } from '../../../server/persistence/kysely.js';
import { sql } from 'kysely';
import { createTestDatabase } from '../../support/database.js';

describe('hot statements are named prepared statements', () => {
  let orm: MikroORM;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    // One connection, so the statements below all see the session that prepared them.
    orm = await openOrm(db.url, { pool: { min: 0, max: 1 } });
  });
  afterAll(async () => {
    await orm.close(true);
    await drop();
  });

  const prepared = () =>
    sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements order by name`
      .execute(poolDatabase(orm))
      .then((result) => result.rows);

  it('when a hot statement runs on the pool and in a transaction, then the connection holds it once under its name, with the text it was written with', async () => {
    expect(await readAuthEpoch(poolDatabase(orm))).toBe('0');
    await orm.em.fork().transactional(async (em) => expect(await readAuthEpoch(databaseOf(em))).toBe('0'));
    await sql`select 1 as one`.execute(poolDatabase(orm));

    // A statement that is not hot stays unnamed: only the one hot statement is prepared on the session.
    expect(await prepared()).toStrictEqual([{ name: 'auth_epoch_read', statement: 'select value from auth_epoch where id' }]);
  });

  it('when one name is given to a second text, or a second name to one text, then it is refused', () => {
    nameHotStatement('select 2 as two', 'hot_statements_test');
    expect(() => nameHotStatement('select 3 as three', 'hot_statements_test')).toThrow(/used for two texts/);
    expect(() => nameHotStatement('select 2 as two', 'hot_statements_other')).toThrow(/named both/);
  });
});
