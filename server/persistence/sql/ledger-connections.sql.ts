import type { ConnectionStatus } from '../../../contract/common/index.js';
import type { LedgerConnection, StoredTokens } from '../../domain/ledger/types.js';
import type { Database } from '../kysely.js';

/** A connection as the domain reads it: the tenant's many-to-one columns under their domain names. */
const columns = [
  'id',
  'organization as organizationId',
  'integration as integrationId',
  'environment',
  'realmId',
  'companyName',
  'status',
  'accessTokenEnc',
  'refreshTokenEnc',
  'accessTokenExpiresAt',
  'refreshTokenExpiresAt',
  'checkedThrough',
  'purchaseOrderField',
  'settingsVersion',
  'createdAt',
  'updatedAt',
] as const;

/** The connection of this integration and realm (the public `connectionId`); `lock` holds its row for the transaction. */
export async function findConnection(
  db: Database,
  integrationId: string,
  realmId: string,
  lock = false,
): Promise<LedgerConnection | undefined> {
  return db
    .selectFrom('ledger_connections')
    .select(columns)
    .where('integration', '=', integrationId)
    .where('realmId', '=', realmId)
    .$if(lock, (q) => q.forUpdate())
    .executeTakeFirst();
}

export async function connectionById(db: Database, id: string, lock = false): Promise<LedgerConnection | undefined> {
  return db
    .selectFrom('ledger_connections')
    .select(columns)
    .where('id', '=', id)
    .$if(lock, (q) => q.forUpdate())
    .executeTakeFirst();
}

/**
 * The connection row of this integration and realm, created (with no tokens yet)
 * if there is none, and locked for the rest of the transaction. Its id must be
 * known before the tokens are encrypted: they are bound to it (server/crypto/token-cipher.ts).
 */
