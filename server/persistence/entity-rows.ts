import { ReferenceKind, type EntityMetadata, type EntityProperty } from '@mikro-orm/core';
import { MikroKyselyPlugin, type EntityManager, type MikroKyselyPluginOptions } from '@mikro-orm/postgresql';
import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/**
 * MikroORM's Kysely plugin with its result side replaced (docs/decisions.md, "Persistence: one query style").
 *
 * The statement side is MikroORM's own (property names → columns, values → the database's, `onCreate` hooks). Its
 * result side rebuilt the field → property map of every table in the statement for each result and then walked that
 * whole map for each row (about 4 µs a row, 16 µs for a single row). Here the same rules run on names only, once per
 * statement shape and row shape: the outcome is a short list of column → property steps, each with the property's
 * converter, cached and applied to every row. The rows are the ones MikroORM's plugin gives (same names, same
 * values, same key order); a test compares them (test/integration/platform/entity-rows.test.ts).
 */
export class EntityRowsPlugin implements KyselyPlugin {
  readonly #statements: MikroKyselyPlugin;
  readonly #convert: (prop: EntityProperty) => Converter | undefined;
  readonly #metaByName = new Map<string, EntityMetadata>();
  readonly #fieldMaps = new Map<string, FieldMaps>();
  readonly #plans = new Map<string, Plan>();
  readonly #tablesOf = new WeakMap<QueryId, Tables>();

  constructor(em: EntityManager, options: MikroKyselyPluginOptions) {
    if (options.columnNamingStrategy !== 'property' || options.convertValues !== true) {
      throw new Error('EntityRowsPlugin maps rows for columnNamingStrategy "property" with convertValues only');
    }
    this.#statements = new MikroKyselyPlugin(em, options);
    const platform = em.getDriver().getPlatform();
    this.#convert = (prop) => converterOf(prop, platform);
    // MikroORM's lookup order: an entity's class name first, then a table name.
    const metas = [...em.getMetadata()];
    for (const meta of metas) this.#metaByName.set(meta.className, meta);
    for (const meta of metas) if (!this.#metaByName.has(meta.tableName)) this.#metaByName.set(meta.tableName, meta);
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = this.#statements.transformQuery(args);
    const kind = args.node.kind;
    if (kind === 'SelectQueryNode' || kind === 'InsertQueryNode' || kind === 'UpdateQueryNode' || kind === 'DeleteQueryNode') {
      this.#tablesOf.set(args.queryId, this.#tables(args.node));
    }
    return node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const tables = this.#tablesOf.get(args.queryId);
    const rows = args.result.rows;
    if (!tables || tables.size === 0 || !rows || rows.length === 0) return args.result;
    const first = rows[0]!;
    const shape = Object.keys(first);
    const tablesKey = tablesKeyOf(tables);
    const planKey = `${tablesKey}\u0000${shape.join('\u0000')}`;
    let plan = this.#plans.get(planKey);
    if (!plan) {
      plan = planOf(this.#fieldMapsOf(tablesKey, tables), shape, this.#convert);
      this.#plans.set(planKey, plan);
    }
    const out = new Array<UnknownRow>(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = plan(rows[i]!);
    return { ...args.result, rows: out };
  }

  /** The tables of a statement under the names its rows can carry, as MikroORM's transformer records them. */
  #tables(root: OperationNode): Tables {
    const tables: Tables = new Map();
    const meta = (name: string | undefined) => (name === undefined ? undefined : this.#metaByName.get(name));
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) {
        for (const child of node) visit(child);
        return;
      }
      if (!isNode(node)) return;
      const children = CHILDREN[node.kind];
      if (node.kind === 'SelectQueryNode') {
        for (const cte of (node.with as { expressions: readonly Node[] } | undefined)?.expressions ?? []) {
          const name = tableNameOf((cte.name as Node).table);
          const expression = cte.expression as Node;
          if (name !== undefined && expression.kind === 'SelectQueryNode') {
            const source = meta(sourceTableOf(expression));
            if (source) tables.set(name, source);
          }
        }
        for (const from of (node.from as { froms: readonly Node[] } | undefined)?.froms ?? []) this.#from(from, tables, true);
        for (const join of (node.joins as readonly Node[] | undefined) ?? []) this.#from(join.table as Node, tables, false);
      } else if (node.kind === 'InsertQueryNode') {
        const into = meta(tableNameOf(node.into));
        if (into) tables.set(into.tableName, into);
      } else if (node.kind === 'UpdateQueryNode') {
        const table = meta(tableNameOf(node.table));
        if (table) tables.set(table.tableName, table);
        for (const from of (node.from as { froms: readonly Node[] } | undefined)?.froms ?? []) this.#from(from, tables, true);
        for (const join of (node.joins as readonly Node[] | undefined) ?? []) this.#from(join.table as Node, tables, false);
      } else if (node.kind === 'DeleteQueryNode') {
        const first = (node.from as { froms: readonly Node[] } | undefined)?.froms[0];
        const table = meta(tableNameOf(first));
        if (table) tables.set(table.tableName, table);
        for (const join of (node.joins as readonly Node[] | undefined) ?? []) this.#from(join.table as Node, tables, false);
      }
      if (children) for (const key of children) visit(node[key]);
      else for (const key in node) if (key !== 'kind') visit(node[key]);
    };
    visit(root);
    return tables;
  }

  /** A `from` or `join` item: an aliased table under its alias, a plain one under its name (MikroORM's rules). */
  #from(item: Node, tables: Tables, isFrom: boolean): void {
    if (item.kind === 'AliasNode') {
      const alias = (item.alias as { name?: string } | undefined)?.name;
      const meta = this.#metaByName.get(tableNameOf(item.node) ?? '');
      if (alias !== undefined && meta) tables.set(alias, meta);
      return;
    }
    const name = tableNameOf(item);
    const meta = name === undefined ? undefined : this.#metaByName.get(name);
    if (meta) tables.set(isFrom ? name! : meta.tableName, meta);
  }

