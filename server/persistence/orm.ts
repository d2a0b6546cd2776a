import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { fileURLToPath } from 'node:url';
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
      allOrNothing: true,
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
