import type { Integration } from '../../domain/tenancy/types.js';
import type { Database } from '../kysely.js';

const columns = ['id', 'organization as organizationId', 'provider', 'environment', 'createdAt'] as const;

export async function insertIntegration(db: Database, integration: Integration): Promise<Integration> {
  return db
    .insertInto('integrations')
    .values({
      id: integration.id,
      organization: integration.organizationId,
      provider: integration.provider,
      environment: integration.environment,
      createdAt: integration.createdAt,
    })
    .returning(columns)
    .executeTakeFirstOrThrow();
}

export async function integrationById(db: Database, id: string): Promise<Integration | undefined> {
  return db.selectFrom('integrations').select(columns).where('id', '=', id).executeTakeFirst();
}

/** An organization's integrations, oldest first. */
export async function integrationsOfOrganization(db: Database, organizationId: string): Promise<Integration[]> {
  return db
    .selectFrom('integrations')
    .select(columns)
    .where('organization', '=', organizationId)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
}
