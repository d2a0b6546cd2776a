import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseTokens } from '../../../server/persistence/sql/rate-limit-buckets.sql.js';
import { sql } from 'kysely';
import { poolDatabase } from '../../../server/persistence/kysely.js';
import { openOrm } from '../../../server/persistence/orm.js';
import { createTestDatabase } from '../../support/database.js';

/** The shared bucket in PostgreSQL: concurrent leases never hand out more than the bucket holds. */
describe('rate-limit bucket leases', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let orm: MikroORM;
  beforeAll(async () => {
    db = await createTestDatabase();
    orm = await openOrm(db.url, { pool: { min: 0, max: 8 } });
  });
  afterAll(async () => {
    await orm?.close(true);
    await db?.drop();
  });

  it('grants exactly the burst to 40 concurrent leases of a new key, whole tokens only', async () => {
    const key = randomUUID();
    // A refill so slow that no token is added while the leases run.
    const bucket = { burst: 100, perSecond: 0.0001 };
    const leases = await Promise.all(Array.from({ length: 40 }, () => leaseTokens(poolDatabase(orm), key, 3, bucket)));
    expect(leases.reduce((sum, l) => sum + l.granted, 0)).toBe(100);
    expect(leases.filter((l) => l.granted === 3)).toHaveLength(33);
    expect(leases.filter((l) => l.granted === 1)).toHaveLength(1);
    expect(leases.filter((l) => l.granted === 0)).toHaveLength(6);
    expect(leases.every((l) => l.remaining >= 0 && l.remaining < 1 + 3 * 40)).toBe(true);
  });

  it('refills with elapsed time up to the burst, never beyond', async () => {
    const key = randomUUID();
    const pool = poolDatabase(orm);
    // Refill is computed from the database clock (now() - refilled_at); moving the row's refilled_at back by n seconds
    // is exactly n seconds elapsing for the bucket, without the test waiting for them or guessing how long is enough.
    const elapse = (seconds: number) =>
      sql`update rate_limit_buckets set refilled_at = refilled_at - make_interval(secs => ${seconds}) where api_key_id = ${key}::uuid`.execute(
        pool,
      );
    const bucket = { burst: 10, perSecond: 1 };
    expect(await leaseTokens(pool, key, 10, bucket)).toEqual({ granted: 10, remaining: 0 });
    expect((await leaseTokens(pool, key, 1, bucket)).granted).toBe(0);
    await elapse(3);
    // 3 s at 1/s: 3 whole tokens, however many are asked for.
    expect((await leaseTokens(pool, key, 50, bucket)).granted).toBe(3);
    await elapse(60);
    // 60 s at 1/s would be 60 tokens: capped at the burst.
    expect((await leaseTokens(pool, key, 50, bucket)).granted).toBe(10);
  });
});
