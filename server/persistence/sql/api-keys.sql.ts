import type { Environment, Provider } from '../../../contract/common/index.js';
import type { Sql } from './sql.js';

export interface KeyRow {
  id: string;
  secret_hash: string;
  scopes: string[];
  /** Timestamps arrive as text from this driver configuration; compare with `new Date(...)`. */
  revoked_at: string | null;
  last_used_at: string | null;
  integration_id: string;
  organization_id: string;
  provider: Provider;
  environment: Environment;
  organization_status: 'active' | 'inactive';
}

export interface KeyRecord extends KeyRow {
  /** Whether the key's integration is linked to an accounting source (what `invoices:read` needs). */
  linked: boolean;
}

/**
 * The key behind a prefix with everything a verdict needs, and the auth epoch
 * read in the same statement (so in the same snapshot): the record is current
 * for as long as the epoch has not moved.
 */
export async function findKeyRecord(sql: Sql, prefix: string): Promise<{ epoch: string; key: KeyRecord | undefined }> {
  return keyRecordWhere(sql, 'k.prefix = ?', prefix);
}

/** The key with this id, as `findKeyRecord` reads it (operators act on behalf of a key by its id). */
export async function keyRecordById(sql: Sql, id: string): Promise<KeyRecord | undefined> {
  return (await keyRecordWhere(sql, 'k.id = ?', id)).key;
}

async function keyRecordWhere(sql: Sql, condition: 'k.prefix = ?' | 'k.id = ?', value: string) {
  const rows = await sql<KeyRecord & { epoch: string }>(
    `select e.value as epoch, k.id, k.secret_hash, k.scopes, k.revoked_at, k.last_used_at,
            i.id as integration_id, i.organization_id, i.provider, i.environment, o.status as organization_status,
            exists (select 1 from integration_links l where l.provider_integration_id = i.id) as linked
       from auth_epoch e
       left join (api_keys k join integrations i on i.id = k.integration_id join organizations o on o.id = i.organization_id)
         on ${condition}
      where e.id`,
    [value],
  );
  const { epoch, ...key } = rows[0]!;
  return { epoch, key: key.id ? key : undefined };
}

/**
 * The current auth epoch (see migration auth_epoch): one primary-key read. Named: it runs for every request, and
 * parsing and planning it cost PostgreSQL more than running it.
 */
export async function readAuthEpoch(sql: Sql): Promise<string> {
  const rows = await sql<{ value: string }>('select value from auth_epoch where id', [], 'auth_epoch_read');
  return rows[0]!.value;
}

/** Record use; only moves forward, so concurrent requests never fight over an older value. */
export async function touchKey(sql: Sql, id: string, at: Date, resolutionMs: number): Promise<void> {
  await sql(`update api_keys set last_used_at = ? where id = ? and (last_used_at is null or last_used_at < ?)`, [
    at,
    id,
    new Date(at.getTime() - resolutionMs),
  ]);
}
