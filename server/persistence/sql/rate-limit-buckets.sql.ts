import { sql as expression, type Selectable } from 'kysely';
import type { BucketSettings, Lease } from '../../domain/rate-limit/types.js';
import { db, run, type Database } from '../db/query.js';
import type { Sql } from './sql.js';

type LeaseRow = Pick<Selectable<Database['rate_limit_buckets']>, 'last_grant' | 'tokens'>;

/**
 * Take up to `want` whole tokens from a key's shared bucket, refilled first for
 * the time elapsed (PostgreSQL's clock, so every process agrees). One statement:
 * the row lock serialises concurrent leases, and every expression reads the
 * locked row, so no two leases hand out the same token.
 */
const LEASE_SQL = `
  update rate_limit_buckets
     set tokens = least(?::float8, tokens + greatest(0, extract(epoch from (now() - refilled_at))) * ?::float8)
                - least(?::int, floor(least(?::float8, tokens + greatest(0, extract(epoch from (now() - refilled_at))) * ?::float8))::int),
         last_grant = least(?::int, floor(least(?::float8, tokens + greatest(0, extract(epoch from (now() - refilled_at))) * ?::float8))::int),
         refilled_at = greatest(refilled_at, now())
   where api_key_id = ?::uuid
  returning last_grant, tokens`;

export async function leaseTokens(sql: Sql, apiKeyId: string, want: number, s: BucketSettings): Promise<Lease> {
  const params = [s.burst, s.perSecond, want, s.burst, s.perSecond, want, s.burst, s.perSecond, apiKeyId];
  let rows = await sql<LeaseRow>(LEASE_SQL, params, 'rate_limit_lease');
  if (rows.length === 0) {
    // First lease of this key: a full bucket, created once (a concurrent creator wins, both then lease from it).
    await createFullBucket(sql, apiKeyId, s.burst);
    rows = await sql<LeaseRow>(LEASE_SQL, params, 'rate_limit_lease');
  }
  const row = rows[0]!;
  return { granted: Number(row.last_grant), remaining: Number(row.tokens) };
}

async function createFullBucket(sql: Sql, apiKeyId: string, burst: number): Promise<void> {
  await run(
    sql,
    db
      .insertInto('rate_limit_buckets')
      .values({ api_key_id: apiKeyId, tokens: burst, last_grant: 0, refilled_at: expression<string>`now()` })
      .onConflict((conflict) => conflict.column('api_key_id').doNothing()),
  );
}
