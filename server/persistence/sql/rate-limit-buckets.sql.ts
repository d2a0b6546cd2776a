import { sql } from 'kysely';
import type { BucketSettings, Lease } from '../../domain/rate-limit/types.js';
import { hotStatement, runNamed, type Database } from '../kysely.js';

/**
 * Take up to `want` whole tokens from a key's shared bucket, refilled first for
 * the time elapsed (PostgreSQL's clock, so every process agrees). One statement:
 * the row lock serialises concurrent leases, and every expression reads the
 * locked row, so no two leases hand out the same token. Its row is the
 * database's: `int` and `float8` both read back as numbers.
 */
const LEASE = hotStatement(
  'rate_limit_lease',
  (apiKeyId: string, want: number, burst: number, perSecond: number) => sql<{ last_grant: number; tokens: number }>`
  update rate_limit_buckets
     set tokens = least(${burst}::float8, tokens + greatest(0, extract(epoch from (now() - refilled_at))) * ${perSecond}::float8)
                - least(${want}::int, floor(least(${burst}::float8, tokens + greatest(0, extract(epoch from (now() - refilled_at))) * ${perSecond}::float8))::int),
         last_grant = least(${want}::int, floor(least(${burst}::float8, tokens + greatest(0, extract(epoch from (now() - refilled_at))) * ${perSecond}::float8))::int),
         refilled_at = greatest(refilled_at, now())
   where api_key_id = ${apiKeyId}::uuid
  returning last_grant, tokens`,
);

export async function leaseTokens(db: Database, apiKeyId: string, want: number, s: BucketSettings): Promise<Lease> {
  let rows = await runNamed(db, LEASE, apiKeyId, want, s.burst, s.perSecond);
  if (rows.length === 0) {
    // First lease of this key: a full bucket, created once (a concurrent creator wins, both then lease from it).
    await createFullBucket(db, apiKeyId, s.burst);
    rows = await runNamed(db, LEASE, apiKeyId, want, s.burst, s.perSecond);
  }
  const row = rows[0]!;
  return { granted: row.last_grant, remaining: row.tokens };
}

async function createFullBucket(db: Database, apiKeyId: string, burst: number): Promise<void> {
  await db
    .insertInto('rate_limit_buckets')
    .values({ apiKeyId, tokens: burst, lastGrant: 0, refilledAt: sql<Date>`now()` })
    .onConflict((conflict) => conflict.column('apiKeyId').doNothing())
    .execute();
}
