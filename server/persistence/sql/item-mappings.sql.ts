import type { NextMappingVersion } from '../../domain/invoices/ports.js';
import type { ItemMappingVersion } from '../../domain/ledger/types.js';
import type { Database } from '../kysely.js';

/** The columns of an `ItemMappingVersion`. */
const columns = [
  'id',
  'organization as organizationId',
  'integration as integrationId',
  'environment',
  'connection as connectionId',
  'sourceItemId',
  'productCode',
  'unitOfMeasure',
  'commodityCode',
  'version',
  'evidence',
  'approvedBy',
  'approvedAt',
  'revokedAt',
] as const;

/**
 * Add the next version of an item's mapping. The version is computed in the
 * statement and guarded by the unique (connection, item, version) constraint,
 * so two concurrent confirmations never share a version (the loser retries).
 */
export async function insertNextMappingVersion(db: Database, m: NextMappingVersion): Promise<ItemMappingVersion> {
  return db
    .insertInto('item_mappings')
    .columns([
      'id',
      'organization',
      'integration',
      'environment',
      'connection',
      'sourceItemId',
      'productCode',
      'unitOfMeasure',
      'commodityCode',
      'version',
      'evidence',
      'approvedBy',
      'approvedAt',
    ])
    .expression(
      db
        .selectFrom('item_mappings')
        .select((eb) => [
          eb.val(crypto.randomUUID()).as('id'),
          eb.val(m.scope.organizationId).as('organization'),
          eb.val(m.scope.integrationId).as('integration'),
          eb.val(m.scope.environment).as('environment'),
          eb.val(m.connectionId).as('connection'),
          eb.val(m.sourceItemId).as('sourceItemId'),
          eb.val(m.productCode).as('productCode'),
          eb.val(m.unitOfMeasure).as('unitOfMeasure'),
          eb.val(m.commodityCode).as('commodityCode'),
          eb(eb.fn.coalesce(eb.fn.max('version'), eb.lit(0)), '+', 1).as('version'),
          eb.val(m.evidence).as('evidence'),
          eb.val(m.approvedBy).as('approvedBy'),
          eb.val(m.now).as('approvedAt'),
        ])
        .where('connection', '=', m.connectionId)
        .where('sourceItemId', '=', m.sourceItemId),
    )
    .returning(columns)
    .executeTakeFirstOrThrow();
}

export async function mappingById(db: Database, id: string): Promise<ItemMappingVersion | undefined> {
  return db.selectFrom('item_mappings').select(columns).where('id', '=', id).executeTakeFirst();
}

/** Every version of a connection's mappings (optionally one item's), newest version first per item. */
export async function listMappings(db: Database, f: { connectionId: string; sourceItemId?: string }): Promise<ItemMappingVersion[]> {
  return db
    .selectFrom('item_mappings')
    .select(columns)
    .where('connection', '=', f.connectionId)
    .$if(f.sourceItemId !== undefined, (q) => q.where('sourceItemId', '=', f.sourceItemId!))
    .orderBy('sourceItemId')
    .orderBy('version', 'desc')
    .execute();
}

/** Revoke one version; false when it was already revoked. */
export async function revokeMapping(db: Database, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .updateTable('item_mappings')
    .set({ revokedAt: now })
    .where('id', '=', id)
    .where('revokedAt', 'is', null)
    .returning('id')
    .execute();
  return rows.length > 0;
}
