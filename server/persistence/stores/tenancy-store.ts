import type { TenancyStore } from '../../domain/tenancy/ports.js';
import type { Database } from '../kysely.js';
import { insertOrganization, listOrganizations, organizationById } from '../sql/organizations.sql.js';

export function tenancyStore(db: Database): TenancyStore {
  return {
    insertOrganization: (organization) => insertOrganization(db, organization),
    organizationById: (id) => organizationById(db, id),
    listOrganizations: () => listOrganizations(db),
  };
}
