import type { Selectable } from 'kysely';
import type { ConnectionStatus } from '../../../contract/common/index.js';
import type { LedgerConnection, StoredTokens } from '../../domain/ledger/types.js';
import { db, first, run, type Database } from '../db/query.js';
import type { Sql } from './sql.js';

const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

const connectionOf = (row: Selectable<Database['ledger_connections']>): LedgerConnection => ({
  id: row.id,
  organizationId: row.organization_id,
  integrationId: row.integration_id,
  environment: row.environment,
  realmId: row.realm_id,
  companyName: row.company_name,
  status: row.status,
  accessTokenEnc: row.access_token_enc,
  refreshTokenEnc: row.refresh_token_enc,
  accessTokenExpiresAt: new Date(row.access_token_expires_at),
  refreshTokenExpiresAt: dateOrNull(row.refresh_token_expires_at),
  checkedThrough: dateOrNull(row.checked_through),
  purchaseOrderField: row.purchase_order_field,
  settingsVersion: row.settings_version,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

/** The connection of this integration and realm (the public `connectionId`); `lock` holds its row for the transaction. */
export async function findConnection(
  sql: Sql,
  integrationId: string,
  realmId: string,
  lock = false,
): Promise<LedgerConnection | undefined> {
  const row = await first(
    sql,
    db
      .selectFrom('ledger_connections')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .where('realm_id', '=', realmId)
      .$if(lock, (q) => q.forUpdate()),
  );
  return row && connectionOf(row);
}

export async function connectionById(sql: Sql, id: string, lock = false): Promise<LedgerConnection | undefined> {
  const row = await first(
    sql,
    db
      .selectFrom('ledger_connections')
      .selectAll()
      .where('id', '=', id)
      .$if(lock, (q) => q.forUpdate()),
  );
  return row && connectionOf(row);
}

/**
 * The connection row of this integration and realm, created (with no tokens yet)
 * if there is none, and locked for the rest of the transaction. Its id must be
 * known before the tokens are encrypted: they are bound to it (server/crypto/token-cipher.ts).
 */
export async function claimConnection(
  sql: Sql,
  c: { organizationId: string; integrationId: string; environment: LedgerConnection['environment']; realmId: string; now: Date },
): Promise<{ id: string; status: ConnectionStatus; created: boolean }> {
  const inserted = await run(
    sql,
    db
      .insertInto('ledger_connections')
      .values({
        id: crypto.randomUUID(),
        organization_id: c.organizationId,
        integration_id: c.integrationId,
        environment: c.environment,
        realm_id: c.realmId,
        status: 'active',
        access_token_enc: '',
        refresh_token_enc: '',
        access_token_expires_at: c.now,
        created_at: c.now,
        updated_at: c.now,
      })
      .onConflict((oc) => oc.columns(['integration_id', 'realm_id']).doNothing())
      .returning('id'),
  );
  const row = (await first(
    sql,
    db
      .selectFrom('ledger_connections')
      .select(['id', 'status'])
      .where('integration_id', '=', c.integrationId)
      .where('realm_id', '=', c.realmId)
      .forUpdate(),
  ))!;
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
): Promise<ConnectionStatus> {
  const row = await first(
    sql,
    db
      .updateTable('ledger_connections')
      .set((eb) => ({
        status: eb
          .case()
          .when('status', 'in', ['paused', 'disconnected'])
          .then(eb.ref('status'))
          .else(eb.val<ConnectionStatus>('active'))
          .end(),
        access_token_enc: t.accessEnc,
        refresh_token_enc: t.refreshEnc,
        access_token_expires_at: t.accessExpiresAt,
        refresh_token_expires_at: t.refreshExpiresAt,
        updated_at: t.now,
      }))
      .where('id', '=', id)
      .returning('status'),
  );
  return row!.status;
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
  const rows = await run(
    sql,
    db
      .updateTable('ledger_connections')
      .set((eb) => ({
        access_token_enc: t.accessEnc,
        refresh_token_enc: t.refreshEnc,
        access_token_expires_at: t.accessExpiresAt,
        refresh_token_expires_at: eb.fn.coalesce(eb.val(t.refreshExpiresAt), eb.ref('refresh_token_expires_at')),
        updated_at: eb.fn<string>('now'),
      }))
      .where('id', '=', id)
      .where('status', '=', 'active')
      .returning('id'),
  );
  return rows.length > 0;
}

/** A refused refresh: only an active connection becomes `reauthorization_required` (an operator's pause or disconnect stands). */
export async function markReauthorizationRequired(sql: Sql, id: string): Promise<boolean> {
  const rows = await run(
    sql,
    db
      .updateTable('ledger_connections')
      .set((eb) => ({ status: 'reauthorization_required', updated_at: eb.fn<string>('now') }))
      .where('id', '=', id)
      .where('status', '=', 'active')
      .returning('id'),
  );
  return rows.length > 0;
}

export async function setConnectionStatus(sql: Sql, id: string, status: ConnectionStatus): Promise<boolean> {
  const rows = await run(
    sql,
    db
      .updateTable('ledger_connections')
      .set((eb) => ({ status, updated_at: eb.fn<string>('now') }))
      .where('id', '=', id)
      .returning('id'),
  );
  return rows.length > 0;
}

/** Newest first; every integration's, or one integration's. */
export async function listConnections(sql: Sql, filter: { integrationId?: string; limit: number }): Promise<LedgerConnection[]> {
  const rows = await run(
    sql,
    db
      .selectFrom('ledger_connections')
      .selectAll()
      .$if(!!filter.integrationId, (q) => q.where('integration_id', '=', filter.integrationId!))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.limit),
  );
  return rows.map(connectionOf);
}

/** Set the connection's settings; the settings version moves only when a value changes. */
export async function configureConnection(sql: Sql, id: string, s: { purchaseOrderField: string | null }): Promise<boolean> {
  const rows = await run(
    sql,
    db
      .updateTable('ledger_connections')
      .set((eb) => ({
        purchase_order_field: s.purchaseOrderField,
        settings_version: eb('settings_version', '+', 1),
        updated_at: eb.fn<string>('now'),
      }))
      .where('id', '=', id)
      .where('purchase_order_field', 'is distinct from', s.purchaseOrderField)
      .returning('id'),
  );
  return rows.length > 0;
}

/** An operator's disconnect: the tokens are erased with it, so only a new consent reconnects. */
export async function disconnectConnection(sql: Sql, id: string): Promise<void> {
  await run(
    sql,
    db
      .updateTable('ledger_connections')
      .set((eb) => ({ status: 'disconnected', access_token_enc: '', refresh_token_enc: '', updated_at: eb.fn<string>('now') }))
      .where('id', '=', id),
  );
}

/** Connections whose stored tokens predate row binding (`v1.`, see server/crypto/token-cipher.ts). */
export async function connectionsWithLegacyTokens(sql: Sql): Promise<StoredTokens[]> {
  const rows = await run(
    sql,
    db
      .selectFrom('ledger_connections')
      .select(['id', 'access_token_enc', 'refresh_token_enc'])
      .where((eb) => eb.or([eb('access_token_enc', 'like', 'v1.%'), eb('refresh_token_enc', 'like', 'v1.%')])),
  );
  return rows.map((r) => ({ id: r.id, accessTokenEnc: r.access_token_enc, refreshTokenEnc: r.refresh_token_enc }));
}

/** Replace both token ciphertexts only if they are still the ones read; false when another writer came first. */
export async function replaceTokensIfUnchanged(
  sql: Sql,
  id: string,
  was: { access: string; refresh: string },
  now: { access: string; refresh: string },
): Promise<boolean> {
  const rows = await run(
    sql,
    db
      .updateTable('ledger_connections')
      .set({ access_token_enc: now.access, refresh_token_enc: now.refresh })
      .where('id', '=', id)
      .where('access_token_enc', '=', was.access)
      .where('refresh_token_enc', '=', was.refresh)
      .returning('id'),
  );
  return rows.length > 0;
}

/** Move the checkpoint forward only (never back), in the run's completing transaction. */
export async function advanceCheckpoint(sql: Sql, connectionId: string, through: Date): Promise<void> {
  await run(
    sql,
    db
      .updateTable('ledger_connections')
      .set((eb) => ({
        checked_through: eb.fn<string>('greatest', [eb.fn.coalesce('checked_through', eb.val(through)), eb.val(through)]),
        updated_at: eb.fn<string>('now'),
      }))
      .where('id', '=', connectionId),
  );
}
