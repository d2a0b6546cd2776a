import type { Selectable } from 'kysely';
import type { ItemMappingVersion } from '../../domain/ledger/types.js';
import { db, first, run, type Database } from '../db/query.js';
import type { TenantScope } from '../../domain/tenant-scope.js';
import type { Sql } from './sql.js';

const mappingOf = (row: Selectable<Database['item_mappings']>): ItemMappingVersion => ({
  id: row.id,
  organizationId: row.organization_id,
  integrationId: row.integration_id,
  environment: row.environment,
  connectionId: row.connection_id,
  sourceItemId: row.source_item_id,
  productCode: row.product_code,
  unitOfMeasure: row.unit_of_measure,
  commodityCode: row.commodity_code,
  version: row.version,
  evidence: row.evidence,
  approvedBy: row.approved_by,
  approvedAt: new Date(row.approved_at),
  revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
});

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
): Promise<ItemMappingVersion> {
  const row = await first(
    sql,
    db
      .insertInto('item_mappings')
      .columns([
        'id',
        'organization_id',
        'integration_id',
        'environment',
        'connection_id',
        'source_item_id',
        'product_code',
        'unit_of_measure',
        'commodity_code',
        'version',
        'evidence',
        'approved_by',
        'approved_at',
      ])
      .expression(
        db
          .selectFrom('item_mappings')
          .select((eb) => [
            eb.val(crypto.randomUUID()).as('id'),
            eb.val(m.scope.organizationId).as('organization_id'),
            eb.val(m.scope.integrationId).as('integration_id'),
            eb.val(m.scope.environment).as('environment'),
            eb.val(m.connectionId).as('connection_id'),
            eb.val(m.sourceItemId).as('source_item_id'),
            eb.val(m.productCode).as('product_code'),
            eb.val(m.unitOfMeasure).as('unit_of_measure'),
            eb.val(m.commodityCode).as('commodity_code'),
            eb(eb.fn.coalesce(eb.fn.max('version'), eb.lit(0)), '+', 1).as('version'),
            eb.val(m.evidence).as('evidence'),
            eb.val(m.approvedBy).as('approved_by'),
            eb.val(m.now).as('approved_at'),
          ])
          .where('connection_id', '=', m.connectionId)
          .where('source_item_id', '=', m.sourceItemId),
      )
      .returningAll(),
  );
  return mappingOf(row!);
}

export async function mappingById(sql: Sql, id: string): Promise<ItemMappingVersion | undefined> {
  const row = await first(sql, db.selectFrom('item_mappings').selectAll().where('id', '=', id));
  return row && mappingOf(row);
}

/** Every version of a connection's mappings (optionally one item's), newest version first per item. */
export async function listMappings(sql: Sql, f: { connectionId: string; sourceItemId?: string }): Promise<ItemMappingVersion[]> {
  const rows = await run(
    sql,
    db
      .selectFrom('item_mappings')
      .selectAll()
      .where('connection_id', '=', f.connectionId)
      .$if(f.sourceItemId !== undefined, (q) => q.where('source_item_id', '=', f.sourceItemId!))
      .orderBy('source_item_id')
      .orderBy('version', 'desc'),
  );
  return rows.map(mappingOf);
}

/** Revoke one version; false when it was already revoked. */
export async function revokeMapping(sql: Sql, id: string, now: Date): Promise<boolean> {
  const rows = await run(
    sql,
    db.updateTable('item_mappings').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).returning('id'),
  );
  return rows.length > 0;
}
