import type { EntityManager } from '@mikro-orm/postgresql';
import * as store from '../../persistence/sql/organizations.sql.js';
import { sqlOf } from '../../persistence/sql/sql.js';
import type { Organization } from './types.js';

export interface OrganizationView {
  id: string;
  name: string;
  status: 'active' | 'inactive';
  createdAt: string;
}

export const toOrganizationView = (o: Organization): OrganizationView => ({
  id: o.id,
  name: o.name,
  status: o.status,
  createdAt: o.createdAt.toISOString(),
});

export async function createOrganization(em: EntityManager, input: { name: string }): Promise<OrganizationView> {
  const organization = await store.insertOrganization(sqlOf(em), {
    id: crypto.randomUUID(),
    name: input.name,
    status: 'active',
    createdAt: new Date(),
  });
  return toOrganizationView(organization);
}

export async function listOrganizations(em: EntityManager): Promise<OrganizationView[]> {
  return (await store.listOrganizations(sqlOf(em))).map(toOrganizationView);
}
