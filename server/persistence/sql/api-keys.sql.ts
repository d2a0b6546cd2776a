import type { Selectable } from 'kysely';
import type { Scope } from '../../../contract/common/index.js';
import type { KeyRecord } from '../../domain/auth/types.js';
import type { ApiKey } from '../../domain/tenancy/types.js';
import { db, first, run, type Database } from '../db/query.js';
import type { Sql } from './sql.js';

/** A key record's columns: the key's, its integration's and its organization's status, and one computed column. */
type KeyRecordRow = Pick<Selectable<Database['api_keys']>, 'id' | 'secret_hash' | 'scopes' | 'revoked_at' | 'last_used_at'> &
  Pick<Selectable<Database['integrations']>, 'organization_id' | 'provider' | 'environment'> & {
    integration_id: Selectable<Database['integrations']>['id'];
    organization_status: Selectable<Database['organizations']>['status'];
    /** Computed: `exists` over `integration_links`. */
    linked: boolean;
  };

/** The epoch row with no key joined: every key column null (`exists` over nothing is false). */
type NoKeyRow = { [Column in Exclude<keyof KeyRecordRow, 'linked'>]: null } & { linked: false };

const dateOf = (at: string | null): Date | null => (at === null ? null : new Date(at));

// Scopes are a text[] column; only `issueApiKey` writes it, with scopes the contract validated. Read once per
// uncached key (the record is then cached per auth epoch), so this copy costs what the former row copy did.
const keyRecordOf = (row: KeyRecordRow): KeyRecord => ({
  id: row.id,
  secretHash: row.secret_hash,
  scopes: row.scopes as Scope[],
  revokedAt: dateOf(row.revoked_at),
  lastUsedAt: dateOf(row.last_used_at),
  integrationId: row.integration_id,
  organizationId: row.organization_id,
  provider: row.provider,
  environment: row.environment,
  organizationStatus: row.organization_status,
  linked: row.linked,
});

/**
 * One statement text (not composed, not named): on the hot path for every key this process does not hold cached.
 * The left join keeps the epoch row when no key has the prefix.
 */
const KEY_RECORD_BY_PREFIX_SQL = `select e.value as epoch, k.id, k.secret_hash, k.scopes, k.revoked_at, k.last_used_at,
            i.id as integration_id, i.organization_id, i.provider, i.environment, o.status as organization_status,
            exists (select 1 from integration_links l where l.provider_integration_id = i.id) as linked
       from auth_epoch e
       left join (api_keys k join integrations i on i.id = k.integration_id join organizations o on o.id = i.organization_id)
         on k.prefix = ?
      where e.id`;

/**
 * The key behind a prefix with everything a verdict needs, and the auth epoch
 * read in the same statement (so in the same snapshot): the record is current
 * for as long as the epoch has not moved.
 */
export async function findKeyRecord(sql: Sql, prefix: string): Promise<{ epoch: string; key: KeyRecord | undefined }> {
  type Row = { epoch: Selectable<Database['auth_epoch']>['value'] } & (KeyRecordRow | NoKeyRow);
  const row = (await sql<Row>(KEY_RECORD_BY_PREFIX_SQL, [prefix]))[0]!;
  return { epoch: row.epoch, key: row.id === null ? undefined : keyRecordOf(row) };
}

/** The key with this id, as `findKeyRecord` reads it (operators act on behalf of a key by its id). */
export async function keyRecordById(sql: Sql, id: string): Promise<KeyRecord | undefined> {
  const row = await first(
    sql,
    db
      .selectFrom('api_keys as k')
      .innerJoin('integrations as i', 'i.id', 'k.integration_id')
      .innerJoin('organizations as o', 'o.id', 'i.organization_id')
      .select(['k.id', 'k.secret_hash', 'k.scopes', 'k.revoked_at', 'k.last_used_at'])
      .select(['i.id as integration_id', 'i.organization_id', 'i.provider', 'i.environment', 'o.status as organization_status'])
      .select((eb) =>
        eb
          .exists(eb.selectFrom('integration_links as l').select(eb.lit(1).as('one')).whereRef('l.provider_integration_id', '=', 'i.id'))
          // PostgreSQL answers `exists` with a boolean (Kysely's SqlBool also allows other dialects' 0/1).
          .$castTo<boolean>()
          .as('linked'),
      )
      .where('k.id', '=', id),
  );
  return row && keyRecordOf(row);
}

