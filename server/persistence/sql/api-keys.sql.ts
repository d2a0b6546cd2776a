import { sql } from 'kysely';
import type { Scope } from '../../../contract/common/index.js';
import type { KeyRecord } from '../../domain/auth/types.js';
import type { ApiKey } from '../../domain/tenancy/types.js';
import { hotStatement, runNamed, type Database } from '../kysely.js';

/**
 * A key record as the prefix lookup's text returns it: the database's own column names and values (timestamps as
 * text); every key column is null on the epoch row when no key has the prefix.
 */
type KeyRecordRow = {
  epoch: string;
  id: string | null;
  secret_hash: string;
  scopes: Scope[];
  revoked_at: string | null;
  last_used_at: string | null;
  integration_id: string;
  organization_id: string;
  provider: KeyRecord['provider'];
  environment: KeyRecord['environment'];
  organization_status: KeyRecord['organizationStatus'];
  linked: boolean;
};

const dateOf = (at: string | null): Date | null => (at === null ? null : new Date(at));

/**
 * One statement text (not composed, not named): on the hot path for every key this process does not hold cached.
 * The left join keeps the epoch row when no key has the prefix (a nested join group, which the builder does not
 * write), so its rows are the database's and `findKeyRecord` maps them once.
 */
export const keyRecordByPrefix = (prefix: string) =>
  sql<KeyRecordRow>`select e.value as epoch, k.id, k.secret_hash, k.scopes, k.revoked_at, k.last_used_at,
            i.id as integration_id, i.organization_id, i.provider, i.environment, o.status as organization_status,
            exists (select 1 from integration_links l where l.provider_integration_id = i.id) as linked
       from auth_epoch e
       left join (api_keys k join integrations i on i.id = k.integration_id join organizations o on o.id = i.organization_id)
         on k.prefix = ${prefix}
      where e.id`;

/**
 * The key behind a prefix with everything a verdict needs, and the auth epoch
 * read in the same statement (so in the same snapshot): the record is current
 * for as long as the epoch has not moved.
 */
export async function findKeyRecord(db: Database, prefix: string): Promise<{ epoch: string; key: KeyRecord | undefined }> {
  const row = (await keyRecordByPrefix(prefix).execute(db)).rows[0]!;
  if (row.id === null) return { epoch: row.epoch, key: undefined };
  return {
    epoch: row.epoch,
    key: {
      id: row.id,
      secretHash: row.secret_hash,
      scopes: row.scopes,
      revokedAt: dateOf(row.revoked_at),
      lastUsedAt: dateOf(row.last_used_at),
      integrationId: row.integration_id,
      organizationId: row.organization_id,
      provider: row.provider,
      environment: row.environment,
      organizationStatus: row.organization_status,
      linked: row.linked,
    },
  };
}

/** The key with this id, as `findKeyRecord` reads it (operators act on behalf of a key by its id). */
export async function keyRecordById(db: Database, id: string): Promise<KeyRecord | undefined> {
  return (
    db
      .selectFrom('api_keys as k')
      .innerJoin('integrations as i', 'i.id', 'k.integration')
      .innerJoin('organizations as o', 'o.id', 'i.organization')
      .select(['k.id', 'k.secretHash', 'k.scopes', 'k.revokedAt', 'k.lastUsedAt'])
      .select([
        'i.id as integrationId',
        'i.organization as organizationId',
        'i.provider',
        'i.environment',
        'o.status as organizationStatus',
      ])
      .select((eb) =>
        eb
          .exists(eb.selectFrom('integration_links as l').select(eb.lit(1).as('one')).whereRef('l.providerIntegration', '=', 'i.id'))
          // PostgreSQL answers `exists` with a boolean (Kysely's SqlBool also allows other dialects' 0/1).
          .$castTo<boolean>()
          .as('linked'),
      )
      .where('k.id', '=', id)
      // Scopes are a text[] column; only `issueApiKey` writes it, with scopes the contract validated.
      .$narrowType<{ scopes: Scope[] }>()
      .executeTakeFirst()
  );
}