  #fieldMapsOf(key: string, tables: Tables): FieldMaps {
    let maps = this.#fieldMaps.get(key);
    if (!maps) {
      maps = fieldMapsOf(tables);
      this.#fieldMaps.set(key, maps);
    }
    return maps;
  }
}

type Node = OperationNode & Record<string, unknown>;
type Tables = Map<string, EntityMetadata>;
type Converter = (value: unknown) => unknown;
type Plan = (row: UnknownRow) => UnknownRow;
interface FieldMaps {
  fields: [string, EntityProperty][];
  relations: [string, string][];
}

/** Kysely's transformer visits a statement's children in this order; the tables are recorded in the same order. */
const CHILDREN: Record<string, readonly string[] | undefined> = {
  SelectQueryNode: [
    'from',
    'selections',
    'distinctOn',
    'joins',
    'groupBy',
    'orderBy',
    'where',
    'frontModifiers',
    'endModifiers',
    'limit',
    'offset',
    'with',
    'having',
    'explain',
    'setOperations',
    'fetch',
    'top',
  ],
  InsertQueryNode: [
    'into',
    'columns',
    'values',
    'returning',
    'onConflict',
    'onDuplicateKey',
    'endModifiers',
    'with',
    'orAction',
    'replace',
    'explain',
    'defaultValues',
    'top',
    'output',
  ],
  UpdateQueryNode: [
    'table',
    'from',
    'joins',
    'where',
    'updates',
    'returning',
    'endModifiers',
    'with',
    'explain',
    'limit',
    'top',
    'output',
    'orderBy',
  ],
  DeleteQueryNode: ['from', 'using', 'joins', 'where', 'returning', 'endModifiers', 'with', 'orderBy', 'limit', 'explain', 'top', 'output'],
};

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}

function tableNameOf(node: unknown): string | undefined {
  if (!isNode(node) || node.kind !== 'TableNode') return undefined;
  const table = node.table as Node;
  if (table?.kind !== 'SchemableIdentifierNode') return undefined;
  return (table.identifier as { name?: string } | undefined)?.name;
}

