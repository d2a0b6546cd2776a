import { sql } from 'kysely';
import type { Environment } from '../../../contract/common/index.js';
import type { LedgerInvitation } from '../../domain/ledger/types.js';
import type { Database } from '../kysely.js';

/** Every column but the secret's and the state's hashes: those are only ever compared in a statement, never read back. */
const columns = [
  'id',
  'organization as organizationId',
  'integration as integrationId',
  'environment',
  'recipientEmail',
  'status',
  'expiresAt',
  'stateExpiresAt',
  'realmId',
  'createdAt',
  'sentAt',
  'consumedAt',
] as const;

/** A transaction-scoped advisory lock on a text key (parameterized: the key is data). */
const advisoryLock = async (db: Database, key: string): Promise<void> => {
  await db.selectNoFrom(sql<string>`pg_advisory_xact_lock(hashtext(${key}))`.as('locked')).execute();
};

/** Serialize invitations to one recipient of one integration (cooldown check + insert). */
export const lockRecipient = (db: Database, integrationId: string, email: string) =>
  advisoryLock(db, `ledger-invitation:${integrationId}:${email.toLowerCase()}`);

/** Serialize invitations created with one API key (hourly limit count + insert). */
export const lockApiKey = (db: Database, apiKeyId: string) => advisoryLock(db, `ledger-invitation-key:${apiKeyId}`);

/**
 * Creation time of the `limit`-th newest invitation this key created since `since`
 * (every one counts, failed deliveries too: each cost a send attempt), or undefined
 * while the key is under its limit.
 */
export async function limitthInvitationOfKey(db: Database, apiKeyId: string, since: Date, limit: number): Promise<Date | undefined> {
  const row = await db
    .selectFrom('ledger_invitations')
    .select('createdAt')
    .where('apiKeyId', '=', apiKeyId)
    .where('createdAt', '>', since)
    .orderBy('createdAt', 'desc')
    .offset(limit - 1)
    .limit(1)
    .executeTakeFirst();
  return row?.createdAt;
}

/** The newest usable invitation to this recipient (failed deliveries do not count toward the cooldown). */
export async function latestInvitationTo(db: Database, integrationId: string, email: string): Promise<LedgerInvitation | undefined> {
  return db
    .selectFrom('ledger_invitations')
    .select(columns)
    .where('integration', '=', integrationId)
    .where((eb) => eb(eb.fn('lower', ['recipientEmail']), '=', eb.fn('lower', [eb.val(email)])))
    .where('status', '<>', 'failed')
    .orderBy('createdAt', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertInvitation(
  db: Database,
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
  await db
    .insertInto('ledger_invitations')
    .values({
      id: row.id,
      organization: row.organizationId,
      integration: row.integrationId,
      environment: row.environment,
      recipientEmail: row.email,
      secretHash: row.secretHash,
      status: 'pending',
      expiresAt: row.expiresAt,
      createdAt: row.now,
      apiKeyId: row.apiKeyId,
    })
    .execute();
}

/** The delivery's outcome; only a sent invitation records when it was sent. */
export async function markInvitation(db: Database, id: string, status: 'sent' | 'failed', at: Date): Promise<void> {
  await db
    .updateTable('ledger_invitations')
    .set(status === 'sent' ? { status, sentAt: at } : { status })
    .where('id', '=', id)
    .execute();
}

export async function invitationBySecret(db: Database, secretHash: string): Promise<LedgerInvitation | undefined> {
  return db.selectFrom('ledger_invitations').select(columns).where('secretHash', '=', secretHash).executeTakeFirst();
}

export async function setInvitationState(db: Database, id: string, stateHash: string, expiresAt: Date): Promise<void> {
  await db
    .updateTable('ledger_invitations')
    .set({ stateHash, stateExpiresAt: expiresAt })
    .where('id', '=', id)
    .where('status', '=', 'sent')
    .execute();
}

export async function invitationByState(db: Database, stateHash: string): Promise<LedgerInvitation | undefined> {
  return db.selectFrom('ledger_invitations').select(columns).where('stateHash', '=', stateHash).executeTakeFirst();
}

/** Consume atomically: only one callback can win a given state. */
export async function consumeInvitation(db: Database, id: string, stateHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .updateTable('ledger_invitations')
    .set({ status: 'consumed', consumedAt: now })
    .where('id', '=', id)
    .where('stateHash', '=', stateHash)
    .where('status', '=', 'sent')
    .where('stateExpiresAt', '>', now)
    .where('expiresAt', '>', now)
    .returning('id')
    .execute();
  return rows.length === 1;
}

export async function recordInvitationRealm(db: Database, id: string, realmId: string): Promise<void> {
  await db.updateTable('ledger_invitations').set({ realmId }).where('id', '=', id).execute();
}

/** Newest first; every integration's, or one integration's. */
export async function listInvitations(db: Database, filter: { integrationId?: string; limit: number }): Promise<LedgerInvitation[]> {
  return db
    .selectFrom('ledger_invitations')
    .select(columns)
    .$if(!!filter.integrationId, (q) => q.where('integration', '=', filter.integrationId!))
    .orderBy('createdAt', 'desc')
    .limit(filter.limit)
    .execute();
}
