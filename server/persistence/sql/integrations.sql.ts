import type { Selectable } from 'kysely';
import type { Integration } from '../../domain/tenancy/types.js';
import { db, first, run, type Database } from '../db/query.js';
import type { Sql } from './sql.js';

const columns = ['id', 'organization_id', 'provider', 'environment', 'created_at'] as const;

const integrationOf = (row: Pick<Selectable<Database['integrations']>, (typeof columns)[number]>): Integration => ({
  id: row.id,
  organizationId: row.organization_id,
  provider: row.provider,
  environment: row.environment,
  createdAt: new Date(row.created_at),
});

export async function insertIntegration(sql: Sql, integration: Integration): Promise<Integration> {
  const row = await first(
    sql,
    db
      .insertInto('integrations')
      .values({
        id: integration.id,
        organization_id: integration.organizationId,
        provider: integration.provider,
        environment: integration.environment,
        created_at: integration.createdAt,
      })
      .returning(columns),
  );
  return integrationOf(row!);
}

export async function integrationById(sql: Sql, id: string): Promise<Integration | undefined> {
  const row = await first(sql, db.selectFrom('integrations').select(columns).where('id', '=', id));
  return row && integrationOf(row);
}

/** An organization's integrations, oldest first. */
export async function integrationsOfOrganization(sql: Sql, organizationId: string): Promise<Integration[]> {
  const rows = await run(
    sql,
    db.selectFrom('integrations').select(columns).where('organization_id', '=', organizationId).orderBy('created_at').orderBy('id'),
  );
  return rows.map(integrationOf);
}
