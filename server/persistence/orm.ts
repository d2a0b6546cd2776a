import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { fileURLToPath } from 'node:url';
import type { Pool } from 'pg';
import type { Config } from '../config.js';
import { entities } from './entities/index.js';
import { migrationsList } from './migrations/index.js';
import { NamedStatementClient } from './sql/hot-statements.js';

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
    schemaGenerator: {
      // The append-only triggers, the evidence refresh functions and the views are written by hand in the migrations,
      // which stay the one place that changes them; the schema diff compares tables, columns, keys and indexes.
      ignoreTriggers: true,
      ignoreRoutines: true,
      skipViews: [/.*/],
      // Every foreign key was created with ON UPDATE CASCADE (MikroORM 6's default); 7 emits no rule unless told.
      defaultUpdateRule: 'cascade',
    },
    pool: { min: 0, max: 10 },
    debug: false,
    // The ORM must never write to stdout on its own: logs are the service's JSON lines.
    logger: () => {},
    ...overrides,
    // Hot statements are sent by name (sql/hot-statements.ts) whatever else the pool is given.
    driverOptions: { ...(overrides.driverOptions as object | undefined), Client: NamedStatementClient },
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
    pool: { min: 0, max: c.SVC_DB_POOL_MAX },
    driverOptions: {
      // pg's pool applies this bound both to waiting for a pooled connection and to opening a new one.
      connectionTimeoutMillis: c.SVC_DB_ACQUIRE_TIMEOUT_MS,
      statement_timeout: c.SVC_DB_STATEMENT_TIMEOUT_MS,
    },
  };
}

const pools = new WeakMap<MikroORM, { pool?: Pool }>();

export async function openOrm(clientUrl: string, overrides: Partial<Options> = {}): Promise<MikroORM> {
  const options = ormOptions(clientUrl, overrides);
  const created: { pool?: Pool } = {};
  options.driverOptions = { ...options.driverOptions, onPoolCreated: (pool: Pool) => (created.pool = pool) };
  const orm = await MikroORM.init(options);
  pools.set(orm, created);
  return orm;
}

/** The pg pool under the ORM's connection (once it connected), for the saturation gauges. */
export function poolOf(orm: MikroORM): Pool | undefined {
  return pools.get(orm)?.pool;
}

/** Apply every pending migration; safe to call on every start (a no-op when up to date). */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((m) => m.name);
}

/** Names of migrations not yet applied; `/readyz` is not ready while any remain. */
export async function pendingMigrations(orm: MikroORM): Promise<string[]> {
  const pending = await orm.migrator.getPending();
  return pending.map((m) => m.name);
}
