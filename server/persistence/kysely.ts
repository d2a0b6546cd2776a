import type { EntityManager, InferKyselyDB, MikroORM } from '@mikro-orm/postgresql';
import { CompiledQuery, type Kysely, type RawBuilder } from 'kysely';
import { EntityRowsPlugin } from './entity-rows.js';
import { nameHotStatement } from './sql/hot-statements.js';
import type { entities } from './entities/index.js';

/**
 * How every statement addresses the schema (docs/decisions.md, "Persistence: one query style"): tables by their
 * table names, columns by the entities' property names, values converted both ways by the entities' types (a
 * `datetime` property reads back as a `Date`, a `bigint` as its declared type), and an insert fills what the entities' `onCreate` gives (ids, `createdAt`). The entities are the one schema source;
 * `Db` is inferred from them, nothing is generated.
 */
export const KYSELY_OPTIONS = {
  tableNamingStrategy: 'table',
  columnNamingStrategy: 'property',
  convertValues: true,
  processOnCreateHooks: true,
} as const;

export type Db = InferKyselyDB<(typeof entities)[number], typeof KYSELY_OPTIONS>;

/** A Kysely bound to a transaction or to the pool; statements written against it join whichever it is. */
export type Database = Kysely<Db>;

/**
 * One plugin per ORM (its metadata), shared by every `Database`: MikroORM's `em.getKysely(options)` builds a new
 * Kysely and a new plugin on every call, and its plugin rebuilds its field map for every result (docs/performance.md,
 * "One query style"). The plugin keeps no state between a statement's transform and its result but its caches, so
 * sharing is safe; the entity manager it is built on only feeds `onCreate` hooks, and ours take no arguments.
 */
const plugins = new WeakMap<object, EntityRowsPlugin>();

/** The typed Kysely over a plain one (the pool's or a transaction's), built once for each; and back. */
const databases = new WeakMap<object, Database>();
const plains = new WeakMap<Database, Kysely<unknown>>();

function typed(em: EntityManager, plain: Kysely<unknown>): Database {
  let db = databases.get(plain);
  if (!db) {
    const metadata = em.getMetadata();
    let plugin = plugins.get(metadata);
    if (!plugin) {
      plugin = new EntityRowsPlugin(em, KYSELY_OPTIONS);
      plugins.set(metadata, plugin);
    }
    db = plain.withPlugin(plugin) as unknown as Database;
    databases.set(plain, db);
    plains.set(db, plain);
  }
  return db;
}

/** The entity manager's Kysely: inside its transaction when it has one, on the pool otherwise. */
export function databaseOf(em: EntityManager): Database {
  return typed(em, em.getKysely());
}

/** The ORM's pool, outside any transaction and without a per-request entity manager (what the hot paths use). */
export function poolDatabase(orm: MikroORM): Database {
  return typed(orm.em, orm.em.getKysely());
}

/** Where an argument of a hot statement goes: its place among the compiled statement's parameters. */
class Slot {
  constructor(readonly index: number) {}
}

/**
 * A hot statement: one literal text (Kysely's `sql` tag) sent as a named prepared statement (sql/hot-statements.ts),
 * so each pooled connection parses it once and PostgreSQL can keep a generic plan. Its rows are the database's own
 * (column names, driver values): `Row` says which; one name per text. `build` places each argument as one plain value
 * (`${arg}`, any number of times), never as SQL: the text is compiled once, with a marker per argument, and each call
 * only puts its arguments in the markers' places.
 */
export interface HotStatement<Row, Args extends readonly unknown[]> {
  readonly name: string;
  readonly build: (...args: Args) => RawBuilder<Row>;
}

/** Each hot statement's text and parameters (markers in the arguments' places), compiled on its first run. */
const compiledStatements = new WeakMap<object, { readonly sql: string; readonly parameters: readonly unknown[] }>();

export function hotStatement<Row, Args extends readonly unknown[]>(
  name: string,
  build: (...args: Args) => RawBuilder<Row>,
): HotStatement<Row, Args> {
  return { name, build };
}

function compileOnce(statement: HotStatement<unknown, readonly unknown[]>, arity: number, on: Kysely<unknown>) {
  const slots = Array.from({ length: arity }, (_, i) => new Slot(i));
  const compiled = statement.build(...slots).compile(on);
  for (const slot of slots) {
    // An argument that is not among the parameters went into the text (or nowhere): its value would be lost.
    if (!compiled.parameters.includes(slot)) {
      throw new Error(`Hot statement ${statement.name}: argument ${slot.index} is not a plain value of its text`);
    }
  }
  nameHotStatement(compiled.sql, statement.name);
  const once = { sql: compiled.sql, parameters: compiled.parameters };
  compiledStatements.set(statement, once);
  return once;
}

/** Run a hot statement with its arguments, on the pool or in the transaction `db` is bound to. */
export async function runNamed<Row, Args extends readonly unknown[]>(
  db: Database,
  statement: HotStatement<Row, Args>,
  ...args: Args
): Promise<Row[]> {
  // On the plain Kysely under `db` (same pool or transaction): no plugin has anything to map in a literal text, and
  // walking it through them costs a hot path CPU on every call.
  const on = (plains.get(db) ?? db) as Kysely<unknown>;
  const { sql, parameters } =
    compiledStatements.get(statement) ?? compileOnce(statement as HotStatement<unknown, readonly unknown[]>, args.length, on);
  const values = parameters.map((p) => (p instanceof Slot ? args[p.index] : p));
  return (await on.executeQuery<Row>(CompiledQuery.raw(sql, values))).rows;
}
