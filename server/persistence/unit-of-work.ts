import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { UnitOfWork } from '../domain/unit-of-work.js';
import { databaseOf, poolDatabase, type Database } from './kysely.js';
import { authStore } from './stores/auth-store.js';
import { rateLimitStore } from './stores/rate-limit-store.js';
import { tenancyStore } from './stores/tenancy-store.js';
import { webhooksStore } from './stores/webhooks-store.js';

/**
 * Every area's store on one database handle (a transaction or the pool). Each area is built on first use, so a
 * request pays only for the stores it touches.
 */
export function storesOf(db: Database) {
  return {
    get tenancy() {
      return tenancyStore(db);
    },
    get auth() {
      return authStore(db);
    },
    get rateLimit() {
      return rateLimitStore(db);
    },
    get webhooks() {
      return webhooksStore(db);
    },
  };
}

export type Stores = ReturnType<typeof storesOf>;

/** The domain's unit of work on an entity manager: its transaction when it is in one, the pool otherwise. */
export function unitOfWork(em: EntityManager): UnitOfWork<Stores> {
  return {
    get store() {
      return storesOf(databaseOf(em));
    },
    transaction: (work) => em.transactional((tem) => work(storesOf(databaseOf(tem)))),
  };
}

/** A unit of work on the ORM's pool, each transaction on a fresh fork (jobs, operator procedures, start-up). */
export function poolUnitOfWork(orm: MikroORM): UnitOfWork<Stores> {
  const pool = poolDatabase(orm);
  return {
    get store() {
      return storesOf(pool);
    },
    transaction: (work) => orm.em.fork().transactional((tem) => work(storesOf(databaseOf(tem)))),
  };
}
