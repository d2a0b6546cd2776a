import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.js';
import { entities } from './entities/index.js';
import { migrationsList } from './migrations/index.js';

export const MIGRATIONS_PATH = fileURLToPath(new URL('./migrations', import.meta.url));

export function ormOptions(clientUrl: string, overrides: Partial<Options> = {}): Options {
  return {
    clientUrl,
    entities,
    extensions: [Migrator],
    discovery: { warnWhenNoEntities: false },
    migrations: {
      migrationsList,
      path: MIGRATIONS_PATH,
      pathTs: MIGRATIONS_PATH,
      tableName: 'mikro_orm_migrations',
      transactional: true,
      // Each migration commits on its own: a non-transactional data migration (its batches on their own connections)
      // must see the tables earlier ones created, and no run holds their locks until the last one (docs/operations.md).
      allOrNothing: false,
      snapshot: false,
      emit: 'ts',
      silent: true,
    },
    pool: { min: 0, max: 10 },
    debug: false,
    // The ORM must never write to stdout on its own: logs are the service's JSON lines.
    logger: () => {},
    ...overrides,
  };
}

type DatabaseSettings = Pick<Config, 'SVC_DB_POOL_MAX' | 'SVC_DB_ACQUIRE_TIMEOUT_MS' | 'SVC_DB_STATEMENT_TIMEOUT_MS'>;

/**
 * Pool size and the bounds that keep a request from hanging on a database that
 * is down or stuck: waiting for a pooled connection, opening one, and running
 * one statement (server/config.ts, SVC_DB_*; docs/reliability.md).
 */
export function databaseOptions(c: DatabaseSettings): Partial<Options> {
  return {
    pool: { min: 0, max: c.SVC_DB_POOL_MAX, acquireTimeoutMillis: c.SVC_DB_ACQUIRE_TIMEOUT_MS },
    driverOptions: {
      connection: { connectionTimeoutMillis: c.SVC_DB_ACQUIRE_TIMEOUT_MS, statement_timeout: c.SVC_DB_STATEMENT_TIMEOUT_MS },
    },
  };
}

export function openOrm(clientUrl: string, overrides: Partial<Options> = {}): Promise<MikroORM> {
  return MikroORM.init(ormOptions(clientUrl, overrides));
}

/** Apply every pending migration; safe to call on every start (a no-op when up to date). */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.getMigrator().up();
  return applied.map((m) => m.name);
}

/** Names of migrations not yet applied; `/readyz` is not ready while any remain. */
export async function pendingMigrations(orm: MikroORM): Promise<string[]> {
  const pending = await orm.getMigrator().getPendingMigrations();
  return pending.map((m) => m.name);
}
