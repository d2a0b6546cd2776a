import type { IntegrationLink } from '../../domain/tenancy/types.js';
import type { Database } from '../kysely.js';

const columns = ['id', 'ledgerIntegration as ledgerIntegrationId', 'providerIntegration as providerIntegrationId', 'createdAt'] as const;

/** Store a link; a second link of the same pair is refused by the pair's unique constraint (the store answers `'exists'`). */
export async function insertLink(db: Database, link: IntegrationLink): Promise<IntegrationLink> {
  return db
    .insertInto('integration_links')
    .values({
      id: link.id,
      ledgerIntegration: link.ledgerIntegrationId,
      providerIntegration: link.providerIntegrationId,
      createdAt: link.createdAt,
    })
    .returning(columns)
    .executeTakeFirstOrThrow();
}

/** Whether the link with this id existed (and is now gone). */
export async function deleteLink(db: Database, id: string): Promise<boolean> {
  const rows = await db.deleteFrom('integration_links').where('id', '=', id).returning('id').execute();
  return rows.length > 0;
}

/** Whether a payment-provider integration is linked to a ledger integration (what `invoices:read` needs). */
export async function isLinked(db: Database, providerIntegrationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('integration_links')
    .select('id')
    .where('providerIntegration', '=', providerIntegrationId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Links, oldest first; either side's integration, or the organization of the ledger side, narrows the list. */
export async function listLinks(
  db: Database,
  filter: { organizationId?: string | undefined; integrationId?: string | undefined },
): Promise<IntegrationLink[]> {
  const { organizationId, integrationId } = filter;
  let query = db.selectFrom('integration_links').select(columns);
  if (integrationId) {
    query = query.where((eb) => eb.or([eb('ledgerIntegration', '=', integrationId), eb('providerIntegration', '=', integrationId)]));
  }
  if (organizationId) {
    query = query.where('ledgerIntegration', 'in', (eb) =>
      eb.selectFrom('integrations').select('id').where('organization', '=', organizationId),
    );
  }
  return query.orderBy('createdAt').orderBy('id').execute();
}
