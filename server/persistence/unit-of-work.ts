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
 * Every area's store on one database handle (a transaction or the pool). Each area is built on first use and kept
 * for the handle's life, so a request pays only for the stores it touches, once.
 */
class AreaStores {
  readonly #db: Database;
  #tenancy?: ReturnType<typeof tenancyStore>;
  #paymentReports?: ReturnType<typeof paymentReportStore>;
  #preparations?: ReturnType<typeof savedPreparationStore>;
  #evidence?: ReturnType<typeof evidenceStore>;
  #invoices?: ReturnType<typeof invoicesStore>;
  #qualification?: ReturnType<typeof qualificationStore>;
  #ledger?: ReturnType<typeof ledgerStore>;
  #invoicePages?: ReturnType<typeof invoicePageStore>;
  #auth?: ReturnType<typeof authStore>;
  #rateLimit?: ReturnType<typeof rateLimitStore>;
  #webhooks?: ReturnType<typeof webhooksStore>;

  constructor(db: Database) {
    this.#db = db;
  }

  get tenancy() {
    return (this.#tenancy ??= tenancyStore(this.#db));
  }

  get paymentReports() {
    return (this.#paymentReports ??= paymentReportStore(this.#db));
  }

  get preparations() {
    return (this.#preparations ??= savedPreparationStore(this.#db));
  }

  get evidence() {
    return (this.#evidence ??= evidenceStore(this.#db));
  }

  get invoices() {
    return (this.#invoices ??= invoicesStore(this.#db));
  }

  get qualification() {
    return (this.#qualification ??= qualificationStore(this.#db));
  }

  get ledger() {
    return (this.#ledger ??= ledgerStore(this.#db));
  }

  get invoicePages() {
    return (this.#invoicePages ??= invoicePageStore(this.#db));
  }

  get auth() {
    return (this.#auth ??= authStore(this.#db));
  }

  get rateLimit() {
    return (this.#rateLimit ??= rateLimitStore(this.#db));
  }

  get webhooks() {
    return (this.#webhooks ??= webhooksStore(this.#db));
  }
}

export function storesOf(db: Database): AreaStores {
  return new AreaStores(db);
}

export type Stores = AreaStores;

/** `work` on a transaction's entity manager: its stores once, and its unit of work for savepoints. */
function inTransaction<T>(tem: EntityManager, work: (store: Stores, tx: UnitOfWork<Stores>) => Promise<T>): Promise<T> {
  const store = storesOf(databaseOf(tem));
  return work(store, { store, transaction: (inner) => tem.transactional((sem) => inTransaction(sem, inner)) });
}

/** A unit of work on the ORM's pool, each transaction on a fresh fork (jobs, operator procedures, start-up). */
export function poolUnitOfWork(orm: MikroORM): UnitOfWork<Stores> {
  const store = storesOf(poolDatabase(orm));
  return {
    store,
    transaction: (work) => orm.em.fork().transactional((tem) => inTransaction(tem, work)),
  };
}