export async function claimConnection(
  db: Database,
  c: { organizationId: string; integrationId: string; environment: LedgerConnection['environment']; realmId: string; now: Date },
): Promise<{ id: string; status: ConnectionStatus; created: boolean }> {
  const inserted = await db
    .insertInto('ledger_connections')
    .values({
      id: crypto.randomUUID(),
      organization: c.organizationId,
      integration: c.integrationId,
      environment: c.environment,
      realmId: c.realmId,
      status: 'active',
      accessTokenEnc: '',
      refreshTokenEnc: '',
      accessTokenExpiresAt: c.now,
      createdAt: c.now,
      updatedAt: c.now,
    })
    .onConflict((oc) => oc.columns(['integration', 'realmId']).doNothing())
    .returning('id')
    .execute();
  const row = await db
    .selectFrom('ledger_connections')
    .select(['id', 'status'])
    .where('integration', '=', c.integrationId)
    .where('realmId', '=', c.realmId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return { ...row, created: inserted.length > 0 };
}

/**
 * Store a consent's fresh tokens. The status becomes `active` only from `active` or
 * `reauthorization_required`: a connection the operator paused or disconnected keeps
 * its status, so a consent never overrides the operator (docs/ledger-sync.md).
 */
export async function storeConsentTokens(
  db: Database,
  id: string,
  t: { accessEnc: string; refreshEnc: string; accessExpiresAt: Date; refreshExpiresAt: Date | null; now: Date },
): Promise<ConnectionStatus> {
  const row = await db
    .updateTable('ledger_connections')
    .set((eb) => ({
      status: eb
        .case()
        .when('status', 'in', ['paused', 'disconnected'])
        .then(eb.ref('status'))
        .else(eb.val<ConnectionStatus>('active'))
        .end(),
      accessTokenEnc: t.accessEnc,
      refreshTokenEnc: t.refreshEnc,
      accessTokenExpiresAt: t.accessExpiresAt,
      refreshTokenExpiresAt: t.refreshExpiresAt,
      updatedAt: t.now,
    }))
    .where('id', '=', id)
    .returning('status')
    .executeTakeFirstOrThrow();
  return row.status;
}

/**
 * A refresh's rotated tokens, written only while the connection is still active —
 * one conditional statement, so an operator's disconnect or pause between the
 * refresh and this write always wins. False when nothing was written.
 */
export async function storeTokens(
  db: Database,
  id: string,
  t: { accessEnc: string; refreshEnc: string; accessExpiresAt: Date; refreshExpiresAt: Date | null },
): Promise<boolean> {
  const rows = await db
    .updateTable('ledger_connections')
    .set((eb) => ({
      accessTokenEnc: t.accessEnc,
      refreshTokenEnc: t.refreshEnc,
      accessTokenExpiresAt: t.accessExpiresAt,
      refreshTokenExpiresAt: eb.fn.coalesce(eb.val(t.refreshExpiresAt), eb.ref('refreshTokenExpiresAt')),
      updatedAt: eb.fn<Date>('now'),
    }))
    .where('id', '=', id)
    .where('status', '=', 'active')
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** A refused refresh: only an active connection becomes `reauthorization_required` (an operator's pause or disconnect stands). */
export async function markReauthorizationRequired(db: Database, id: string): Promise<boolean> {
  const rows = await db
    .updateTable('ledger_connections')
    .set((eb) => ({ status: 'reauthorization_required' as const, updatedAt: eb.fn<Date>('now') }))
    .where('id', '=', id)
    .where('status', '=', 'active')
    .returning('id')
    .execute();
  return rows.length > 0;
}

export async function setConnectionStatus(db: Database, id: string, status: ConnectionStatus): Promise<boolean> {
  const rows = await db
    .updateTable('ledger_connections')
    .set((eb) => ({ status, updatedAt: eb.fn<Date>('now') }))
    .where('id', '=', id)
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** Newest first; every integration's, or one integration's. */
export async function listConnections(db: Database, filter: { integrationId?: string; limit: number }): Promise<LedgerConnection[]> {
  return db
    .selectFrom('ledger_connections')
    .select(columns)
    .$if(!!filter.integrationId, (q) => q.where('integration', '=', filter.integrationId!))
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit)
    .execute();
}

/** Set the connection's settings; the settings version moves only when a value changes. */
export async function configureConnection(db: Database, id: string, s: { purchaseOrderField: string | null }): Promise<boolean> {
  const rows = await db
    .updateTable('ledger_connections')
    .set((eb) => ({
      purchaseOrderField: s.purchaseOrderField,
      settingsVersion: eb('settingsVersion', '+', 1),
      updatedAt: eb.fn<Date>('now'),
    }))
    .where('id', '=', id)
    .where('purchaseOrderField', 'is distinct from', s.purchaseOrderField)
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** An operator's disconnect: the tokens are erased with it, so only a new consent reconnects. */
export async function disconnectConnection(db: Database, id: string): Promise<void> {
  await db
    .updateTable('ledger_connections')
    .set((eb) => ({ status: 'disconnected' as const, accessTokenEnc: '', refreshTokenEnc: '', updatedAt: eb.fn<Date>('now') }))
    .where('id', '=', id)
    .execute();
}

/** Connections whose stored tokens predate row binding (`v1.`, see server/crypto/token-cipher.ts). */
export async function connectionsWithLegacyTokens(db: Database): Promise<StoredTokens[]> {
  return db
    .selectFrom('ledger_connections')
    .select(['id', 'accessTokenEnc', 'refreshTokenEnc'])
    .where((eb) => eb.or([eb('accessTokenEnc', 'like', 'v1.%'), eb('refreshTokenEnc', 'like', 'v1.%')]))
    .execute();
}

/** Replace both token ciphertexts only if they are still the ones read; false when another writer came first. */
export async function replaceTokensIfUnchanged(
  db: Database,
  id: string,
  was: { access: string; refresh: string },
  now: { access: string; refresh: string },
): Promise<boolean> {
  const rows = await db
    .updateTable('ledger_connections')
    .set({ accessTokenEnc: now.access, refreshTokenEnc: now.refresh })
    .where('id', '=', id)
    .where('accessTokenEnc', '=', was.access)
    .where('refreshTokenEnc', '=', was.refresh)
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** Move the checkpoint forward only (never back), in the run's completing transaction. */
export async function advanceCheckpoint(db: Database, connectionId: string, through: Date): Promise<void> {
  await db
    .updateTable('ledger_connections')
    .set((eb) => ({
      checkedThrough: eb.fn<Date>('greatest', [eb.fn.coalesce('checkedThrough', eb.val(through)), eb.val(through)]),
      updatedAt: eb.fn<Date>('now'),
    }))
    .where('id', '=', connectionId)
    .execute();
}
