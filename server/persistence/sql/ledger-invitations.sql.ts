import { withDates, type Sql } from './sql.js';

export interface InvitationRow {
  id: string;
  organization_id: string;
  integration_id: string;
  environment: 'sandbox' | 'production';
  recipient_email: string;
  status: 'pending' | 'sent' | 'failed' | 'consumed';
  expires_at: Date;
  state_expires_at: Date | null;
  created_at: Date;
}

const invitations = withDates<InvitationListRow>(['expires_at', 'state_expires_at', 'created_at', 'sent_at', 'consumed_at']);

/** Serialize invitations to one recipient of one integration (cooldown check + insert). */
export const lockRecipient = (sql: Sql, integrationId: string, email: string) =>
  sql(`select pg_advisory_xact_lock(hashtext(?)) as locked`, [`ledger-invitation:${integrationId}:${email.toLowerCase()}`]);

/** Serialize invitations created with one API key (hourly limit count + insert). */
export const lockApiKey = (sql: Sql, apiKeyId: string) =>
  sql(`select pg_advisory_xact_lock(hashtext(?)) as locked`, [`ledger-invitation-key:${apiKeyId}`]);

/**
 * Creation time of the `limit`-th newest invitation this key created since `since`
 * (every one counts, failed deliveries too: each cost a send attempt), or undefined
 * while the key is under its limit.
 */
export async function limitthInvitationOfKey(sql: Sql, apiKeyId: string, since: Date, limit: number): Promise<Date | undefined> {
  const rows = invitations(
    await sql(
      `select created_at from ledger_invitations where api_key_id = ? and created_at > ? order by created_at desc offset ? limit 1`,
      [apiKeyId, since, limit - 1],
    ),
  );
  return rows[0]?.created_at;
}

/** The newest usable invitation to this recipient (failed deliveries do not count toward the cooldown). */
export async function latestInvitationTo(sql: Sql, integrationId: string, email: string): Promise<InvitationRow | undefined> {
  const rows = await sql(
    `select * from ledger_invitations where integration_id = ? and lower(recipient_email) = lower(?) and status <> 'failed' order by created_at desc limit 1`,
    [integrationId, email],
  );
  return invitations(rows)[0];
}

export async function insertInvitation(
  sql: Sql,
  row: {
    id: string;
    organizationId: string;
    integrationId: string;
    environment: string;
    email: string;
    secretHash: string;
    expiresAt: Date;
    now: Date;
    apiKeyId: string;
  },
): Promise<void> {
  await sql(
    `insert into ledger_invitations (id, organization_id, integration_id, environment, recipient_email, secret_hash, status, expires_at, created_at, api_key_id)
     values (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
    [row.id, row.organizationId, row.integrationId, row.environment, row.email, row.secretHash, row.expiresAt, row.now, row.apiKeyId],
  );
}

export const markInvitation = (sql: Sql, id: string, status: 'sent' | 'failed', at: Date) =>
  sql(`update ledger_invitations set status = ?, sent_at = case when ? = 'sent' then ? else sent_at end where id = ?`, [
    status,
    status,
    at,
    id,
  ]);

export async function invitationBySecret(sql: Sql, secretHash: string): Promise<InvitationRow | undefined> {
  return invitations(await sql(`select * from ledger_invitations where secret_hash = ?`, [secretHash]))[0];
}

export const setInvitationState = (sql: Sql, id: string, stateHash: string, expiresAt: Date) =>
  sql(`update ledger_invitations set state_hash = ?, state_expires_at = ? where id = ? and status = 'sent'`, [stateHash, expiresAt, id]);

export async function invitationByState(sql: Sql, stateHash: string): Promise<InvitationRow | undefined> {
  return invitations(await sql(`select * from ledger_invitations where state_hash = ?`, [stateHash]))[0];
}

/** Consume atomically: only one callback can win a given state. */
export async function consumeInvitation(sql: Sql, id: string, stateHash: string, now: Date): Promise<boolean> {
  const rows = await sql(
    `update ledger_invitations set status = 'consumed', consumed_at = ? where id = ? and state_hash = ? and status = 'sent' and state_expires_at > ? and expires_at > ? returning id`,
    [now, id, stateHash, now, now],
  );
  return rows.length === 1;
}

export const recordInvitationRealm = (sql: Sql, id: string, realmId: string) =>
  sql(`update ledger_invitations set realm_id = ? where id = ?`, [realmId, id]);

export interface InvitationListRow extends InvitationRow {
  sent_at: Date | null;
  consumed_at: Date | null;
  realm_id: string | null;
}

export const listInvitations = async (sql: Sql, filter: { integrationId?: string; limit: number }) =>
  invitations(
    await sql(
      `select * from ledger_invitations ${filter.integrationId ? 'where integration_id = ?' : ''} order by created_at desc limit ?`,
      filter.integrationId ? [filter.integrationId, filter.limit] : [filter.limit],
    ),
  );
