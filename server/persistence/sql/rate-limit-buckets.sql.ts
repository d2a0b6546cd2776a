import type { Sql } from './sql.js';

export interface BucketSettings {
  /** Tokens added per second. */
  perSecond: number;
  /** Most tokens the bucket holds. */
  burst: number;
}

export interface Lease {
  /** Tokens taken (0..want). */
  granted: number;
  /** Tokens left in the shared bucket right after this lease. */
  remaining: number;
}

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
  let rows = await sql<{ last_grant: number; tokens: number }>(LEASE_SQL, params, 'rate_limit_lease');
  if (rows.length === 0) {
    // First lease of this key: a full bucket, created once (a concurrent creator wins, both then lease from it).
    await sql(
      `insert into rate_limit_buckets (api_key_id, tokens, last_grant, refilled_at) values (?::uuid, ?::float8, 0, now())
       on conflict (api_key_id) do nothing`,
      [apiKeyId, s.burst],
    );
    rows = await sql(LEASE_SQL, params, 'rate_limit_lease');
  }
  const row = rows[0]!;
  return { granted: Number(row.last_grant), remaining: Number(row.tokens) };
}
