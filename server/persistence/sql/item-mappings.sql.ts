import { withDates, type Sql, type TenantScope } from './sql.js';

export interface ItemMappingRow {
  id: string;
  organization_id: string;
  integration_id: string;
  environment: TenantScope['environment'];
  connection_id: string;
  source_item_id: string;
  product_code: string;
  unit_of_measure: string;
  commodity_code: string | null;
  version: number;
  evidence: string;
  approved_by: string;
  approved_at: Date;
  revoked_at: Date | null;
}

const mappings = withDates<ItemMappingRow>(['approved_at', 'revoked_at']);

/**
 * Add the next version of an item's mapping. The version is computed in the
 * statement and guarded by the unique (connection, item, version) constraint,
 * so two concurrent confirmations never share a version (the loser retries).
 */
export async function insertNextMappingVersion(
  sql: Sql,
  m: {
    scope: TenantScope;
    connectionId: string;
    sourceItemId: string;
    productCode: string;
    unitOfMeasure: string;
    commodityCode: string | null;
    evidence: string;
    approvedBy: string;
    now: Date;
  },
): Promise<ItemMappingRow> {
  const rows = await sql(
    `insert into item_mappings (id, organization_id, integration_id, environment, connection_id, source_item_id, product_code, unit_of_measure,
       commodity_code, version, evidence, approved_by, approved_at)
     select ?, ?, ?, ?, ?, ?, ?, ?, ?, coalesce(max(version), 0) + 1, ?, ?, ?
       from item_mappings where connection_id = ? and source_item_id = ?
     returning *`,
    [
      crypto.randomUUID(),
      m.scope.organizationId,
      m.scope.integrationId,
      m.scope.environment,
      m.connectionId,
      m.sourceItemId,
      m.productCode,
      m.unitOfMeasure,
      m.commodityCode,
      m.evidence,
      m.approvedBy,
      m.now,
      m.connectionId,
      m.sourceItemId,
    ],
  );
  return mappings(rows)[0]!;
}

export async function mappingById(sql: Sql, id: string): Promise<ItemMappingRow | undefined> {
  return mappings(await sql(`select * from item_mappings where id = ?`, [id]))[0];
}

/** Every version of a connection's mappings (optionally one item's), newest version first per item. */
export async function listMappings(sql: Sql, f: { connectionId: string; sourceItemId?: string }): Promise<ItemMappingRow[]> {
  const item = f.sourceItemId === undefined ? '' : ' and source_item_id = ?';
  const params = f.sourceItemId === undefined ? [f.connectionId] : [f.connectionId, f.sourceItemId];
  return mappings(await sql(`select * from item_mappings where connection_id = ?${item} order by source_item_id, version desc`, params));
}

/** The mapping each item of a connection uses now: its newest version, revoked or not (a revoked newest version is a mapping issue). */
export async function currentMappings(sql: Sql, connectionId: string): Promise<ItemMappingRow[]> {
  return mappings(
    await sql(`select distinct on (source_item_id) * from item_mappings where connection_id = ? order by source_item_id, version desc`, [
      connectionId,
    ]),
  );
}

/** Revoke one version; false when it was already revoked. */
export async function revokeMapping(sql: Sql, id: string, now: Date): Promise<boolean> {
  return (await sql(`update item_mappings set revoked_at = ? where id = ? and revoked_at is null returning id`, [now, id])).length > 0;
}
