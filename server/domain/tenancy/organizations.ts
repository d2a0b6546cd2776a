import type { EntityManager } from '@mikro-orm/postgresql';
import { Organization } from '../../persistence/entities/index.js';

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
  const organization = em.create(Organization, { name: input.name });
  await em.flush();
  return toOrganizationView(organization);
}

export async function listOrganizations(em: EntityManager): Promise<OrganizationView[]> {
  const rows = await em.find(Organization, {}, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return rows.map(toOrganizationView);
}
