import type { UnitOfWork } from '../unit-of-work.js';
import type { TenancyStore } from './ports.js';
import type { Organization } from './types.js';

type Storage = UnitOfWork<{ tenancy: TenancyStore }>;

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

export async function createOrganization(storage: Storage, input: { name: string }): Promise<OrganizationView> {
  const organization = await storage.store.tenancy.insertOrganization({
    id: crypto.randomUUID(),
    name: input.name,
    status: 'active',
    createdAt: new Date(),
  });
  return toOrganizationView(organization);
}

export async function listOrganizations(storage: Storage): Promise<OrganizationView[]> {
  return (await storage.store.tenancy.listOrganizations()).map(toOrganizationView);
}
