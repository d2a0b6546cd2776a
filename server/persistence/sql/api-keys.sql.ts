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

export async function findKeyByPrefix(sql: Sql, prefix: string): Promise<KeyRow | undefined> {
  const rows = await sql<KeyRow>(
    `select k.id, k.secret_hash, k.scopes, k.revoked_at, k.last_used_at,
            i.id as integration_id, i.organization_id, i.provider, i.environment, o.status as organization_status
       from api_keys k join integrations i on i.id = k.integration_id join organizations o on o.id = i.organization_id
      where k.prefix = ?`,
    [prefix],
  );
  return rows[0];
}

export async function isLinkedToLedger(sql: Sql, providerIntegrationId: string): Promise<boolean> {
  const rows = await sql<{ linked: boolean }>(
    'select exists (select 1 from integration_links where provider_integration_id = ?) as linked',
    [providerIntegrationId],
  );
  return rows[0]?.linked === true;
}

/** Record use; only moves forward, so concurrent requests never fight over an older value. */
export async function touchKey(sql: Sql, id: string, at: Date, resolutionMs: number): Promise<void> {
  await sql(`update api_keys set last_used_at = ? where id = ? and (last_used_at is null or last_used_at < ?)`, [
    at,
    id,
    new Date(at.getTime() - resolutionMs),
  ]);
}
