import type { Organization } from '../../domain/tenancy/types.js';
import type { Database } from '../kysely.js';

const columns = ['id', 'name', 'status', 'createdAt'] as const;

export async function insertOrganization(db: Database, organization: Organization): Promise<Organization> {
  return db.insertInto('organizations').values(organization).returning(columns).executeTakeFirstOrThrow();
}

export async function organizationById(db: Database, id: string): Promise<Organization | undefined> {
  return db.selectFrom('organizations').select(columns).where('id', '=', id).executeTakeFirst();
}

export async function listOrganizations(db: Database): Promise<Organization[]> {
  return db.selectFrom('organizations').select(columns).orderBy('createdAt').orderBy('id').execute();
}