/**
 * The current auth epoch (see migration auth_epoch): one primary-key read. Named: it runs for every request, and
 * parsing and planning it cost PostgreSQL more than running it.
 */
export async function readAuthEpoch(sql: Sql): Promise<string> {
  const rows = await sql<Pick<Selectable<Database['auth_epoch']>, 'value'>>('select value from auth_epoch where id', [], 'auth_epoch_read');
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

const apiKeyColumns = ['id', 'integration_id', 'prefix', 'scopes', 'created_at', 'last_used_at', 'revoked_at'] as const;
type ApiKeyRow = Pick<Selectable<Database['api_keys']>, (typeof apiKeyColumns)[number]> &
  Pick<Selectable<Database['integrations']>, 'environment'>;

const apiKeyOf = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  integrationId: row.integration_id,
  environment: row.environment,
  prefix: row.prefix,
  scopes: row.scopes as Scope[],
  createdAt: new Date(row.created_at),
  lastUsedAt: dateOf(row.last_used_at),
  revokedAt: dateOf(row.revoked_at),
});

/** Keys with their integration's environment (part of the displayed prefix). */
const apiKeysWithEnvironment = () =>
  db
    .selectFrom('api_keys')
    .innerJoin('integrations', 'integrations.id', 'api_keys.integration_id')
    .select(apiKeyColumns.map((column) => `api_keys.${column}` as const))
    .select('integrations.environment');

/** Store a new key (its trigger moves the auth epoch in the same statement); `environment` is its integration's. */
export async function insertApiKey(sql: Sql, key: ApiKey & { secretHash: string }): Promise<ApiKey> {
  const row = await first(
    sql,
    db
      .insertInto('api_keys')
      .values({
        id: key.id,
        integration_id: key.integrationId,
        prefix: key.prefix,
        secret_hash: key.secretHash,
        scopes: [...key.scopes],
        created_at: key.createdAt,
        last_used_at: key.lastUsedAt,
        revoked_at: key.revokedAt,
      })
      .returning(apiKeyColumns),
  );
  return apiKeyOf({ ...row!, environment: key.environment });
}

export async function apiKeyById(sql: Sql, id: string): Promise<ApiKey | undefined> {
  const row = await first(sql, apiKeysWithEnvironment().where('api_keys.id', '=', id));
  return row && apiKeyOf(row);
}

/** An integration's keys, oldest first. */
export async function apiKeysOfIntegration(sql: Sql, integrationId: string): Promise<ApiKey[]> {
  const rows = await run(
    sql,
    apiKeysWithEnvironment().where('api_keys.integration_id', '=', integrationId).orderBy('api_keys.created_at').orderBy('api_keys.id'),
  );
  return rows.map(apiKeyOf);
}

/**
 * Revoke a key not revoked yet (its trigger moves the auth epoch in the same statement, so the next request drops
 * every cached copy). A key revoked meanwhile keeps its first time: it is read back as it is.
 */
export async function revokeApiKey(sql: Sql, key: ApiKey, at: Date): Promise<ApiKey | undefined> {
  const row = await first(
    sql,
    db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', key.id).where('revoked_at', 'is', null).returning(apiKeyColumns),
  );
  return row ? apiKeyOf({ ...row, environment: key.environment }) : apiKeyById(sql, key.id);
}

/**
 * The prefixes of every key not revoked, and the epoch they were read at (one statement, one snapshot): what a
 * process lets through its failed-authentication gate without a lookup for keys that carry no issued tag
 * (docs/decisions.md, "Issued keys told from forged ones").
 */
export async function activeKeyPrefixes(sql: Sql): Promise<{ epoch: string; prefixes: string[] }> {
  const rows = await sql<{ epoch: string; prefixes: string[] | null }>(
    `select e.value::text as epoch, (select array_agg(k.prefix) from api_keys k where k.revoked_at is null) as prefixes
       from auth_epoch e where e.id`,
    [],
  );
  return { epoch: rows[0]!.epoch, prefixes: rows[0]!.prefixes ?? [] };
}
