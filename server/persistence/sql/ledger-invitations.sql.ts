import { sql as expression, type Selectable } from 'kysely';
import type { Environment } from '../../../contract/common/index.js';
import type { LedgerInvitation } from '../../domain/ledger/types.js';
import { db, first, run, type Database } from '../db/query.js';
import type { Sql } from './sql.js';

/** Every column but the secret's and the state's hashes: those are only ever compared in a statement, never read back. */
const columns = [
  'id',
  'organization_id',
  'integration_id',
  'environment',
  'recipient_email',
  'status',
  'expires_at',
  'state_expires_at',
  'realm_id',
  'created_at',
  'sent_at',
  'consumed_at',
] as const;

const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

const invitationOf = (row: Pick<Selectable<Database['ledger_invitations']>, (typeof columns)[number]>): LedgerInvitation => ({
  id: row.id,
  organizationId: row.organization_id,
  integrationId: row.integration_id,
  environment: row.environment,
  recipientEmail: row.recipient_email,
  status: row.status,
  expiresAt: new Date(row.expires_at),
  stateExpiresAt: dateOrNull(row.state_expires_at),
  realmId: row.realm_id,
  createdAt: new Date(row.created_at),
  sentAt: dateOrNull(row.sent_at),
  consumedAt: dateOrNull(row.consumed_at),
});

/** A transaction-scoped advisory lock on a text key (parameterized: the key is data). */
const advisoryLock = (sql: Sql, key: string) =>
  run(sql, db.selectNoFrom(expression<string>`pg_advisory_xact_lock(hashtext(${key}))`.as('locked')));

/** Serialize invitations to one recipient of one integration (cooldown check + insert). */
export const lockRecipient = (sql: Sql, integrationId: string, email: string) =>
  advisoryLock(sql, `ledger-invitation:${integrationId}:${email.toLowerCase()}`);

/** Serialize invitations created with one API key (hourly limit count + insert). */
export const lockApiKey = (sql: Sql, apiKeyId: string) => advisoryLock(sql, `ledger-invitation-key:${apiKeyId}`);

/**
 * Creation time of the `limit`-th newest invitation this key created since `since`
 * (every one counts, failed deliveries too: each cost a send attempt), or undefined
 * while the key is under its limit.
 */
export async function limitthInvitationOfKey(sql: Sql, apiKeyId: string, since: Date, limit: number): Promise<Date | undefined> {
  const row = await first(
    sql,
    db
      .selectFrom('ledger_invitations')
      .select('created_at')
      .where('api_key_id', '=', apiKeyId)
      .where('created_at', '>', since.toISOString())
      .orderBy('created_at', 'desc')
      .offset(limit - 1)
      .limit(1),
  );
  return row && new Date(row.created_at);
}

/** The newest usable invitation to this recipient (failed deliveries do not count toward the cooldown). */
export async function latestInvitationTo(sql: Sql, integrationId: string, email: string): Promise<LedgerInvitation | undefined> {
  const row = await first(
    sql,
    db
      .selectFrom('ledger_invitations')
      .select(columns)
      .where('integration_id', '=', integrationId)
      .where((eb) => eb(eb.fn('lower', ['recipient_email']), '=', eb.fn('lower', [eb.val(email)])))
      .where('status', '<>', 'failed')
      .orderBy('created_at', 'desc')
      .limit(1),
  );
  return row && invitationOf(row);
}

export async function insertInvitation(
  sql: Sql,
  row: {
    id: string;
    organizationId: string;
    integrationId: string;
    environment: Environment;
    email: string;
    secretHash: string;
    expiresAt: Date;
    now: Date;
    apiKeyId: string;
  },
): Promise<void> {
  await run(
    sql,
    db.insertInto('ledger_invitations').values({
      id: row.id,
      organization_id: row.organizationId,
      integration_id: row.integrationId,
      environment: row.environment,
      recipient_email: row.email,
      secret_hash: row.secretHash,
      status: 'pending',
      expires_at: row.expiresAt,
      created_at: row.now,
      api_key_id: row.apiKeyId,
    }),
  );
}

/** The delivery's outcome; only a sent invitation records when it was sent. */
export async function markInvitation(sql: Sql, id: string, status: 'sent' | 'failed', at: Date): Promise<void> {
  await run(
    sql,
    db
      .updateTable('ledger_invitations')
      .set(status === 'sent' ? { status, sent_at: at } : { status })
      .where('id', '=', id),
  );
}

export async function invitationBySecret(sql: Sql, secretHash: string): Promise<LedgerInvitation | undefined> {
  const row = await first(sql, db.selectFrom('ledger_invitations').select(columns).where('secret_hash', '=', secretHash));
  return row && invitationOf(row);
}

export async function setInvitationState(sql: Sql, id: string, stateHash: string, expiresAt: Date): Promise<void> {
  await run(
    sql,
    db
      .updateTable('ledger_invitations')
      .set({ state_hash: stateHash, state_expires_at: expiresAt })
      .where('id', '=', id)
      .where('status', '=', 'sent'),
  );
}

export async function invitationByState(sql: Sql, stateHash: string): Promise<LedgerInvitation | undefined> {
  const row = await first(sql, db.selectFrom('ledger_invitations').select(columns).where('state_hash', '=', stateHash));
  return row && invitationOf(row);
}

/** Consume atomically: only one callback can win a given state. */
export async function consumeInvitation(sql: Sql, id: string, stateHash: string, now: Date): Promise<boolean> {
  const rows = await run(
    sql,
    db
      .updateTable('ledger_invitations')
      .set({ status: 'consumed', consumed_at: now })
      .where('id', '=', id)
      .where('state_hash', '=', stateHash)
      .where('status', '=', 'sent')
      .where('state_expires_at', '>', now.toISOString())
      .where('expires_at', '>', now.toISOString())
      .returning('id'),
  );
  return rows.length === 1;
}

export async function recordInvitationRealm(sql: Sql, id: string, realmId: string): Promise<void> {
  await run(sql, db.updateTable('ledger_invitations').set({ realm_id: realmId }).where('id', '=', id));
}

/** Newest first; every integration's, or one integration's. */
export async function listInvitations(sql: Sql, filter: { integrationId?: string; limit: number }): Promise<LedgerInvitation[]> {
  const rows = await run(
    sql,
    db
      .selectFrom('ledger_invitations')
      .select(columns)
      .$if(!!filter.integrationId, (q) => q.where('integration_id', '=', filter.integrationId!))
      .orderBy('created_at', 'desc')
      .limit(filter.limit),
  );
  return rows.map(invitationOf);
}
