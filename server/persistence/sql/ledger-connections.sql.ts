import { withDates, type Sql } from './sql.js';

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
  purchase_order_field: string | null;
  settings_version: number;
  created_at: Date;
  updated_at: Date;
}

const connections = withDates<ConnectionRow>([
  'access_token_expires_at',
  'refresh_token_expires_at',
  'checked_through',
  'created_at',
  'updated_at',
]);

export async function findConnectionRow(
  sql: Sql,
  integrationId: string,
  realmId: string,
  lock = false,
): Promise<ConnectionRow | undefined> {
  return connections(
    await sql(`select * from ledger_connections where integration_id = ? and realm_id = ?${lock ? ' for update' : ''}`, [
      integrationId,
      realmId,
    ]),
  )[0];
}

export async function connectionById(sql: Sql, id: string, lock = false): Promise<ConnectionRow | undefined> {
  return connections(await sql(`select * from ledger_connections where id = ?${lock ? ' for update' : ''}`, [id]))[0];
}

/**
 * The connection row of this integration and realm, created (with no tokens yet)
 * if there is none, and locked for the rest of the transaction. Its id must be
 * known before the tokens are encrypted: they are bound to it (server/crypto/token-cipher.ts).
 */
export async function claimConnection(
  sql: Sql,
  c: { organizationId: string; integrationId: string; environment: string; realmId: string; now: Date },
): Promise<{ id: string; status: ConnectionRow['status']; created: boolean }> {
  const inserted = await sql<{ id: string }>(
    `insert into ledger_connections (id, organization_id, integration_id, environment, realm_id, status, access_token_enc, refresh_token_enc, access_token_expires_at, created_at, updated_at)
     values (?, ?, ?, ?, ?, 'active', '', '', ?, ?, ?)
     on conflict (integration_id, realm_id) do nothing
     returning id`,
    [crypto.randomUUID(), c.organizationId, c.integrationId, c.environment, c.realmId, c.now, c.now, c.now],
  );
  const row = (
    await sql<{ id: string; status: ConnectionRow['status'] }>(
      `select id, status from ledger_connections where integration_id = ? and realm_id = ? for update`,
      [c.integrationId, c.realmId],
    )
  )[0]!;
  return { ...row, created: inserted.length > 0 };
}

/**
 * Store a consent's fresh tokens. The status becomes `active` only from `active` or
 * `reauthorization_required`: a connection the operator paused or disconnected keeps
 * its status, so a consent never overrides the operator (docs/ledger-sync.md).
 */
export async function storeConsentTokens(
  sql: Sql,
  id: string,
  t: { accessEnc: string; refreshEnc: string; accessExpiresAt: Date; refreshExpiresAt: Date | null; now: Date },
): Promise<ConnectionRow['status']> {
  const rows = await sql<{ status: ConnectionRow['status'] }>(
    `update ledger_connections set status = case when status in ('paused', 'disconnected') then status else 'active' end,
       access_token_enc = ?, refresh_token_enc = ?, access_token_expires_at = ?, refresh_token_expires_at = ?, updated_at = ?
     where id = ? returning status`,
    [t.accessEnc, t.refreshEnc, t.accessExpiresAt, t.refreshExpiresAt, t.now, id],
  );
  return rows[0]!.status;
}

/**
 * A refresh's rotated tokens, written only while the connection is still active —
 * one conditional statement, so an operator's disconnect or pause between the
 * refresh and this write always wins. False when nothing was written.
 */
export async function storeTokens(
  sql: Sql,
  id: string,
  t: { accessEnc: string; refreshEnc: string; accessExpiresAt: Date; refreshExpiresAt: Date | null },
): Promise<boolean> {
  const rows = await sql<{ id: string }>(
    `update ledger_connections set access_token_enc = ?, refresh_token_enc = ?, access_token_expires_at = ?, refresh_token_expires_at = coalesce(?, refresh_token_expires_at), updated_at = now()
     where id = ? and status = 'active' returning id`,
    [t.accessEnc, t.refreshEnc, t.accessExpiresAt, t.refreshExpiresAt, id],
  );
  return rows.length > 0;
}

/** A refused refresh: only an active connection becomes `reauthorization_required` (an operator's pause or disconnect stands). */
export const markReauthorizationRequired = (sql: Sql, id: string) =>
  sql<{ id: string }>(
    `update ledger_connections set status = 'reauthorization_required', updated_at = now() where id = ? and status = 'active' returning id`,
    [id],
  );

export const setConnectionStatus = (sql: Sql, id: string, status: ConnectionRow['status']) =>
  sql<{ id: string }>(`update ledger_connections set status = ?, updated_at = now() where id = ? returning id`, [status, id]);

export const listConnections = async (sql: Sql, filter: { integrationId?: string; limit: number }) =>
  connections(
    await sql(
      `select * from ledger_connections ${filter.integrationId ? 'where integration_id = ?' : ''} order by created_at desc, id desc limit ?`,
      filter.integrationId ? [filter.integrationId, filter.limit] : [filter.limit],
    ),
  );

/** Set the connection's settings; the settings version moves only when a value changes. */
export async function configureConnection(sql: Sql, id: string, s: { purchaseOrderField: string | null }): Promise<boolean> {
  const rows = await sql(
    `update ledger_connections set purchase_order_field = ?, settings_version = settings_version + 1, updated_at = now()
     where id = ? and purchase_order_field is distinct from ? returning id`,
    [s.purchaseOrderField, id, s.purchaseOrderField],
  );
  return rows.length > 0;
}

/** An operator's disconnect: the tokens are erased with it, so only a new consent reconnects. */
export const disconnectConnection = (sql: Sql, id: string) =>
  sql(
    `update ledger_connections set status = 'disconnected', access_token_enc = '', refresh_token_enc = '', updated_at = now() where id = ?`,
    [id],
  );

/** Connections whose stored tokens predate row binding (`v1.`, see server/crypto/token-cipher.ts). */
export const connectionsWithLegacyTokens = (sql: Sql) =>
  sql<{ id: string; access_token_enc: string; refresh_token_enc: string }>(
    `select id, access_token_enc, refresh_token_enc from ledger_connections where access_token_enc like 'v1.%' or refresh_token_enc like 'v1.%'`,
  );

/** Replace both token ciphertexts only if they are still the ones read; false when another writer came first. */
export async function replaceTokensIfUnchanged(
  sql: Sql,
  id: string,
  was: { access: string; refresh: string },
  now: { access: string; refresh: string },
): Promise<boolean> {
  const rows = await sql(
    `update ledger_connections set access_token_enc = ?, refresh_token_enc = ? where id = ? and access_token_enc = ? and refresh_token_enc = ? returning id`,
    [now.access, now.refresh, id, was.access, was.refresh],
  );
  return rows.length > 0;
}