function sourceTableOf(select: Node): string | undefined {
  const first = (select.from as { froms: readonly Node[] } | undefined)?.froms[0];
  if (!first) return undefined;
  return first.kind === 'AliasNode' ? tableNameOf(first.node) : tableNameOf(first);
}

function tablesKeyOf(tables: Tables): string {
  let key = '';
  for (const [alias, meta] of tables) key += `${alias}=${meta.className};`;
  return key;
}

/** MikroORM's global field map (buildGlobalFieldMap, buildGlobalRelationFieldMap): later tables win a shared name. */
function fieldMapsOf(tables: Tables): FieldMaps {
  const fields: Record<string, EntityProperty> = {};
  const relations: Record<string, string> = {};
  for (const [alias, meta] of tables) {
    const own: Record<string, EntityProperty> = {};
    for (const prop of meta.props) {
      for (const field of prop.fieldNames ?? []) {
        for (const key of [field, `${alias}.${field}`, `${alias}_${field}`, `${alias}__${field}`]) if (!(key in own)) own[key] = prop;
      }
      if (!(prop.name in own)) own[prop.name] = prop;
      if ((prop.kind === ReferenceKind.MANY_TO_ONE || prop.kind === ReferenceKind.ONE_TO_ONE) && prop.fieldNames?.length) {
        const field = prop.fieldNames[0]!;
        for (const key of [field, `${alias}.${field}`, `${alias}_${field}`, `${alias}__${field}`]) relations[key] = prop.name;
      }
    }
    Object.assign(fields, own);
  }
  return { fields: Object.entries(fields), relations: Object.entries(relations) };
}

/**
 * MikroORM's row transform (transformRow) run once on a row's column names: each field of the map present in the
 * row is converted and moved to its property's name, then a relation's key column to the relation's name. What is
 * left is, per output key in order, the input column it comes from and the converters applied on the way.
 */
function planOf(maps: FieldMaps, shape: readonly string[], convert: (prop: EntityProperty) => Converter | undefined): Plan {
  const keys = new Map<string, { from: string; via: Converter[] }>(shape.map((key) => [key, { from: key, via: [] }]));
  for (const [field, prop] of maps.fields) {
    const at = keys.get(field);
    if (!at) continue;
    const converter = convert(prop);
    const next = { from: at.from, via: converter ? [...at.via, converter] : at.via };
    if (prop.name !== field) {
      keys.set(prop.name, next);
      keys.delete(field);
    } else keys.set(field, next);
  }
  for (const [field, relation] of maps.relations) {
    const at = keys.get(field);
    if (at && !keys.has(relation)) {
      keys.set(relation, at);
      keys.delete(field);
    }
  }
  const steps = [...keys].map(([to, { from, via }]) => ({ to, from, via }));
  return (row) => {
    const out: UnknownRow = {};
    for (const step of steps) {
      let value = row[step.from];
      for (const c of step.via) value = c(value);
      out[step.to] = value;
    }
    return out;
  };
}

/** MikroORM's output conversion of one property (prepareOutputValue) with its branches decided once. */
function converterOf(
  prop: EntityProperty,
  platform: ReturnType<ReturnType<EntityManager['getDriver']>['getPlatform']>,
): Converter | undefined {
  const customType = prop.customType;
  if (customType) return (value) => (value == null ? value : customType.convertToJSValue(value, platform));
  if (prop.runtimeType === 'boolean') return (value) => (value == null ? value : !!value);
  if (prop.runtimeType === 'Date' && !platform.isNumericProperty(prop)) {
    return (value) => {
      if (value == null || value instanceof Date) return value;
      const tz = platform.getTimezone();
      if (!tz || tz === 'local') return platform.parseDate(value as string | number);
      if (
        typeof value === 'number' ||
        (typeof value === 'string' && (value.includes('+') || value.lastIndexOf('-') > 10 || value.endsWith('Z')))
      ) {
        return platform.parseDate(value);
      }
      return platform.parseDate(`${value as string}${tz}`);
    };
  }
  return undefined;
}
