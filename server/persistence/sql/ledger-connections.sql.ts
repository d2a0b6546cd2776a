import type { Sql } from './sql.js';

export interface ConnectionRow {
  id: string;
  organization_id: string;
  integration_id: string;
  environment: 'sandbox' | 'production';
  realm_id: string;
  company_name: string | null;
  status: 'active' | 'paused' | 'disconnected' | 'reauthorization_required';
  access_token_enc: string;
  refresh_token_enc: string;
  access_token_expires_at: Date;
  refresh_token_expires_at: Date | null;
  checked_through: Date | null;
  created_at: Date;
  updated_at: Date;
}

export async function findConnectionRow(sql: Sql, integrationId: string, realmId: string, lock = false): Promise<ConnectionRow | undefined> {
  return (await sql<ConnectionRow>(`select * from ledger_connections where integration_id = ? and realm_id = ?${lock ? ' for update' : ''}`, [integrationId, realmId]))[0];
}

export async function connectionById(sql: Sql, id: string): Promise<ConnectionRow | undefined> {
  return (await sql<ConnectionRow>(`select * from ledger_connections where id = ?`, [id]))[0];
}

/** Activate (or re-activate after reconnecting) the connection with fresh encrypted tokens. */
export async function upsertConnection(
  sql: Sql,
  c: { organizationId: string; integrationId: string; environment: string; realmId: string; accessEnc: string; refreshEnc: string; accessExpiresAt: Date; refreshExpiresAt: Date | null; now: Date },
): Promise<string> {
  const rows = await sql<{ id: string }>(
    `insert into ledger_connections (id, organization_id, integration_id, environment, realm_id, status, access_token_enc, refresh_token_enc, access_token_expires_at, refresh_token_expires_at, created_at, updated_at)
     values (?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, ?)
     on conflict (integration_id, realm_id) do update set status = 'active', access_token_enc = excluded.access_token_enc, refresh_token_enc = excluded.refresh_token_enc,
       access_token_expires_at = excluded.access_token_expires_at, refresh_token_expires_at = excluded.refresh_token_expires_at, updated_at = excluded.updated_at
     returning id`,
    [crypto.randomUUID(), c.organizationId, c.integrationId, c.environment, c.realmId, c.accessEnc, c.refreshEnc, c.accessExpiresAt, c.refreshExpiresAt, c.now, c.now],
  );
  return rows[0]!.id;
}

export const storeTokens = (sql: Sql, id: string, t: { accessEnc: string; refreshEnc: string; accessExpiresAt: Date; refreshExpiresAt: Date | null }) =>
  sql(`update ledger_connections set access_token_enc = ?, refresh_token_enc = ?, access_token_expires_at = ?, refresh_token_expires_at = coalesce(?, refresh_token_expires_at), updated_at = now() where id = ?`, [
    t.accessEnc,
    t.refreshEnc,
    t.accessExpiresAt,
    t.refreshExpiresAt,
    id,
  ]);

export const setConnectionStatus = (sql: Sql, id: string, status: ConnectionRow['status']) =>
  sql<{ id: string }>(`update ledger_connections set status = ?, updated_at = now() where id = ? returning id`, [status, id]);

export const listConnections = (sql: Sql, filter: { integrationId?: string }) =>
  sql<ConnectionRow>(`select * from ledger_connections ${filter.integrationId ? 'where integration_id = ?' : ''} order by created_at desc`, filter.integrationId ? [filter.integrationId] : []);