/**
 * The current auth epoch (see migration auth_epoch): one primary-key read. Named: it runs for every request, and
 * parsing and planning it cost PostgreSQL more than running it.
 */
const AUTH_EPOCH_READ = hotStatement('auth_epoch_read', () => sql<{ value: string }>`select value from auth_epoch where id`);

export async function readAuthEpoch(db: Database): Promise<string> {
  const rows = await runNamed(db, AUTH_EPOCH_READ);
  return rows[0]!.value;
}

/** Record use; only moves forward, so concurrent requests never fight over an older value. */
export async function touchKey(db: Database, id: string, at: Date, resolutionMs: number): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ lastUsedAt: at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('lastUsedAt', 'is', null), eb('lastUsedAt', '<', new Date(at.getTime() - resolutionMs))]))
    .execute();
}

const apiKeyColumns = [
  'api_keys.id',
  'api_keys.integration as integrationId',
  'api_keys.prefix',
  'api_keys.scopes',
  'api_keys.createdAt',
  'api_keys.lastUsedAt',
  'api_keys.revokedAt',
] as const;

/** Keys with their integration's environment (part of the displayed prefix). */
const apiKeysWithEnvironment = (db: Database) =>
  db
    .selectFrom('api_keys')
    .innerJoin('integrations', 'integrations.id', 'api_keys.integration')
    .select(apiKeyColumns)
    .select('integrations.environment')
    .$narrowType<{ scopes: Scope[] }>();

/** Store a new key (its trigger moves the auth epoch in the same statement); `environment` is its integration's. */
export async function insertApiKey(db: Database, key: ApiKey & { secretHash: string }): Promise<ApiKey> {
  const row = await db
    .insertInto('api_keys')
    .values({
      id: key.id,
      integration: key.integrationId,
      prefix: key.prefix,
      secretHash: key.secretHash,
      scopes: [...key.scopes],
      createdAt: key.createdAt,
      lastUsedAt: key.lastUsedAt,
      revokedAt: key.revokedAt,
    })
    .returning(apiKeyColumns)
    .$narrowType<{ scopes: Scope[] }>()
    .executeTakeFirstOrThrow();
  return { ...row, environment: key.environment };
}

export async function apiKeyById(db: Database, id: string): Promise<ApiKey | undefined> {
  return apiKeysWithEnvironment(db).where('api_keys.id', '=', id).executeTakeFirst();
}

/** An integration's keys, oldest first. */
export async function apiKeysOfIntegration(db: Database, integrationId: string): Promise<ApiKey[]> {
  return apiKeysWithEnvironment(db)
    .where('api_keys.integration', '=', integrationId)
    .orderBy('api_keys.createdAt')
    .orderBy('api_keys.id')
    .execute();
}

/**
 * Revoke a key not revoked yet (its trigger moves the auth epoch in the same statement, so the next request drops
 * every cached copy). A key revoked meanwhile keeps its first time: it is read back as it is.
 */
export async function revokeApiKey(db: Database, key: ApiKey, at: Date): Promise<ApiKey | undefined> {
  const row = await db
    .updateTable('api_keys')
    .set({ revokedAt: at })
    .where('id', '=', key.id)
    .where('revokedAt', 'is', null)
    .returning(apiKeyColumns)
    .$narrowType<{ scopes: Scope[] }>()
    .executeTakeFirst();
  return row ? { ...row, environment: key.environment } : apiKeyById(db, key.id);
}

/**
 * The prefixes of every key not revoked, and the epoch they were read at (one statement, one snapshot): what a
 * process lets through its failed-authentication gate without a lookup for keys that carry no issued tag
 * (docs/decisions.md, "Issued keys told from forged ones").
 */
export async function activeKeyPrefixes(db: Database): Promise<{ epoch: string; prefixes: string[] }> {
  const { rows } = await sql<{ epoch: string; prefixes: string[] | null }>`select e.value::text as epoch,
         (select array_agg(k.prefix) from api_keys k where k.revoked_at is null) as prefixes
       from auth_epoch e where e.id`.execute(db);
  return { epoch: rows[0]!.epoch, prefixes: rows[0]!.prefixes ?? [] };
}
