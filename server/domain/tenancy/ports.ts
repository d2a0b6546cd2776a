import type { Organization } from './types.js';

/** What the tenancy use cases need from storage; server/persistence/stores/tenancy-store.ts implements it. */
export interface TenancyStore {
  insertOrganization(organization: Organization): Promise<Organization>;
  organizationById(id: string): Promise<Organization | undefined>;
  listOrganizations(): Promise<Organization[]>;
}
