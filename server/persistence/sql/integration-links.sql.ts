import type { Selectable } from 'kysely';
import type { IntegrationLink } from '../../domain/tenancy/types.js';
import { db, first, run, type Database } from '../db/query.js';
import type { Sql } from './sql.js';

const columns = ['id', 'ledger_integration_id', 'provider_integration_id', 'created_at'] as const;

const linkOf = (row: Pick<Selectable<Database['integration_links']>, (typeof columns)[number]>): IntegrationLink => ({
  id: row.id,
  ledgerIntegrationId: row.ledger_integration_id,
  providerIntegrationId: row.provider_integration_id,
  createdAt: new Date(row.created_at),
});

/** Store a link; a second link of the same pair is refused by the pair's unique constraint (`isUniqueViolation`). */
export async function insertLink(sql: Sql, link: IntegrationLink): Promise<IntegrationLink> {
  const row = await first(
    sql,
    db
      .insertInto('integration_links')
      .values({
        id: link.id,
        ledger_integration_id: link.ledgerIntegrationId,
        provider_integration_id: link.providerIntegrationId,
        created_at: link.createdAt,
      })
      .returning(columns),
  );
  return linkOf(row!);
}

/** Whether the link with this id existed (and is now gone). */
export async function deleteLink(sql: Sql, id: string): Promise<boolean> {
  const rows = await run(sql, db.deleteFrom('integration_links').where('id', '=', id).returning('id'));
  return rows.length > 0;
}

/** Whether a payment-provider integration is linked to a ledger integration (what `invoices:read` needs). */
export async function isLinked(sql: Sql, providerIntegrationId: string): Promise<boolean> {
  const row = await first(
    sql,
    db.selectFrom('integration_links').select('id').where('provider_integration_id', '=', providerIntegrationId).limit(1),
  );
  return row !== undefined;
}

/** Links, oldest first; either side's integration, or the organization of the ledger side, narrows the list. */
export async function listLinks(
  sql: Sql,
  filter: { organizationId?: string | undefined; integrationId?: string | undefined },
): Promise<IntegrationLink[]> {
  const { organizationId, integrationId } = filter;
  let query = db.selectFrom('integration_links').select(columns);
  if (integrationId) {
    query = query.where((eb) =>
      eb.or([eb('ledger_integration_id', '=', integrationId), eb('provider_integration_id', '=', integrationId)]),
    );
  }
  if (organizationId) {
    query = query.where('ledger_integration_id', 'in', (eb) =>
      eb.selectFrom('integrations').select('id').where('organization_id', '=', organizationId),
    );
  }
  const rows = await run(sql, query.orderBy('created_at').orderBy('id'));
  return rows.map(linkOf);
}
