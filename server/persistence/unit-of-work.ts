import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { UnitOfWork } from '../domain/unit-of-work.js';
import { databaseOf, poolDatabase, type Database } from './kysely.js';
import { evidenceStore } from './stores/evidence-store.js';
import { paymentReportStore } from './stores/payment-report-store.js';
import { savedPreparationStore } from './stores/saved-preparation-store.js';
import { invoicesStore } from './stores/invoices-store.js';
import { qualificationStore } from './stores/qualification-store.js';
import { invoicePageStore } from './stores/invoice-page-store.js';
import { ledgerStore } from './stores/ledger-store.js';
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
    get paymentReports() {
      return paymentReportStore(db);
    },
    get preparations() {
      return savedPreparationStore(db);
    },
    get evidence() {
      return evidenceStore(db);
    },
    get invoices() {
      return invoicesStore(db);
    },
    get qualification() {
      return qualificationStore(db);
    },
    get ledger() {
      return ledgerStore(db);
    },
    get invoicePages() {
      return invoicePageStore(db);
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
    transaction: (work) => em.transactional((tem) => inTransaction(tem, work)),
  };
}

/** `work` on a transaction's entity manager: its stores once, and its unit of work for savepoints. */
function inTransaction<T>(tem: EntityManager, work: (store: Stores, tx: UnitOfWork<Stores>) => Promise<T>): Promise<T> {
  const store = storesOf(databaseOf(tem));
  return work(store, { store, transaction: (inner) => tem.transactional((sem) => inTransaction(sem, inner)) });
}

/** A unit of work on the ORM's pool, each transaction on a fresh fork (jobs, operator procedures, start-up). */
export function poolUnitOfWork(orm: MikroORM): UnitOfWork<Stores> {
  const pool = poolDatabase(orm);
  return {
    get store() {
      return storesOf(pool);
    },
    transaction: (work) => orm.em.fork().transactional((tem) => inTransaction(tem, work)),
  };
}
